/**
 * What a re-import's preview says changes between the served document of today and of the
 * new contract (src/importer/changes.ts): schemas added, removed and changed, and the changes
 * that break existing callers, in the classes oasdiff and openapi-diff use. FIXTURE documents.
 */
import { describe, expect, it } from "vitest";
import { breakingChanges, operationChanges, schemaChanges } from "../../src/importer/changes";
import type { Json } from "../../src/importer/source";

const json = (schema: Json) => ({ content: { "application/json": { schema } } });
const document = (operations: Json, schemas: Json): Json => ({
  openapi: "3.1.0",
  paths: { "/fixture-items": operations },
  components: { schemas },
});
const item = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string" }, kind: { type: "string", enum: ["a", "b"] } },
};
const before = document(
  {
    get: {
      operationId: "fixtureList",
      parameters: [{ name: "limit", in: "query" }],
      responses: {
        200: { description: "FIXTURE", ...json({ $ref: "#/components/schemas/FixtureItem" }) },
        404: { description: "FIXTURE" },
      },
    },
    post: { operationId: "fixtureCreate", responses: { 201: { description: "FIXTURE" } } },
  },
  { FixtureItem: item, FixtureGone: { type: "string" } },
);

describe("a re-import's changes", () => {
  it("names nothing when nothing changes", () => {
    expect(breakingChanges(before, before)).toEqual([]);
    expect(schemaChanges(before, before)).toEqual({ added: [], removed: [], changed: [] });
  });

  it("says every class of breaking change once, at the operation or the schema", () => {
    const after = document(
      {
        get: {
          operationId: "fixtureList",
          parameters: [{ name: "limit", in: "query", required: true }],
          responses: {
            200: { description: "FIXTURE", ...json({ $ref: "#/components/schemas/FixtureItem" }) },
          },
        },
      },
      {
        FixtureItem: {
          type: "object",
          required: ["id", "kind"],
          properties: { kind: { type: "string", enum: ["a"] } },
        },
        FixtureNew: { type: "integer" },
      },
    );
    expect(breakingChanges(before, after).sort()).toEqual(
      [
        "operation fixtureCreate removed",
        "fixtureList: answer 404 dropped",
        "fixtureList: parameter query limit newly required",
        "schema FixtureItem: member id removed",
        "schema FixtureItem: member kind newly required",
        'schema FixtureItem, member kind: enum narrowed ("b" no longer allowed)',
      ].sort(),
    );
    expect(schemaChanges(before, after)).toEqual({
      added: ["FixtureNew"],
      removed: ["FixtureGone"],
      changed: ["FixtureItem"],
    });
    expect(operationChanges(before, after).removed).toEqual(["fixtureCreate"]);
  });

  it("says a narrowed type or enum, and a dropped media type, and not a widened one", () => {
    const variant = (kind: Json, media: string) =>
      document(
        {
          get: {
            operationId: "fixtureList",
            responses: { 200: { description: "FIXTURE", content: { [media]: { schema: kind } } } },
          },
        },
        {},
      );
    const wide = variant({ type: ["string", "integer"], enum: ["a", 1] }, "application/json");
    const narrow = variant({ type: "string", enum: ["a"] }, "application/json");
    expect(breakingChanges(wide, narrow)).toEqual([
      "fixtureList: answer 200: type narrowed from string or integer to string",
      "fixtureList: answer 200: enum narrowed (1 no longer allowed)",
    ]);
    expect(breakingChanges(narrow, wide)).toEqual([]);
    expect(breakingChanges(narrow, variant({ type: "string" }, "application/xml"))).toEqual([
      "fixtureList: answer 200 as application/json dropped",
    ]);
  });

  it("says an operation moved to another path or method", () => {
    const moved: Json = {
      ...before,
      paths: { "/fixture-things": (before.paths as Json)["/fixture-items"] },
    };
    expect(breakingChanges(before, moved)).toEqual([
      "fixtureList: moved from GET /fixture-items to GET /fixture-things",
      "fixtureCreate: moved from POST /fixture-items to POST /fixture-things",
    ]);
  });
});
