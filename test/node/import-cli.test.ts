/**
 * The importer's and the round-trip report's command lines, run as a user runs them, in a
 * copy of the project (test/tools/copy-project.ts), over the rich FIXTURE document: what
 * they write (part files formatted with Biome, the entry, the deployment files with names
 * and placeholders only, the specification's given parts, the report), what they print,
 * when they refuse, and their exit statuses.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject } from "../tools/copy-project";

const RICH = resolve("test/fixtures/openapi/rich-3.1.yaml");
let copy: string;
let first: ReturnType<typeof spawnSync>;

const npm = (...args: string[]) =>
  spawnSync("npm", ["run", "--silent", ...args], { cwd: copy, encoding: "utf8" });
const read = (path: string) => readFileSync(join(copy, path), "utf8");

beforeAll(() => {
  copy = copyProject("contract-import-cli-");
  // --force: the copy's contract may already declare something (a revision run's does).
  first = npm("contract:import", "--", RICH, "--force");
}, 120_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("npm run contract:import", () => {
  it("writes the contract and says what it wrote, per part", () => {
    expect(first.status, String(first.stderr)).toBe(0);
    const out = String(first.stdout);
    expect(out).toContain("4. Endpoints                    10 operations on 7 paths");
    expect(out).toContain(
      "3. States and transitions       left as it was (OpenAPI does not carry it)",
    );
    expect(out).toMatch(
      /\d+ findings \(\d+ not carried, \d+ not enforced, \d+ carried differently\): src\/contract\/IMPORT-REPORT\.md/,
    );
    // Progress on stderr, the document read first.
    expect(String(first.stderr)).toMatch(/^import: reading .*rich-3\.1\.yaml\nimport: schemas/);
  });

  it("writes code Biome leaves as it is, and an entry that passes the engine, the converter and (for the OAuth 2 scheme) the JWT verifier", () => {
    const biome = spawnSync("npx", ["biome", "ci", "src/contract", "src/index.ts"], {
      cwd: copy,
      encoding: "utf8",
    });
    expect(biome.status, biome.stdout).toBe(0);
    const entry = read("src/index.ts");
    for (const option of [
      "engine: OPERATION_ENGINE",
      "jsonSchema: toJSONSchema",
      "jwt: JWT_VERIFIER",
    ])
      expect(entry).toContain(option);
  });

  it("lists the secrets and vars the deployment must set, with placeholders, never a value", () => {
    const toml = read("wrangler.toml");
    expect(toml).toContain('required = ["LIBRARIAN_KEY"]');
    for (const name of ["MEMBER_TOKEN_JWKS_URL", "MEMBER_TOKEN_ISSUER", "MEMBER_TOKEN_AUDIENCE"])
      expect(toml).toContain(`${name} = ""`);
    expect(read(".dev.vars.example")).toContain("LIBRARIAN_KEY=<API_KEY>");
    const check = spawnSync("npx", ["tsx", "test/tools/contract-deployment.ts", "--check"], {
      cwd: copy,
      encoding: "utf8",
    });
    expect(check.status, check.stderr).toBe(0);
  });

  it("marks the parts the document gives in SPECIFICATION.md, and reports every finding with its pointer", () => {
    const spec = read("src/contract/SPECIFICATION.md");
    expect(spec).toContain(
      "## 4. Endpoints\n\nGiven by the OpenAPI document: 10 operations on 7 paths.",
    );
    expect(spec).toMatch(/## 3\. States and transitions\n\n[^\n]*not shown/);
    const report = read("src/contract/IMPORT-REPORT.md");
    expect(report).toContain(
      "- `#/info/x-fixture-audience`: x-fixture-audience: an extension of info",
    );
  });

  it("refuses, in one line, to replace a contract that declares something, unless --force", () => {
    const again = npm("contract:import", "--", RICH);
    expect(again.status).toBe(1);
    const lines = String(again.stderr).trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^src\/contract already declares parts 1, 2, (3, )?4, 5, 6, 7, 8, 9: nothing written \(add --force to replace them\)$/,
    );
    expect(npm("contract:import", "--", RICH, "--force").status).toBe(0);
  }, 120_000);
});

describe("npm run contract:diff", () => {
  it("prints a fidelity figure per category and overall, and each loss with its pointer", () => {
    const diff = npm("contract:diff", "--", RICH);
    expect(diff.status, String(diff.stderr)).toBe(0);
    const out = String(diff.stdout);
    expect(out).toContain(
      "carried under another name (kept):\n  #/components/schemas/Problem: served as SpecProblem: the platform's own schema is called Problem\n",
    );
    expect(out).toMatch(/ {2}operations +100\.0% {2}\(\d+ of \d+\)/);
    expect(out).toMatch(/ {2}overall +9\d\.\d% {2}\(\d+ of \d+; at least 95\.0% required\)/);
  });

  it("exits 1 below the threshold it is given", () => {
    expect(npm("contract:diff", "--", RICH, "--min", "1").status).toBe(1);
    expect(npm("contract:diff", "--", RICH, "--min", "2").status).toBe(2);
  });
});

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

describe("npm run contract:diff, on a document whose Problem the import renames", () => {
  it("counts the rename once, as carried under another name, and holds the document to 100%", () => {
    const file = join(copy, "problem-everywhere.yaml");
    writeFileSync(file, PROBLEM_EVERYWHERE);
    const imported = npm("contract:import", "--", file, "--force");
    expect(imported.status, String(imported.stderr)).toBe(0);
    const diff = npm("contract:diff", "--", file, "--min", "1");
    const out = String(diff.stdout);
    expect(diff.status, out + String(diff.stderr)).toBe(0);
    expect(out).toContain(
      "carried under another name (kept):\n  #/components/schemas/Problem: served as SpecProblem: the platform's own schema is called Problem\n\n",
    );
    expect(out).toMatch(/ {2}schemas +100\.0% {2}\(\d+ of \d+\)/);
    expect(out).toMatch(/ {2}overall +100\.0% {2}\(\d+ of \d+; at least 100\.0% required\)/);
  }, 120_000);
});
