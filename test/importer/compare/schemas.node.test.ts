/**
 * The round-trip report's schemas (src/importer/compare/schemas.ts): a discriminator's mapping
 * through a rename, 3.0's nullable references, a component written out in a form. FIXTURE
 * documents, imported and served by the real app. Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../../src/importer/compare/index";
import { bodyCase, doc31, importCase, type Json, served } from "../../support/import-case";

describe("the round-trip report", () => {
  it("maps a discriminator's mapping through the rename: it names SpecProblem, by reference and by bare name", async () => {
    const kind = (value: string) => ({
      type: "object",
      required: ["kind"],
      properties: { kind: { const: value } },
    });
    const document = bodyCase(
      { $ref: "#/components/schemas/FixturePick" },
      {
        schemas: {
          Problem: kind("problem"),
          FixtureOther: kind("other"),
          FixturePick: {
            oneOf: [
              { $ref: "#/components/schemas/Problem" },
              { $ref: "#/components/schemas/FixtureOther" },
            ],
            discriminator: {
              propertyName: "kind",
              mapping: { problem: "#/components/schemas/Problem", again: "Problem" },
            },
          },
        },
      },
    );
    const c = await importCase("renamed-mapping", document);
    const doc = await served(c);
    // The platform's own Problem is not what the mapping means.
    expect(doc.components.schemas.FixturePick?.discriminator).toEqual({
      propertyName: "kind",
      mapping: { problem: "#/components/schemas/SpecProblem", again: "SpecProblem" },
    });
    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.pointer)).toEqual([
      "#/components/schemas/Problem",
    ]);
  });

  it("matches 3.0's nullable reference (allOf of one $ref beside nullable) with the served $ref, renamed or not (3.0, YAML)", async () => {
    const yaml = `openapi: 3.0.3
info: { title: FIXTURE nullable references, version: 1.0.0 }
paths:
  /fixture-notes:
    post:
      operationId: fixtureNote
      requestBody:
        content:
          application/json:
            schema: { allOf: [{ $ref: "#/components/schemas/Problem" }], nullable: true }
      responses:
        "204": { description: FIXTURE }
components:
  schemas:
    Problem:
      type: object
      properties: { code: { type: string } }
    FixtureNote:
      type: object
      properties: { text: { type: string } }
    FixtureHolder:
      type: object
      properties:
        problem: { allOf: [{ $ref: "#/components/schemas/Problem" }], nullable: true }
        note: { allOf: [{ $ref: "#/components/schemas/FixtureNote" }], nullable: true }
`;
    const c = await importCase("nullable-refs", { yaml });
    const comparison = compareDocuments(c.source, "3.0", await c.served());
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.pointer)).toEqual([
      "#/components/schemas/Problem",
    ]);
  });

  it("keeps a form's component reference the import writes out in place (form fields arrive as text), in every form that uses it", async () => {
    const form = (type: string) => ({
      required: true,
      content: { [type]: { schema: { $ref: "#/components/schemas/FixtureForm" } } },
    });
    const op = (operationId: string, type: string) => ({
      operationId,
      requestBody: form(type),
      responses: { "204": { description: "FIXTURE" } },
    });
    const document = doc31({
      paths: {
        "/fixture-a": { post: op("fixtureA", "application/x-www-form-urlencoded") },
        "/fixture-b": { post: op("fixtureB", "application/x-www-form-urlencoded") },
        "/fixture-c": { post: op("fixtureC", "multipart/form-data") },
      },
      components: {
        schemas: {
          FixtureForm: {
            type: "object",
            required: ["count"],
            properties: { count: { type: "integer", minimum: 1 }, urgent: { type: "boolean" } },
          },
        },
      },
    });
    const c = await importCase("form-written-out", document);
    const doc = await served(c);
    const body = (path: string) => doc.paths[path]?.post?.requestBody as Json;
    expect(JSON.stringify(body("/fixture-a"))).not.toContain("$ref");
    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    // Written out with a keyword less, it is one loss in that form, which says what differs.
    const less = structuredClone(doc);
    const lessBody = less.paths["/fixture-b"]?.post?.requestBody as
      | { content: Record<string, { schema: Json }> }
      | undefined;
    const lessSchema = lessBody?.content["application/x-www-form-urlencoded"]?.schema ?? {};
    delete lessSchema.required;
    expect(
      compareDocuments(document, "3.1", less)
        .items.filter((i) => !i.kept)
        .map((i) => `${i.pointer}: ${i.note}`),
    ).toEqual([
      '#/paths/~1fixture-b/post/requestBody/content/application~1x-www-form-urlencoded/schema: /$ref #/components/schemas/FixtureForm is written out, and differs: /required required ["count"] is []',
    ]);
  });
});
