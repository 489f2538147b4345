/**
 * Part 4's answers (src/importer/parts/responses.ts), imported from a FIXTURE document and
 * served by the real app: by status, range and default, with headers and examples.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { doc30, findingLines, importCase, type Json, served } from "../../support/import-case";

describe("answers", () => {
  it("reads responses by status, range and default, with headers and examples; says what it loses", async () => {
    const c = await importCase("responses", {
      ...doc30({}),
      paths: {
        "/fixture": {
          get: {
            operationId: "fixtureGet",
            responses: {
              "200": {
                description: "FIXTURE ok",
                headers: { "X-Rate-Remaining": { $ref: "#/components/headers/Rate" } },
                content: { "application/json": { schema: { type: "object" }, example: { a: 1 } } },
                links: { self: { operationId: "fixtureGet" } },
              },
              "4XX": { description: "FIXTURE client error" },
              default: {
                description: "FIXTURE other",
                content: { "text/plain": { schema: { type: "string" } } },
              },
              "101": { description: "FIXTURE switching" },
            },
          },
        },
      },
      components: {
        headers: { Rate: { description: "Left.", required: true, schema: { type: "integer" } } },
      },
    });
    const responses = (await served(c)).paths["/fixture"]?.get?.responses ?? {};
    expect(responses["200"]).toMatchObject({
      description: "FIXTURE ok",
      headers: {
        "x-rate-remaining": { description: "Left.", required: true, schema: { type: "integer" } },
      },
      content: { "application/json": { examples: { example: { value: { a: 1 } } } } },
    });
    expect(responses["4XX"]?.description).toBe("FIXTURE client error");
    expect(Object.keys((responses.default?.content as Json) ?? {})).toEqual(["text/plain"]);
    const lines = findingLines(c).join("\n");
    expect(lines).toContain("lost #/paths/~1fixture/get/responses/200/links: links: not carried");
    expect(lines).toContain(
      "lost #/paths/~1fixture/get/responses/101: response 101: a Worker cannot answer it",
    );
  });
});
