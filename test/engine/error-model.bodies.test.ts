/**
 * Part 7 as APIs write it: an operation that documents its own answer to a failure the
 * platform detects (a bad request answered 400 in the API's own JSON, `{ code, message,
 * details }`, not RFC 9457's document) gets that status and that body; one that documents
 * none keeps the platform's own answer (422). The operation's own `presents` wins over the
 * error model's, a handler answering the type writes the same body, and the OpenAPI document
 * and the status report say so.
 */
import { env } from "cloudflare:workers";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { defineContract } from "../../src/contract-language/define-contract";
import {
  FIXTURE_ERROR_BODIES_CONTRACT,
  FIXTURE_ERROR_BODIES_HANDLERS,
} from "../fixtures/error-bodies";
import { expectPlatformHeaders, expectProblem } from "../support/assertions";

const CONTRACT = FIXTURE_ERROR_BODIES_CONTRACT;
const app = createApp(CONTRACT, {
  engine: BUILD_ENGINE,
  jsonSchema: z.toJSONSchema,
  handlers: FIXTURE_ERROR_BODIES_HANDLERS,
});
const post = (path: string, body: string) =>
  app.request(
    `https://fixture.test${path}`,
    { method: "POST", headers: { "content-type": "application/json" }, body },
    env,
  );

describe("error bodies of other conventions, each member filled as its type declares", () => {
  const bad = JSON.stringify({ name: "" });

  it("a nested error with a fixed code and violation items of its own ({ field, issue }, the field a dotted path)", async () => {
    const res = await post("/fixture-nested", bad);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "invalid_input",
        message: expect.stringContaining("1 violation"),
        details: [{ field: "name", issue: "Must be at least 1 characters." }],
      },
    });
    // A failure without violations is one item of the body as a whole.
    const malformed = await post("/fixture-nested", "{");
    expect(await malformed.json()).toEqual({
      error: {
        code: "invalid_input",
        message: "The request body is not well-formed JSON.",
        details: [{ field: "", issue: "The request body is not well-formed JSON." }],
      },
    });
  });

  it("FastAPI's { detail: [{ loc, msg, type }] }: the location as segments, the part first, and the check that failed", async () => {
    const res = await post("/fixture-validation-list", JSON.stringify({ name: 7 }));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [{ loc: ["body", "name"], msg: "Must be of type string.", type: "type" }],
    });
    const missing = await post("/fixture-validation-list", JSON.stringify({}));
    expect(await missing.json()).toEqual({
      detail: [{ loc: ["body", "name"], msg: "Is required.", type: "required" }],
    });
    const malformed = await post("/fixture-validation-list", "{");
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

  it("JSON:API's { errors: [{ status, title, detail, source: { pointer } }] }: the status a string in each item, the pointer nested", async () => {
    const res = await post("/fixture-error-objects", bad);
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/vnd.api+json");
    expect(await res.json()).toEqual({
      errors: [
        {
          status: "422",
          title: "Fixture error objects",
          detail: "Must be at least 1 characters.",
          source: { pointer: "/name" },
        },
      ],
    });
  });

  it("Spring Boot's { timestamp, status, error, message }: when, the status, its title and the sentence", async () => {
    const before = Date.now();
    const res = await post("/fixture-default-error", bad);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      timestamp: expect.any(String),
      status: 400,
      error: "Fixture default error",
      message: expect.stringContaining("violation"),
    });
    expect(Date.parse(String(body.timestamp))).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("an operation's own answer to a failure the platform detects", () => {
  it("a validation failure is its 400 in its own JSON: the status, the detail and the violations where it says", async () => {
    const res = await post("/fixture-own", JSON.stringify({ name: "" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectPlatformHeaders(res);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      code: 400,
      message: expect.stringContaining("1 violation"),
      details: [{ in: "body", pointer: "#/name", detail: "Must be at least 1 characters." }],
    });
    // Nothing RFC 9457 adds where the API's body has no member for it.
    expect(Object.keys(body).sort()).toEqual(["code", "details", "message"]);
  });

  it("a malformed body is the same 400, in the same shape", async () => {
    const res = await post("/fixture-own", "{");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 400,
      message: "The request body is not well-formed JSON.",
    });
  });

  it("a collection of errors (Jira's `{ errorMessages, errors, status }`): the detail is its one message, and the violations go to its `errors` object by field", async () => {
    const invalid = await post("/fixture-collection", JSON.stringify({ name: "", extra: 1 }));
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("content-type")).toBe("application/json");
    expect(await invalid.json()).toEqual({
      errorMessages: [expect.stringContaining("violation")],
      errors: { name: "Must be at least 1 characters." },
      status: 400,
    });
    // No violations, no `errors`: a malformed body says only its one message.
    const malformed = await post("/fixture-collection", "{");
    expect(await malformed.json()).toEqual({ errorMessages: [expect.any(String)], status: 400 });
    // A handler gives the `errors` object itself; the detail is still the one message.
    const taken = await post("/fixture-collection", JSON.stringify({ name: "taken" }));
    expect(await taken.json()).toEqual({
      errorMessages: ["FIXTURE: that name is taken"],
      errors: { name: "FIXTURE: taken" },
      status: 400,
    });
  });

  it("messages by field as lists (`{ message, errors: { field: [messages] } }`): every violation of a field in its list, the part's name for one about the whole part", async () => {
    const twice = await post("/fixture-fields", JSON.stringify({ name: 7 }));
    expect(twice.status).toBe(422);
    const body = (await twice.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toContain("violation");
    expect(Object.keys(body.errors)).toEqual(["name"]);
    expect(body.errors.name?.length).toBeGreaterThan(0);
    const whole = await post("/fixture-fields", JSON.stringify([]));
    const wholeBody = (await whole.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(wholeBody.errors)).toEqual(["body"]);
  });

  it("an operation that documents no answer of its own keeps the platform's 422 problem", async () => {
    await expectProblem(await post("/fixture-platform", JSON.stringify({ name: "" })), 422);
  });

  it("a handler answering the error type writes the same body, with its own members", async () => {
    const res = await post("/fixture-own", JSON.stringify({ name: "taken" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 400,
      message: "FIXTURE: that name is taken",
      hint: "another",
    });
  });

  it("the error model's own body nests a fact where the API puts it (not-found for every operation)", async () => {
    const res = await app.request("https://fixture.test/fixture-nowhere", {}, env);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: "No resource exists at this path." } });
  });

  it("the OpenAPI document gives each operation its own answer, in its media type", async () => {
    type Answer = { content?: object; $ref?: string };
    const doc = (await (
      await app.request("https://fixture.test/_service/openapi.json")
    ).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
      components: { responses: Record<string, Answer> };
    };
    const own = doc.paths["/fixture-own"]?.post?.responses;
    // The error type's own response, by reference: its body in its media type.
    expect(own?.["400"]?.$ref).toBe("#/components/responses/FixtureBadRequest");
    const declared = doc.components.responses.FixtureBadRequest;
    expect(Object.keys(declared?.content ?? {})).toEqual(["application/json"]);
    expect(own?.["422"]).toBeUndefined();
    const platform = doc.paths["/fixture-platform"]?.post?.responses;
    expect(Object.keys(platform?.["422"]?.content ?? {})).toEqual(["application/problem+json"]);
  });

  it("the status report lists the mapping: the error model's for every operation, and each operation's own", async () => {
    const report = (await (
      await app.request("https://fixture.test/_service/interface", {
        headers: { accept: "application/json" },
      })
    ).json()) as { errorModel: unknown[] };
    expect(report.errorModel).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          failure: "not-found",
          errorType: "FixtureMissing",
          mediaType: "application/json",
        }),
        expect.objectContaining({
          failure: "validation-failed",
          errorType: "FixtureBadRequest",
          status: 400,
          operations: ["fixtureOwnErrors"],
        }),
      ]),
    );
  });

  it("presents may only name part 7's error types (a compile error otherwise), and is refused at start-up when it could not be answered", () => {
    defineContract({
      errors: { FixtureE: { status: 400, title: "E" } },
      operations: {
        fixtureOp: {
          method: "GET",
          path: "/fixture-op",
          responses: { 201: { description: "FIXTURE: created" } },
          // @ts-expect-error FixtureElsewhere is no error type of part 7
          presents: { "validation-failed": "FixtureElsewhere" },
        },
      },
    });
    const cannot = defineContract({
      errors: { FixtureStrict: { status: 400, title: "Strict", members: { field: z.string() } } },
      operations: {
        fixtureOp: {
          method: "GET",
          path: "/fixture-op",
          responses: { 201: { description: "FIXTURE: created" } },
          presents: { "validation-failed": "FixtureStrict" },
        },
      },
    });
    expect(() => createApp(cannot, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema })).toThrow(
      "error type FixtureStrict: it presents validation-failed, whose answer has no member field; declare it optional",
    );
    expectTypeOf(CONTRACT.operations.fixtureOwnErrors.presents).toHaveProperty("validation-failed");
  });
});

