/**
 * The error bodies real APIs are built with, recognised by their shapes and not by their
 * names, imported from FIXTURE documents and served by the real app: every operation is
 * served, and the platform's own failures are answered in the API's body, its violations
 * in the API's own item shape. FastAPI's `HTTPValidationError`, JSON:API's `errors`, an
 * error object with a fixed code and `details` of its own, Spring Boot's default error, and
 * a body whose required `type` is an enum of the API's own. Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import {
  doc31,
  findingLines,
  importCase,
  type Json,
  postOfOneMember,
} from "../support/import-case";

const errorOf = (status: string, mediaType: string, schema: string): Json => ({
  [status]: {
    description: `FIXTURE error ${status}`,
    content: { [mediaType]: { schema: { $ref: `#/components/schemas/${schema}` } } },
  },
});

/** FastAPI's HTTPValidationError and its items, whose `loc` segments are `segment`s (FIXTURE names). */
const fastApiSchemas = (segment: Json): Json => ({
  FixtureHTTPValidationError: {
    type: "object",
    properties: {
      detail: { type: "array", items: { $ref: "#/components/schemas/FixtureError" } },
    },
  },
  FixtureError: {
    type: "object",
    required: ["loc", "msg", "type"],
    properties: {
      loc: { type: "array", items: segment },
      msg: { type: "string" },
      type: { type: "string" },
    },
  },
});

