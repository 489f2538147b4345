/**
 * The valid request the checker builds from a document (valid-request.ts), for the cases a
 * value valid as JSON is not valid once written: fixtures only.
 */
import { describe, expect, it } from "vitest";
import { validRequest } from "./valid-request";

const list = { type: "array", items: { type: "string", enum: ["fixture-a", "fixture-b"] } };

/** A FIXTURE document whose one operation needs a list in the query and in a form body. */
const document = (mediaType: string) => ({
  openapi: "3.1.0",
  info: { title: "FIXTURE", version: "1" },
  paths: {
    "/fixture-lists": {
      post: {
        parameters: [{ name: "ids", in: "query", required: true, schema: list }],
        requestBody: {
          required: true,
          content: {
            [mediaType]: {
              schema: { $ref: "#/components/schemas/FixtureForm" },
              example: { tags: [] },
            },
          },
        },
        responses: { "204": { description: "FIXTURE" } },
      },
    },
  },
  components: {
    schemas: {
      FixtureForm: {
        type: "object",
        required: ["tags"],
        properties: { tags: { $ref: "#/components/schemas/FixtureTags" } },
      },
      FixtureTags: list,
    },
  },
});

describe("a valid request", () => {
  it("gives a required list in the query and in a form at least one item: written, an empty list is an absent field (WHATWG URL §5)", () => {
    const built = validRequest(
      document("application/x-www-form-urlencoded"),
      "/fixture-lists",
      "POST",
      {},
    );
    if (!built.ok) throw new Error(built.reason);
    expect(built.request.path).toMatch(/^\/fixture-lists\?ids=fixture-[ab]/);
    expect(String(built.request.body)).toMatch(/^tags=fixture-[ab]/);
  });

  it("does the same for a multipart form's required list", () => {
    const built = validRequest(document("multipart/form-data"), "/fixture-lists", "POST", {});
    if (!built.ok) throw new Error(built.reason);
    expect((built.request.body as FormData).getAll("tags").length).toBeGreaterThan(0);
  });
});
