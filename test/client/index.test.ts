/**
 * The typed client (src/client) against the FIXTURE operations app, called as a Workers
 * service binding inside workerd: each method sends what its operation declares and reads
 * each answer as its status and media type say, declared answers and the platform's own
 * problems (RFC 9457) alike; with `checkAnswers` every answer is held to the contract, and
 * one that breaks it throws.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { AnswerMismatchError, createClient } from "../../src/client";
import { defineContract } from "../../src/contract-language/define-contract";
import { FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";
import { FIXTURE_SANDBOX_SHELVES_CONTRACT } from "../fixtures/sandbox";
import { answering, bindingOf } from "../support/client-binding";
import { fixtureApp } from "../support/fixture-app";

const binding = bindingOf(fixtureApp());
const api = createClient(FIXTURE_OPERATIONS_CONTRACT, { binding, checkAnswers: true });

describe("a client over a service binding (FIXTURE operations)", () => {
  it("sends a JSON body, a query and a header, and reads the 201 its schema types", async () => {
    const answer = await api.fixtureCreateWidget({
      body: { name: "fixture", size: 2 },
      query: { dryRun: "false" },
      headers: { "x-fixture-trace": "abcd1234" },
    });
    expect(answer.status).toBe(201);
    if (answer.status !== 201) return;
    expect(answer.mediaType).toBe("application/json");
    expect(answer.body).toEqual({ id: "w1", name: "fixture", size: 2 });
    const sent = binding.sent.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("https://service.invalid/fixture-widgets?dryRun=false");
    expect(sent?.headers.get("content-type")).toBe("application/json");
    expect(sent?.headers.get("x-fixture-trace")).toBe("abcd1234");
    expect(sent?.headers.get("accept")).toBe("application/json, application/problem+json");
  });

  it("fills the path template and sends cookies, RFC 6265 §4.2.1 style", async () => {
    const answer = await api.fixtureGetWidget({
      params: { id: "w42" },
      cookies: { fixture_session: "abc def" },
    });
    expect(answer).toMatchObject({ status: 200, body: { id: "w42", name: "fixture" } });
    expect(binding.sent.at(-1)?.headers.get("cookie")).toBe("fixture_session=abc%20def");
    expect(new URL(binding.sent.at(-1)?.url ?? "").pathname).toBe("/fixture-widgets/w42");
  });

  it("percent-encodes a path parameter (RFC 3986 §2.1), so it cannot reach another path", async () => {
    const answer = await api.fixtureGetWidget({ params: { id: "../w1?x" } });
    expect(new URL(binding.sent.at(-1)?.url ?? "").pathname).toBe("/fixture-widgets/..%2Fw1%3Fx");
    expect(answer.status).toBe(422);
  });

  it("reads a declared answer without a body (404), and the 501 of an operation with no handler", async () => {
    const missing = await api.fixtureGetWidget({ params: { id: "w404" } });
    expect(missing).toMatchObject({ status: 404, mediaType: undefined, body: undefined });
    const deleted = await api.fixtureDeleteWidget({ params: { id: "w1" } });
    expect(deleted.status).toBe(501);
    if (deleted.status === 501)
      expect(deleted.body).toMatchObject({
        type: "/_service/problems/operation-not-implemented",
        operationId: "fixtureDeleteWidget",
      });
  });

  it("sends a body in its declared media type (RFC 7396's merge patch), which is not refused as 415", async () => {
    const answer = await api.fixturePatchWidget({ params: { id: "w1" }, body: { name: "x" } });
    expect(binding.sent.at(-1)?.headers.get("content-type")).toBe("application/merge-patch+json");
    expect(answer.status).toBe(501);
  });

  it("reads the platform's 422 (RFC 9457) with its violations, typed by the problem catalogue", async () => {
    const answer = await api.fixtureCreateWidget({ body: { name: "", size: 0 } });
    expect(answer.status).toBe(422);
    if (answer.status !== 422) return;
    expect(answer.mediaType).toBe("application/problem+json");
    expect(answer.body.type).toBe("/_service/problems/validation-failed");
    expect(answer.body.errors.map((error) => error.pointer).sort()).toEqual(["#/name", "#/size"]);
    expect(answer.body.requestId).toBe(answer.headers.get("x-request-id"));
  });

  it("reads the 406 the platform answers when Accept excludes every answer (RFC 9110 §15.5.7)", async () => {
    const answer = await api.fixtureListWidgets({}, { accept: "text/csv" as "application/json" });
    expect(answer.status).toBe(406);
    if (answer.status === 406)
      expect(answer.body.availableMediaTypes).toEqual(["application/json"]);
  });
});

describe("checking answers against the contract (off by default)", () => {
  const widget = () =>
    new Response(JSON.stringify({ id: 7 }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });

  it("throws AnswerMismatchError for a body its schema refuses, naming where, never the body", async () => {
    const checked = createClient(FIXTURE_OPERATIONS_CONTRACT, {
      binding: answering(widget),
      checkAnswers: true,
    });
    const error = await checked.fixtureGetWidget({ params: { id: "w1" } }).catch((e) => e);
    expect(error).toBeInstanceOf(AnswerMismatchError);
    expect((error as Error).message).toMatch(/^fixtureGetWidget: the 200 answer .*id/);
  });

  it("returns the same answer as it came when checking is off", async () => {
    const unchecked = createClient(FIXTURE_OPERATIONS_CONTRACT, { binding: answering(widget) });
    expect(await unchecked.fixtureGetWidget({ params: { id: "w1" } })).toMatchObject({
      status: 200,
      body: { id: 7 },
    });
  });

  it("refuses an undeclared status that is not a problem document, and an undeclared media type", async () => {
    const teapot = createClient(FIXTURE_OPERATIONS_CONTRACT, {
      binding: answering(() => new Response("short and stout", { status: 418 })),
      checkAnswers: true,
    });
    await expect(teapot.fixtureGetWidget({ params: { id: "w1" } })).rejects.toThrow(
      /418 answer .*not a problem document/,
    );
    const csv = createClient(FIXTURE_OPERATIONS_CONTRACT, {
      binding: answering(
        () => new Response("a,b", { status: 200, headers: { "content-type": "text/csv" } }),
      ),
      checkAnswers: true,
    });
    await expect(csv.fixtureGetWidget({ params: { id: "w1" } })).rejects.toThrow(
      /media type text\/csv is not declared/,
    );
  });
});

describe("an operation that declares a default answer", () => {
  const problem = (status: number) => () =>
    new Response(JSON.stringify({ type: "about:blank", title: "Bad Request", status }), {
      status,
      headers: { "content-type": "application/problem+json" },
    });
  const create = (response: () => Response) =>
    createClient(FIXTURE_SANDBOX_SHELVES_CONTRACT, {
      binding: answering(response),
      checkAnswers: true,
    }).fixtureCreateBook({ params: { shelfId: 1 }, body: { title: "T" } });

  it("reads the platform's problems as the platform's (RFC 9457), not as the default's media type", async () => {
    expect(await create(problem(400))).toMatchObject({ status: 400 });
  });

  it("holds any other status to the default (OpenAPI 3.1 §4.8.16.2)", async () => {
    const missing = () =>
      new Response(JSON.stringify({ message: "none" }), {
        status: 404,
        headers: { "content-type": "application/json" },
      });
    expect(await create(missing)).toMatchObject({ status: 404, body: { message: "none" } });
    const text = () =>
      new Response("none", { status: 404, headers: { "content-type": "text/plain" } });
    await expect(create(text)).rejects.toThrow(/media type text\/plain is not declared/);
  });
});

describe("a client over fetch", () => {
  it("keeps the base URL's own path, and calls the fetch it is given", async () => {
    const app = fixtureApp();
    const seen: string[] = [];
    const client = createClient(FIXTURE_OPERATIONS_CONTRACT, {
      baseUrl: "https://fixture.test/prefix/",
      fetch: async (request) => {
        seen.push(request.url);
        const url = new URL(request.url);
        url.pathname = url.pathname.replace(/^\/prefix/, "");
        return app.fetch(new Request(url, request));
      },
    });
    expect((await client.fixtureListWidgets({ query: { limit: 5 } })).status).toBe(200);
    expect(seen).toEqual(["https://fixture.test/prefix/fixture-widgets?limit=5"]);
  });

  it("refuses to be made without a base URL or a binding", () => {
    expect(() => createClient(FIXTURE_OPERATIONS_CONTRACT, {})).toThrow(/baseUrl/);
  });
});

describe("an operation that declares its own JSON body at a status the platform also answers", () => {
  // FIXTURE: a 422 of the operation's own JSON, as GoDaddy declares its ErrorSchema there.
  const FIXTURE_OWN_422 = defineContract({
    operations: {
      fixtureCheckDomain: {
        method: "GET",
        path: "/fixture-domains",
        request: { query: z.object({ domain: z.string().check(z.minLength(3)) }) },
        responses: {
          200: { description: "FIXTURE free", content: { "application/json": z.boolean() } },
          422: {
            description: "FIXTURE its own refusal",
            content: { "application/json": z.object({ code: z.string() }) },
          },
        },
      },
    },
  });
  const app = createApp(FIXTURE_OWN_422, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema });

  it("reads the platform's 422 problem there as the platform's, as the served document merges it (RFC 9457)", async () => {
    const checked = createClient(FIXTURE_OWN_422, { binding: bindingOf(app), checkAnswers: true });
    const answer = await checked.fixtureCheckDomain({ query: { domain: "x" } });
    expect(answer.status).toBe(422);
    expect(answer.mediaType).toBe("application/problem+json");
  });

  it("still refuses there a problem document of a type that is not the platform's", async () => {
    const foreign = () =>
      new Response(JSON.stringify({ type: "https://fixture.test/oops", title: "x", status: 422 }), {
        status: 422,
        headers: { "content-type": "application/problem+json" },
      });
    const checked = createClient(FIXTURE_OWN_422, {
      binding: answering(foreign),
      checkAnswers: true,
    });
    await expect(checked.fixtureCheckDomain({ query: { domain: "xyz" } })).rejects.toThrow(
      /422 answer .*media type application\/problem\+json is not declared/,
    );
  });
});