const send = (
  c: Awaited<ReturnType<typeof importCase>>,
  path: string,
  body: string,
  type = "application/json",
) =>
  c.app.request(`https://fixture.test${path}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });

/** The case's one operation is served: the import left nothing out. */
const servedWhole = (c: Awaited<ReturnType<typeof importCase>>) =>
  expect(Object.keys(c.contract.operations)).toHaveLength(1);

describe("error bodies of the conventions real APIs use", () => {
  it("FastAPI's HTTPValidationError: `{ detail: [{ loc, msg, type }] }`, the location as segments", async () => {
    const c = await importCase("convention-fastapi", {
      ...doc31({}),
      paths: {
        "/fixture-items": postOfOneMember(
          "name",
          errorOf("422", "application/json", "FixtureHTTPValidationError"),
        ),
      },
      components: { schemas: fastApiSchemas({ anyOf: [{ type: "string" }, { type: "integer" }] }) },
    });
    servedWhole(c);
    expect(c.code.errors).toContain('"violations":{"at":"/detail"');
    const res = await send(c, "/fixture-items", JSON.stringify({ name: "" }));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [{ loc: ["body", "name"], msg: "Must be at least 1 characters.", type: "minLength" }],
    });
    // It documents no 400: a malformed body is its 422 too, one item of the body as a whole.
    const malformed = await send(c, "/fixture-items", "{");
    expect(malformed.status).toBe(422);
    expect(await malformed.json()).toEqual({
      detail: [
        {
          loc: ["body"],
          msg: "The request body is not well-formed JSON.",
          type: "malformed-request",
        },
      ],
    });
  });

  it("a location whose segments the document types as strings only: an index is written as its digits", async () => {
    const c = await importCase("convention-string-loc", {
      ...doc31({}),
      paths: {
        "/fixture-lists": {
          post: {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["tags"],
                    properties: { tags: { type: "array", items: { type: "string" } } },
                  },
                },
              },
            },
            responses: {
              "201": { description: "FIXTURE created" },
              ...errorOf("422", "application/json", "FixtureHTTPValidationError"),
            },
          },
        },
      },
      components: { schemas: fastApiSchemas({ type: "string" }) },
    });
    servedWhole(c);
    const res = await send(c, "/fixture-lists", JSON.stringify({ tags: ["a", 7] }));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [{ loc: ["body", "tags", "1"], msg: "Must be of type string.", type: "type" }],
    });
  });

  it("JSON:API's errors: each item's status a string, its pointer under `source`", async () => {
    const c = await importCase("convention-jsonapi", {
      ...doc31({}),
      paths: {
        "/fixture-articles": postOfOneMember(
          "title",
          errorOf("422", "application/vnd.api+json", "FixtureErrors"),
        ),
      },
      components: {
        schemas: {
          FixtureErrors: {
            type: "object",
            required: ["errors"],
            properties: {
              errors: {
                type: "array",
                items: {
                  type: "object",
                  required: ["status", "detail"],
                  properties: {
                    status: { type: "string" },
                    title: { type: "string" },
                    detail: { type: "string" },
                    source: { type: "object", properties: { pointer: { type: "string" } } },
                  },
                },
              },
            },
          },
        },
      },
    });
    servedWhole(c);
    const res = await send(c, "/fixture-articles", JSON.stringify({ title: 7 }));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      errors: [
        {
          status: "422",
          title: expect.any(String),
          detail: "Must be of type string.",
          source: { pointer: "/title" },
        },
      ],
    });
  });

  it("an error object with the document's fixed code and `details` of its own (`{ error: { code, message, details: [{ field, issue }] } }`)", async () => {
    const c = await importCase("convention-nested", {
      ...doc31({}),
      paths: {
        "/fixture-invoices": postOfOneMember(
          "customer",
          errorOf("400", "application/json", "FixtureInvalid"),
        ),
      },
      components: {
        schemas: {
          FixtureInvalid: {
            type: "object",
            required: ["error"],
            properties: {
              error: {
                type: "object",
                required: ["code", "message", "details"],
                properties: {
                  code: { type: "string", enum: ["invalid_input"] },
                  message: { type: "string" },
                  details: {
                    type: "array",
                    items: {
                      type: "object",
                      required: ["field", "issue"],
                      properties: { field: { type: "string" }, issue: { type: "string" } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
    servedWhole(c);
    const res = await send(c, "/fixture-invoices", JSON.stringify({ customer: "", extra: 1 }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "invalid_input",
        message: expect.stringContaining("violation"),
        details: [{ field: "customer", issue: "Must be at least 1 characters." }],
      },
    });
  });

  it("Spring Boot's default error: `{ timestamp, status, error, message, path }`", async () => {
    const c = await importCase("convention-spring", {
      ...doc31({}),
      paths: {
        "/fixture-orders": postOfOneMember(
          "item",
          errorOf("400", "application/json", "FixtureDefaultError"),
        ),
      },
      components: {
        schemas: {
          FixtureDefaultError: {
            type: "object",
            required: ["timestamp", "status", "error"],
            properties: {
              timestamp: { type: "string", format: "date-time" },
              status: { type: "integer" },
              error: { type: "string" },
              message: { type: "string" },
              path: { type: "string" },
            },
          },
        },
      },
    });
    servedWhole(c);
    const res = await send(c, "/fixture-orders", "{");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      status: 400,
      error: expect.any(String),
      message: "The request body is not well-formed JSON.",
    });
  });

  it("a body whose required `type` is an enum of the API's own: the operation is served, and the platform's failures stay RFC 9457 problems", async () => {
    const c = await importCase("convention-own-type", {
      ...doc31({}),
      paths: {
        "/fixture-keys": postOfOneMember(
          "label",
          errorOf("400", "application/json", "FixtureOwnType"),
        ),
      },
      components: {
        schemas: {
          FixtureOwnType: {
            type: "object",
            required: ["type", "message"],
            properties: {
              type: { type: "string", enum: ["auth", "invalid_request"] },
              message: { type: "string" },
            },
          },
        },
      },
    });
    servedWhole(c);
    const res = await send(c, "/fixture-keys", JSON.stringify({ label: "" }));
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    // Said, with the member no failure fills, not left to a silence.
    expect(findingLines(c)).toContainEqual(
      expect.stringMatching(
        /requires type, which none of the platform's own failures fills, so those at 400 are answered as problems \(RFC 9457\)/,
      ),
    );
  });
});

describe("an error answer kept whole in the served document", () => {
  it("keeps the headers and examples a document gives its error answers (never required: no one but the spec sets them)", async () => {
    const c = await importCase("error-headers-examples", {
      ...doc31({}),
      paths: {
        "/fixture-widgets": postOfOneMember("name", {
          "429": {
            description: "FIXTURE too many",
            headers: {
              RateLimit: {
                description: "FIXTURE: the quota left",
                required: true,
                schema: { type: "string" },
              },
            },
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { message: { type: "string" } },
                },
                examples: { slowDown: { summary: "FIXTURE", value: { message: "FIXTURE: wait" } } },
              },
            },
          },
        }),
      },
    });
    servedWhole(c);
    const doc = (await c.served()) as {
      paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
      components: { responses: Record<string, Json> };
    };
    const answer = Object.values(doc.components.responses).find((r) =>
      String(r.description).includes("FIXTURE too many"),
    ) as { headers: Record<string, Json>; content: Record<string, Json> };
    expect(answer.headers.ratelimit).toMatchObject({
      description: "FIXTURE: the quota left",
      required: false,
      schema: { type: "string" },
    });
    expect(answer.content["application/json"]?.examples).toEqual({
      slowDown: { summary: "FIXTURE", value: { message: "FIXTURE: wait" } },
    });
  });
});

describe("an error answer documented in RFC 9457's two forms", () => {
  it("serves problem+xml (Appendix B) where Accept asks for it, though nothing else of the API is XML", async () => {
    const problem = { $ref: "#/components/schemas/FixtureProblem" };
    const c = await importCase("error-problem-xml", {
      ...doc31({}),
      paths: {
        "/fixture-notes": postOfOneMember("text", {
          "422": {
            description: "FIXTURE invalid",
            content: {
              "application/problem+json": { schema: problem },
              "application/problem+xml": { schema: problem },
            },
          },
        }),
      },
      components: {
        schemas: {
          FixtureProblem: {
            type: "object",
            properties: { type: { type: "string" }, title: { type: "string" } },
          },
        },
      },
    });
    servedWhole(c);
    expect(Object.values(c.contract.errors)[0]?.xml).toBe(true);
    const res = await c.app.request("https://fixture.test/fixture-notes", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/problem+xml" },
      body: JSON.stringify({ text: "" }),
    });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+xml/);
    expect(await res.text()).toContain('<problem xmlns="urn:ietf:rfc:7807">');
  });
});
