/**
 * The round-trip report on a document whose schema `Problem` the import renames (the
 * platform's own schema has that name), imported into a project that declares nothing.
 *
 * It spawns npm and tsc on a shared 2-core machine, so it states its own timeout.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IN_REVISION_RUN, projectCopyForFile, SLOW } from "../support/project-copy";

const projectCopy = projectCopyForFile("contract-import-rename-");

/**
 * A FIXTURE document (3.0, YAML) whose schema `Problem` the platform's own schema's name
 * takes, referred to from a dozen places: the import serves it as SpecProblem.
 */
const PROBLEM_EVERYWHERE = `openapi: 3.0.3
info: { title: FIXTURE renamed Problem, version: 1.0.0 }
paths:
  /fixture-reports:
    post:
      operationId: fixtureReport
      requestBody:
        required: true
        content:
          application/json: { schema: { $ref: "#/components/schemas/Problem" } }
      responses:
        "200":
          description: FIXTURE reports.
          content:
            application/json:
              schema:
                type: object
                properties:
                  first: { $ref: "#/components/schemas/Problem" }
                  all: { type: array, items: { $ref: "#/components/schemas/Problem" } }
        "404": { $ref: "#/components/responses/FixtureNotThere" }
        "409":
          description: Already there.
          content:
            application/problem+json: { schema: { $ref: "#/components/schemas/Problem" } }
    get:
      operationId: fixtureReports
      responses:
        "200":
          description: FIXTURE reports.
          content:
            application/json: { schema: { $ref: "#/components/schemas/FixtureHolder" } }
        "404": { $ref: "#/components/responses/FixtureNotThere" }
components:
  responses:
    FixtureNotThere:
      description: Not there.
      content:
        application/problem+json: { schema: { $ref: "#/components/schemas/Problem" } }
  schemas:
    Problem:
      type: object
      required: [code]
      properties:
        code: { type: string, minLength: 1 }
        causes: { type: array, items: { $ref: "#/components/schemas/Problem" } }
    FixtureHolder:
      type: object
      properties:
        one: { $ref: "#/components/schemas/Problem" }
        many: { type: array, items: { $ref: "#/components/schemas/Problem" } }
        byName: { type: object, additionalProperties: { $ref: "#/components/schemas/Problem" } }
        nested: { type: object, properties: { deeper: { $ref: "#/components/schemas/Problem" } } }
    FixtureDetailed:
      allOf:
        - $ref: "#/components/schemas/Problem"
        - { type: object, properties: { detail: { type: string } } }
`;

describe.skipIf(IN_REVISION_RUN)(
  "npm run contract:diff, on a document whose Problem the import renames",
  () => {
    it(
      "counts the rename once, as carried under another name, and holds the document to 100%",
      () => {
        const project = projectCopy();
        const file = join(project.dir, "problem-everywhere.yaml");
        writeFileSync(file, PROBLEM_EVERYWHERE);
        const imported = project.npm("contract:import", "--", file, "--force");
        expect(imported.status, String(imported.stdout) + String(imported.stderr)).toBe(0);
        const diff = project.npm("contract:diff", "--", file, "--min", "1");
        const out = String(diff.stdout);
        expect(diff.status, out + String(diff.stderr)).toBe(0);
        expect(out).toContain(
          "carried under another name (kept):\n  #/components/schemas/Problem: served as SpecProblem: the platform's own schema is called Problem\n\n",
        );
        expect(out).toMatch(/ {2}schemas +100\.0% {2}\(\d+ of \d+\)/);
        expect(out).toMatch(/ {2}overall +100\.0% {2}\(\d+ of \d+; at least 100\.0% required\)/);
      },
      2 * SLOW,
    );
  },
);
