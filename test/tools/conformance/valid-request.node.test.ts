/**
 * The valid request the checker builds from a document (valid-request.ts), for the cases a
 * value valid as JSON is not valid once written: fixtures only.
 */
import { describe, expect, it } from "vitest";
import { validRequest } from "./valid-request";

/** The valid request for the one operation of a FIXTURE document. */
const requestFor = (path: string, method: string, operation: Record<string, unknown>) =>
  validRequest(
    {
      openapi: "3.1.0",
      info: { title: "FIXTURE", version: "1" },
      paths: { [path]: { [method.toLowerCase()]: operation } },
    },
    path,
    method,
    {},
  );

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

describe("a parameter that is also where the credential goes", () => {
  /** A FIXTURE document whose API key is also declared as a required parameter, as some are. */
  const keyed = (location: "query" | "header" | "cookie") => ({
    openapi: "3.1.0",
    info: { title: "FIXTURE", version: "1" },
    paths: {
      "/fixture-keyed": {
        get: {
          parameters: [{ name: "fixture_key", in: location, required: true, schema: list.items }],
          security: [{ fixtureKey: [] }],
          responses: { "204": { description: "FIXTURE" } },
        },
      },
    },
    components: {
      securitySchemes: { fixtureKey: { type: "apiKey", in: location, name: "fixture_key" } },
    },
  });

  it.each([
    ["query", { headers: {}, query: { fixture_key: "<FIXTURE_KEY>" } }],
    ["header", { headers: { Fixture_Key: "<FIXTURE_KEY>" }, query: {} }],
    ["cookie", { headers: { cookie: "fixture_key=<FIXTURE_KEY>" }, query: {} }],
  ] as const)(
    "in the %s carries the credential alone, not a generated value beside it",
    (location, presented) => {
      const built = validRequest(keyed(location), "/fixture-keyed", "GET", {
        fixtureKey: presented,
      });
      if (!built.ok) throw new Error(built.reason);
      const { path, headers } = built.request;
      const sent = `${decodeURIComponent(path)} ${JSON.stringify(headers)}`;
      expect(sent).not.toMatch(/fixture-[ab]/);
      expect(sent).toContain("<FIXTURE_KEY>");
    },
  );
});

describe("a body declared by a media type range only", () => {
  it.each([
    ["*/*", "application/octet-stream"],
    ["image/*", "image/png"],
  ])("%s is sent as bytes of a type within it (RFC 9110 §12.5.1): %s", (range, sent) => {
    const built = requestFor("/fixture-uploads", "POST", {
      requestBody: {
        required: true,
        content: { [range]: { schema: { type: "string", format: "binary" } } },
      },
      responses: { "204": { description: "FIXTURE" } },
    });
    if (!built.ok) throw new Error(built.reason);
    expect(built.request.headers["content-type"]).toBe(sent);
    expect(built.request.body).toBeInstanceOf(Uint8Array);
  });
});

describe("a path parameter whose value is written as nothing", () => {
  it("is no valid request (an empty segment matches no template), so the operation is not probed", () => {
    const built = requestFor("/fixture-plugins/{version}", "GET", {
      parameters: [
        {
          name: "version",
          in: "path",
          required: true,
          schema: { type: "object", properties: { major: { type: "integer", readOnly: true } } },
        },
      ],
      responses: { "204": { description: "FIXTURE" } },
    });
    expect(built).toEqual({
      ok: false,
      reason: "its path parameter version is written as an empty segment",
    });
  });
});
