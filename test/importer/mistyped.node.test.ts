/**
 * Fields of the wrong type taken out of a document before it is read
 * (src/importer/mistyped.ts): each said at its pointer, a number where text belongs read as
 * its text, and the document's data, its boolean schemas, its security requirements and its
 * extensions left as they are. FIXTURE documents only.
 */
import { describe, expect, it } from "vitest";
import { withoutMistyped } from "../../src/importer/mistyped";
import type { Json } from "../../src/importer/source";

describe("fields of the wrong type", () => {
  it("are taken out, each said at its pointer; a number or boolean where text belongs is read as its text", () => {
    const document: Json = {
      openapi: "3.1.0",
      info: { title: "FIXTURE", version: 1.5, description: null },
      tags: [
        { name: "fixture", externalDocs: { url: "https://fixture.test", description: null } },
        "stray",
      ],
      paths: {
        "/fixture": {
          get: {
            tags: ["fixture", null],
            deprecated: "yes",
            responses: { "200": { description: null } },
          },
          put: null,
        },
      },
    };
    const found = withoutMistyped(document);
    expect(found.map((f) => `${f.kind} ${f.pointer}`).sort()).toEqual(
      [
        "changed #/info/version",
        "lost #/info/description",
        "lost #/tags/0/externalDocs/description",
        "lost #/tags/1",
        "lost #/paths/~1fixture/get/tags/1",
        "lost #/paths/~1fixture/get/deprecated",
        "lost #/paths/~1fixture/get/responses/200/description",
        "lost #/paths/~1fixture/put",
      ].sort(),
    );
    expect(document.info).toEqual({ title: "FIXTURE", version: "1.5" });
    expect((document.paths as Json)["/fixture"]).toEqual({
      get: { tags: ["fixture"], responses: { "200": {} } },
    });
    expect(found.find((f) => f.pointer === "#/paths/~1fixture/get/deprecated")?.message).toBe(
      "deprecated is a string where OpenAPI wants a boolean: left out, as if not written",
    );
  });

  it("leaves data, boolean schemas, security requirements and extensions as they are", () => {
    const schema = {
      type: ["string", "null"],
      example: null,
      default: null,
      enum: [null, "a", 1],
      examples: [null, 3],
      "x-fixture": { description: null },
    };
    const document: Json = {
      openapi: "3.1.0",
      info: { title: "FIXTURE", version: "1" },
      security: [{ fixtureOauth: ["fixture:read"] }],
      paths: {},
      components: {
        schemas: {
          FixtureNever: false,
          FixtureAny: true,
          FixtureItem: { type: "object", properties: { a: schema, b: false }, allOf: [true] },
        },
        parameters: { FixtureLimit: { name: "limit", in: "query", required: true } },
        examples: { FixtureOne: { value: { description: null } } },
        links: {
          FixtureNext: {
            operationId: "fixtureList",
            parameters: { cursor: "$response.body#/next" },
          },
        },
        responses: { "x-fixture-note": "FIXTURE", FixtureGone: { description: "FIXTURE" } },
      },
    };
    const before = JSON.stringify(document);
    expect(withoutMistyped(document)).toEqual([]);
    expect(JSON.stringify(document)).toBe(before);
  });
});
