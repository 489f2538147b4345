/**
 * The round-trip report's component schemas (src/importer/compare/resources.ts): a component
 * renamed for the platform's Problem counts once, as changed, and its keywords are compared
 * under the name it is served by. FIXTURE documents, imported and served by the real app.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../../src/importer/compare/index";
import { bodyCase, doc31, importCase, type Json, served } from "../../support/import-case";

/**
 * A FIXTURE document whose component `Problem` takes the platform's own schema's name (the
 * import serves it as `SpecProblem`) and is referred to from a dozen places: bodies,
 * responses (problem ones too), nested members, items, maps and another component's allOf.
 */
const problemEverywhere = (): Json => {
  const problem = { $ref: "#/components/schemas/Problem" };
  const problemJson = (description: string) => ({
    description,
    content: { "application/problem+json": { schema: problem } },
  });
  return doc31({
    paths: {
      "/fixture-reports": {
        post: {
          operationId: "fixtureReport",
          requestBody: { required: true, content: { "application/json": { schema: problem } } },
          responses: {
            "200": {
              description: "FIXTURE reports.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { first: problem, all: { type: "array", items: problem } },
                  },
                },
              },
            },
            "404": problemJson("Not there."),
            "409": { $ref: "#/components/responses/FixtureConflict" },
          },
        },
        get: {
          operationId: "fixtureReports",
          responses: {
            "200": {
              description: "FIXTURE reports.",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/FixtureHolder" } },
              },
            },
            "404": problemJson("Not there."),
          },
        },
      },
    },
    components: {
      responses: { FixtureConflict: problemJson("Already there.") },
      schemas: {
        Problem: {
          type: "object",
          required: ["code"],
          properties: {
            code: { type: "string", minLength: 1 },
            causes: { type: "array", items: problem },
          },
        },
        FixtureHolder: {
          type: "object",
          properties: {
            one: problem,
            many: { type: "array", items: problem },
            byName: { type: "object", additionalProperties: problem },
            nested: { type: "object", properties: { deeper: problem } },
          },
        },
        FixtureDetailed: {
          allOf: [problem, { type: "object", properties: { detail: { type: "string" } } }],
        },
      },
    },
  });
};

describe("the round-trip report", () => {
  it("counts a component renamed for the platform's Problem once, as changed; every reference to it is kept, and its keywords are compared under the new name", async () => {
    const document = problemEverywhere();
    const c = await importCase("renamed", document);
    const doc = await served(c);
    const renamedRefs = JSON.stringify(doc).split('"#/components/schemas/SpecProblem"').length - 1;
    expect(renamedRefs).toBeGreaterThanOrEqual(10);
    expect(doc.components.schemas.SpecProblem?.["x-renamed-from"]).toBe("Problem");

    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed !== undefined)).toEqual([
      {
        category: "schemas",
        pointer: "#/components/schemas/Problem",
        kept: true,
        changed: "served as SpecProblem: the platform's own schema is called Problem",
      },
    ]);
    expect(comparison.fidelity).toBe(1);
    // The component's keywords are items of their own, compared with SpecProblem's.
    expect(comparison.items.map((i) => i.pointer)).toContain(
      "#/components/schemas/Problem/properties/code/minLength",
    );

    // A keyword SpecProblem lost is one loss, at the source component's keyword …
    const lostKeyword = structuredClone(doc);
    delete (lostKeyword.components.schemas.SpecProblem as { properties: { code: Json } }).properties
      .code.minLength;
    expect(
      compareDocuments(document, "3.1", lostKeyword)
        .items.filter((i) => !i.kept)
        .map((i) => i.pointer),
    ).toEqual(["#/components/schemas/Problem/properties/code/minLength"]);
    // … and a reference that lands on the platform's own Problem is one loss, where it is.
    const platforms = structuredClone(doc);
    (platforms.components.schemas.FixtureHolder as { properties: { one: Json } }).properties.one = {
      $ref: "#/components/schemas/Problem",
    };
    expect(
      compareDocuments(document, "3.1", platforms)
        .items.filter((i) => !i.kept)
        .map((i) => `${i.pointer}: ${i.note}`),
    ).toEqual([
      '#/components/schemas/FixtureHolder/properties/one/$ref: refers to "#/components/schemas/Problem" instead of #/components/schemas/SpecProblem (#/components/schemas/Problem, renamed)',
    ]);
  });

  it("renames Problem past a component the document itself names SpecProblem", async () => {
    const document = bodyCase(
      { $ref: "#/components/schemas/FixtureHolder" },
      {
        schemas: {
          Problem: { type: "object", properties: { code: { type: "string" } } },
          SpecProblem: { type: "string", minLength: 2 },
          FixtureHolder: {
            type: "object",
            properties: {
              problem: { $ref: "#/components/schemas/Problem" },
              spec: { $ref: "#/components/schemas/SpecProblem" },
            },
          },
        },
      },
    );
    const c = await importCase("renamed-past", document);
    expect(Object.keys(c.contract.resources).sort()).toEqual([
      "FixtureHolder",
      "SpecProblem",
      "SpecProblem2",
    ]);
    const doc = await served(c);
    expect(doc.components.schemas.SpecProblem2?.["x-renamed-from"]).toBe("Problem");
    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.changed)).toEqual([
      "served as SpecProblem2: the platform's own schema is called Problem",
    ]);
  });
});
