/**
 * Part 7 (src/importer/parts/errors.ts), imported from FIXTURE documents and served by the
 * real app: problem answers as error types, their titles, and the platform's failures answered
 * as each operation documents them (its own JSON error body, a problem where that body cannot
 * hold one, a bodiless answer at its status). Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import {
  doc30,
  doc31,
  findingLines,
  importCase,
  type Json,
  jsonError,
  postOfOneMember,
  served,
} from "../../support/import-case";

describe("error types (part 7)", () => {
  it("reads problem responses as part 7's error types, which present the platform's failures at their status for the operations that document them", async () => {
    const problem = { $ref: "#/components/schemas/Problem" };
    const c = await importCase("errors", {
      ...doc31({}),
      paths: {
        "/fixture": {
          post: {
            operationId: "fixturePost",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["a"],
                    properties: { a: { type: "string" } },
                  },
                },
              },
            },
            responses: {
              "204": { description: "FIXTURE" },
              "400": { $ref: "#/components/responses/Invalid" },
              "409": {
                description: "Already there.",
                content: { "application/problem+json": { schema: problem } },
              },
            },
          },
        },
      },
      components: {
        responses: {
          Invalid: {
            description: "Invalid input.",
            content: { "application/problem+json": { schema: problem } },
          },
        },
        schemas: {
          Problem: {
            type: "object",
            properties: {
              type: { type: "string" },
              title: { type: "string" },
              code: { type: "integer" },
            },
          },
        },
      },
    });
    expect(c.contract.errors).toMatchObject({
      Invalid: { status: 400, title: "Invalid input." },
      AlreadyThere: { status: 409, title: "Already there." },
    });
    // The operation that documents them answers its bad requests as Invalid.
    expect(c.contract.operations.fixturePost?.presents).toEqual({
      "malformed-request": "Invalid",
      "validation-failed": "Invalid",
    });
    const res = await c.app.request("https://fixture.test/fixture", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: "/_service/problems/Invalid",
      title: "Invalid input.",
    });
    expect(findingLines(c).join("\n")).toContain(
      "renamed SpecProblem: the platform's own schema is called Problem",
    );
  });

  it("titles an error type with its description's first sentence, as plain text and short (RFC 9457 §3.1.3), keeping the whole text as its description", async () => {
    const get = (status: string, description: string) => ({
      get: {
        responses: {
          "200": { description: "FIXTURE OK" },
          [status]: {
            description,
            content: { "application/problem+json": { schema: { type: "object" } } },
          },
        },
      },
    });
    const markdown =
      "**HTTP Status Code:** `404` Not Found<br>\n**Error Code:** `1001`<br>\nThe FIXTURE [item](https://fixture.invalid/items) does not exist. Check its id.";
    const long =
      "Returned if the FIXTURE item cannot be read because the calling user has no permission to browse the project that the item belongs to.";
    const c = await importCase("error-titles", {
      ...doc31({}),
      paths: {
        "/fixture-markdown": get("404", markdown),
        "/fixture-long": get("403", long),
        "/fixture-plain": get("409", "Already there."),
        "/fixture-silent": get("410", ""),
      },
    });
    const errors = Object.values(c.contract.errors);
    const of = (status: number) => errors.find((e) => e.status === status);
    // Past the lines that only state a code, as Zoom writes its errors.
    expect(of(404)).toMatchObject({
      title: "The FIXTURE item does not exist.",
      description: markdown,
    });
    expect(of(403)?.title).toBe(
      "Returned if the FIXTURE item cannot be read because the calling user has no…",
    );
    expect(of(403)?.description).toBe(long);
    // A description that is a title already is not said twice; none says the reason phrase.
    expect(of(409)).toEqual(expect.objectContaining({ title: "Already there." }));
    expect(of(409)?.description).toBeUndefined();
    expect(of(410)?.title).toBe("Gone");
    // Names come from the title too, past the code lines (not `HTTPStatusCode404…`).
    expect(Object.entries(c.contract.errors).find(([, e]) => e.status === 404)?.[0]).toBe(
      "TheFIXTUREItemDoes",
    );
    // The served document says the whole text, and not after its own first sentence again.
    const responses = (await served(c)).components.responses ?? {};
    const described = Object.values(responses).map((r) => String(r.description));
    expect(described).toContain(long);
    expect(described.some((d) => d.endsWith(markdown))).toBe(true);
  });

  it("answers a failure as the operation documents it: its own JSON error body at its status, else the platform's", async () => {
    const post = (errors: Json) => postOfOneMember("name", errors);
    const c = await importCase("own-error-bodies", {
      ...doc31({}),
      paths: {
        "/fixture-items": post({
          "400": {
            description: "FIXTURE bad input",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/FixtureError" } },
            },
          },
        }),
        "/fixture-others": post({}),
      },
      components: {
        schemas: {
          FixtureError: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "integer" }, message: { type: "string" } },
          },
        },
      },
    });
    const send = (path: string) =>
      c.app.request(`https://fixture.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "" }),
      });
    const own = await send("/fixture-items");
    expect(own.status).toBe(400);
    expect(own.headers.get("content-type")).toBe("application/json");
    expect(await own.json()).toEqual({ code: 400, message: expect.stringContaining("violation") });
    const platform = await send("/fixture-others");
    expect(platform.status).toBe(422);
    expect(platform.headers.get("content-type")).toBe("application/problem+json");
    // Said at the operation's pointer, without its id, so many operations' are said once.
    expect(findingLines(c).join("\n")).toMatch(
      /^changed #\/paths\/~1fixture-items\/post: the operation answers the platform's own malformed-request, validation-failed failures as/m,
    );
  });

  it("answers a failure in its own body where that body's schema is nullable (`type: [object, null]`, 3.0's `nullable: true`), reading its members from the schema itself", async () => {
    for (const [openapi, nullable] of [
      ["3.1.0", { type: ["object", "null"] }],
      ["3.0.3", { type: "object", nullable: true }],
    ] as const) {
      const c = await importCase("nullable-error-body", {
        openapi,
        info: { title: "FIXTURE nullable error body", version: "1" },
        paths: {
          "/fixture-items": postOfOneMember("name", {
            "400": {
              description: "FIXTURE bad input",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/FixtureError" } },
              },
            },
          }),
        },
        components: {
          schemas: {
            FixtureError: {
              ...nullable,
              required: ["code", "message"],
              properties: {
                code: { type: "integer" },
                message: { type: "string" },
                retries: { type: "integer", minimum: 0 },
              },
            },
          },
        },
      });
      const res = await c.app.request("https://fixture.test/fixture-items", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "" }),
      });
      expect(res.status, openapi).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 400,
        message: expect.stringContaining("violation"),
      });
      expect(c.code.errors, openapi).not.toContain(".shape");
    }
  });

  it("answers the platform's failures as problems where the documented error body is no JSON object (SendGrid's list), only a composition (GitHub's 422), or its `errors` items allow no violation (Jira's bulk results)", async () => {
    const post = (schema: Json) => ({
      post: {
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object" } } },
        },
        responses: { "201": { description: "FIXTURE created" }, ...jsonError("400", schema) },
      },
    });
    const c = await importCase("error-shapes", {
      ...doc30({}),
      paths: {
        "/fixture-lists": post({ type: "array", items: { type: "string" } }),
        "/fixture-either": post({
          oneOf: [
            {
              type: "object",
              required: ["message", "url"],
              properties: { message: { type: "string" }, url: { type: "string" } },
            },
            {
              type: "object",
              required: ["message", "code"],
              properties: { message: { type: "string" }, code: { type: "string" } },
            },
          ],
        }),
        "/fixture-bulk": post({
          type: "object",
          additionalProperties: false,
          properties: {
            errors: {
              type: "array",
              items: {
                type: "object",
                additionalProperties: false,
                properties: { failedElementNumber: { type: "integer" } },
              },
            },
          },
        }),
      },
    });
    // Said once per error type, at its answer.
    expect(
      findingLines(c).filter((line) => line.includes("is no JSON object of its own members")),
    ).toHaveLength(2);
    for (const path of ["/fixture-lists", "/fixture-either", "/fixture-bulk"]) {
      const res = await c.app.request(`https://fixture.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "[]",
      });
      expect(res.status, path).not.toBe(500);
      const body = (await res.json()) as Record<string, unknown>;
      const type = res.headers.get("content-type");
      // A list is never the platform's answer; nor a violation list where its items cannot hold one.
      if (path !== "/fixture-bulk") expect(type, path).toBe("application/problem+json");
      else if (type === "application/json") expect(body.errors).toBeUndefined();
    }
  });

  it("says what an error type of the API's own JSON answers for the platform's failures: the facts its body carries, or {} when it carries none (RFC 9457 §3.1: never a guessed member)", async () => {
    const c = await importCase("own-error-facts", {
      ...doc31({}),
      paths: {
        "/fixture-items": {
          get: {
            responses: {
              "200": { description: "FIXTURE OK" },
              "404": {
                description: "FIXTURE not found",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { flag: { type: "boolean" } } },
                  },
                },
              },
              "405": {
                description: "FIXTURE not allowed",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { message: { type: "string" } } },
                  },
                },
              },
            },
          },
        },
      },
    });
    const findings = findingLines(c).join("\n");
    expect(findings).toMatch(
      /answers the platform's own not-found failures with a body of \{\}: its schema has no member for any of their facts/,
    );
    expect(findings).toMatch(
      /answers the platform's own method-not-allowed failures in its own body, which carries their detail/,
    );
    expect(findings).not.toMatch(/failures \(its status, type and title\)/);
    const nowhere = await c.app.request("https://fixture.test/fixture-nowhere");
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toEqual({});
    const wrong = await c.app.request("https://fixture.test/fixture-items", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(await wrong.json()).toEqual({ message: expect.any(String) });
  });

  /** GET /fixture-items, whose `limit` of over 100 is refused, with `errors` as its error answers. */
  const limitedList = (errors: Json) => ({
    "/fixture-items": {
      get: {
        operationId: "fixtureList",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 100 } }],
        responses: { "200": { description: "FIXTURE OK" }, ...errors },
      },
    },
  });

  /** A 3.0 document whose limited list answers 400 with `FixtureError`, the given schema. */
  const listAnsweringError = (fixtureError: Json): Json => ({
    ...doc30({}),
    paths: limitedList({
      "400": {
        description: "FIXTURE Bad Request",
        content: { "application/json": { schema: { $ref: "#/components/schemas/FixtureError" } } },
      },
    }),
    components: { schemas: { FixtureError: fixtureError } },
  });

  it("keeps an operation whose error answers have no body (no `content`), answering its failures at their documented status (RFC 9457 §3)", async () => {
    const c = await importCase("bodiless-errors", {
      ...doc30({}),
      paths: limitedList({
        "400": { description: "FIXTURE Bad Request" },
        "500": { description: "FIXTURE Internal Server Error" },
      }),
    });
    expect(findingLines(c).join("\n")).not.toMatch(/left out|could not be converted/);
    expect(Object.keys((await served(c)).paths)).toContain("/fixture-items");
    const bad = await c.app.request("https://fixture.test/fixture-items?limit=101");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/problem+json");
    expect(await bad.json()).toMatchObject({ status: 400, title: "FIXTURE Bad Request" });
  });

  it("fills a string `status` with the status's digits (GitHub's and JSON:API's `\"422\"`), never one whose example is a word (JSend's `\"fail\"`)", async () => {
    const stringStatus = (status: Json) =>
      listAnsweringError({
        type: "object",
        properties: {
          message: { type: "string" },
          documentation_url: { type: "string" },
          status,
        },
      });
    const c = await importCase("string-status-member", stringStatus({ type: "string" }));
    expect(findingLines(c).join("\n")).not.toMatch(/left out|could not be converted|lost/);
    const bad = await c.app.request("https://fixture.test/fixture-items?limit=101");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/json");
    expect(await bad.json()).toEqual({ message: expect.any(String), status: "400" });
    const word = await importCase(
      "word-status-member",
      stringStatus({ type: "string", example: "fail" }),
    );
    expect(findingLines(word)).toContainEqual(
      expect.stringMatching(
        /^lost #\/components\/schemas\/FixtureError\/properties\/status: member status of an error body/,
      ),
    );
    const refused = await word.app.request("https://fixture.test/fixture-items?limit=101");
    expect(await refused.json()).toEqual({ message: expect.any(String) });
  });

  it("keeps an operation whose error body requires a member named like a problem's own that cannot hold it (a string `status`, an enum `type`): the platform's failures there are answered as problems (RFC 9457)", async () => {
    const c = await importCase(
      "required-string-status",
      listAnsweringError({
        type: "object",
        required: ["status", "type", "message"],
        properties: {
          status: { type: "string", enum: ["error"] },
          type: { type: "string", enum: ["auth", "invalid_request"] },
          message: { type: "string" },
        },
      }),
    );
    expect(findingLines(c).join("\n")).not.toMatch(/left out|could not be converted/);
    expect(Object.keys(c.contract.operations)).toHaveLength(1);
    // `status` allows one value, which fixes it; `type` allows two, and no fact is one of them.
    expect(findingLines(c)).toContainEqual(
      expect.stringMatching(
        /^lost #\/components\/schemas\/FixtureError\/properties\/type: required member type of an error body/,
      ),
    );
    // The platform's own failure, at its own status, as a problem.
    const bad = await c.app.request("https://fixture.test/fixture-items?limit=101");
    expect(bad.status).toBe(422);
    expect(bad.headers.get("content-type")).toBe("application/problem+json");
  });
});
