/**
 * What a document's defects do to an import (src/importer/contract-code.ts): each is a
 * finding where it is, or read as what it plainly means, and the rest imports: a `null` or a
 * value of another type where OpenAPI's schema wants a string, an object or an array, an
 * invalid example, a duplicate operationId, a `$ref` to nothing, an unknown format. The
 * generated code of this case is compiled with the others (contract-code.slow.test.ts), so
 * none of it may reach the code as something its type check refuses. FIXTURE documents only.
 */
import { describe, expect, it } from "vitest";
import { findingLines, importCase, type Json } from "../support/import-case";

const ok = {
  "200": {
    description: "FIXTURE",
    content: { "application/json": { schema: { $ref: "#/components/schemas/FixtureItem" } } },
  },
};

/** A generated 3.1 document with the nulls and stray types generators write. */
const defective: Json = {
  openapi: "3.1.0",
  info: { title: "FIXTURE defects", version: "1", description: null, contact: null },
  tags: [
    {
      name: "fixture",
      description: null,
      externalDocs: { url: "https://fixture.test", description: null },
    },
    { name: null },
    "not-a-tag",
  ],
  servers: null,
  paths: {
    "/fixture-items": {
      summary: null,
      get: {
        operationId: "fixtureList",
        summary: null,
        description: 42,
        tags: "fixture",
        parameters: [
          {
            name: "limit",
            in: "query",
            description: null,
            schema: { type: "integer", format: "fixture-count", example: "many" },
          },
          null,
          { $ref: "#/components/parameters/Nowhere" },
        ],
        responses: ok,
        deprecated: "yes",
      },
      post: {
        operationId: "fixtureList",
        requestBody: {
          description: null,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Missing" } } },
        },
        responses: { "201": { description: null } },
      },
    },
    "/fixture-items/{id}": {
      parameters: null,
      get: {
        operationId: 7,
        responses: { ...ok, "404": { $ref: "#/components/responses/Nowhere" } },
      },
    },
  },
  components: {
    schemas: {
      FixtureItem: {
        type: "object",
        description: null,
        title: 3,
        required: null,
        properties: {
          id: { type: "string", description: null, example: 12, enum: null },
          note: { type: ["string", "null"], default: null, maxLength: "ten" },
          tags: { type: "array", items: null },
          owner: { $ref: "#/components/schemas/Nowhere" },
        },
        example: { id: 5 },
      },
    },
    securitySchemes: null,
  },
};

describe("a document's defects", () => {
  it("never stop its import: each is a finding at its pointer, and the rest is served", async () => {
    const c = await importCase("defects", defective);
    const ids = Object.keys(c.contract.operations).sort();
    expect(ids).toHaveLength(3);
    // The duplicate operationId is renamed, not lost.
    expect(ids).toContain("fixtureList");
    const lines = findingLines(c).join("\n");
    expect(lines).not.toMatch(/^lost [^:]+: left out: /m);
    expect(lines).toMatch(/#\/paths\/~1fixture-items\/post[^:]*: .*fixtureList/);
    expect(lines).toContain("#/components/schemas/FixtureItem/properties/owner");
    const res = await c.app.request("https://fixture.test/fixture-items?limit=3");
    expect(res.status).toBe(501);
    // Nothing of the nulls reaches the served document as a value where a string belongs.
    const served = JSON.stringify(await c.served());
    expect(served).not.toMatch(/"(description|summary|title)":null/);
  });
});