describe("an own body a failure cannot fill whole", () => {
  const contract = defineContract({
    errors: {
      FixtureKinded: {
        status: 400,
        title: "Fixture kinded",
        schema: z.object({ type: z.enum(["auth", "invalid_request"]), message: z.string() }),
        body: { mediaType: "application/json", carries: { detail: "/message" } },
      },
    },
    operations: {
      fixtureKinded: {
        method: "POST",
        path: "/fixture-kinded",
        request: { body: { "application/json": z.object({ name: z.string() }) } },
        responses: { 201: { description: "FIXTURE: created" } },
        errors: ["FixtureKinded"],
        presents: { "validation-failed": "FixtureKinded", "malformed-request": "FixtureKinded" },
      },
    },
  });

  it("is answered, and documented, as the platform's problem (RFC 9457), and the build says which member and failure", async () => {
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (line: string) => warned.push(line);
    let kinded: ReturnType<typeof createApp>;
    try {
      kinded = createApp(contract, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema });
    } finally {
      console.warn = warn;
    }
    expect(warned).toContain(
      "error type FixtureKinded: its body requires /type, which no fact of validation-failed fills (carries, fixed); that failure is answered as the platform's problem (RFC 9457)",
    );
    const res = await kinded.request(
      "https://fixture.test/fixture-kinded",
      { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
      env,
    );
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const doc = (await (
      await kinded.request("https://fixture.test/_service/openapi.json")
    ).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
    };
    const responses = doc.paths["/fixture-kinded"]?.post?.responses ?? {};
    expect(Object.keys(responses["422"]?.content ?? {})).toEqual(["application/problem+json"]);
  });
});
