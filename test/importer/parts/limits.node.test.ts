/**
 * Part 8 (src/importer/parts/limits.ts), imported from a FIXTURE document and served by the
 * real app: a page-size limit, only where the document makes it unambiguous.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { doc31, importCase, type Json } from "../../support/import-case";

describe("limits (part 8)", () => {
  it("declares a page-size limit only where the document makes it unambiguous", async () => {
    const op = (parameter: Json) => ({
      get: { parameters: [parameter], responses: { "204": { description: "FIXTURE" } } },
    });
    const c = await importCase("limits", {
      ...doc31({}),
      paths: {
        "/a": op({
          name: "limit",
          in: "query",
          schema: { type: "integer", minimum: 1, maximum: 50 },
        }),
        "/b": op({
          name: "page_size",
          in: "query",
          schema: { type: "integer", minimum: 1, maximum: 50 },
        }),
        "/c": op({ name: "limit", in: "query", schema: { type: "integer", maximum: 50 } }),
        "/d": op({
          name: "count",
          in: "query",
          schema: { type: "integer", minimum: 1, maximum: 9 },
        }),
      },
    });
    expect(c.contract.limits).toEqual({
      limit: {
        kind: "page-size",
        operations: ["getA"],
        parameter: "limit",
        minimum: 1,
        maximum: 50,
      },
      page_size: {
        kind: "page-size",
        operations: ["getB"],
        parameter: "page_size",
        minimum: 1,
        maximum: 50,
      },
    });
    expect((await c.app.request("https://fixture.test/a?limit=51")).status).toBe(422);
  });
});
