/**
 * Request validation against a FIXTURE contract, in its fixed order: 415, 413, 400, 422.
 */
import { describe, expect, it } from "vitest";
import { expectProblem } from "../../support/assertions";
import { callFixture, fixtureApp, json } from "../../support/fixture-app";

const CANARY = "ECHO-CANARY-7f3a";

describe("415 Unsupported Media Type (RFC 9110 §15.5.16)", () => {
  it("for a body on an operation that declares none", async () => {
    const res = await callFixture("/fixture-widgets/w1", {
      method: "DELETE",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    const body = await expectProblem(res, 415);
    expect(body.acceptedMediaTypes).toEqual([]);
  });

  it.each([
    ["text/plain"],
    ["application/jsonx"],
    ['text/plain; x="application/json"'],
    ["__proto__"],
    ["application/json, text/plain"],
    ["application/json; charset=utf-16"],
    ["application/json;"],
    ["application /json"],
  ])("for Content-Type %s, with Accept-Post listing what is accepted", async (contentType) => {
    const res = await callFixture("/fixture-widgets", {
      method: "POST",
      headers: { "content-type": contentType },
      body: "{}",
    });
    expect(res.headers.get("accept-post")).toBe("application/json");
    const body = await expectProblem(res, 415);
    expect(body.type).toBe("/_service/problems/unsupported-media-type");
    expect(body.acceptedMediaTypes).toEqual(["application/json"]);
  });

  it("with Accept-Patch on PATCH (RFC 5789 §3.1)", async () => {
    const res = await callFixture("/fixture-widgets/w1", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.headers.get("accept-patch")).toBe("application/merge-patch+json");
    await expectProblem(res, 415);
  });

  it.each([
    "application/json",
    "Application/JSON",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    'application/json; charset="utf-8"',
  ])(
    "not for the declared type written as %s (case-insensitive, RFC 9110 §8.3.1)",
    async (contentType) => {
      const res = await callFixture(
        "/fixture-widgets",
        json({ name: "a", size: 1 }, { "content-type": contentType }),
      );
      expect(res.status).toBe(201);
    },
  );
});

describe("413 Content Too Large (RFC 9110 §15.5.14)", () => {
  const small = fixtureApp({ maxBodyBytes: 64 });
  // {"name":"","size":1} is 20 bytes; the name fills the rest.
  const payload = (bytes: number) => JSON.stringify({ name: "x".repeat(bytes - 20), size: 1 });

  it("when Content-Length is over the cap, before reading", async () => {
    const res = await callFixture(
      "/fixture-widgets",
      { ...json({}), body: payload(65) },
      { app: small },
    );
    const body = await expectProblem(res, 413);
    expect(body.type).toBe("/_service/problems/content-too-large");
    expect(body.maxBytes).toBe(64);
  });

  it("when a chunked body without Content-Length goes over the cap", async () => {
    const chunks = ['{"name":"', "x".repeat(40), "x".repeat(40), '","size":1}'];
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks[pulled++];
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const res = await callFixture(
      "/fixture-widgets",
      { method: "POST", headers: { "content-type": "application/json" }, body: stream },
      { app: small },
    );
    await expectProblem(res, 413);
    expect(pulled).toBeLessThan(chunks.length + 1);
  });

  it("counting bytes, not characters", async () => {
    const text = JSON.stringify({ name: "é".repeat(30), size: 1 }); // 43 characters, 73 bytes
    expect(text.length).toBeLessThanOrEqual(64);
    await expectProblem(
      await callFixture("/fixture-widgets", { ...json({}), body: text }, { app: small }),
      413,
    );
  });

  it("and accepts a body of exactly the cap", async () => {
    const text = payload(64);
    expect(new TextEncoder().encode(text).byteLength).toBe(64);
    const res = await callFixture("/fixture-widgets", { ...json({}), body: text }, { app: small });
    expect(res.status).not.toBe(413);
  });

  it("with the platform default of 1 MiB when nothing is declared", async () => {
    const res = await callFixture("/fixture-widgets", { ...json({}), body: " ".repeat(1_048_577) });
    const body = await expectProblem(res, 413);
    expect(body.maxBytes).toBe(1_048_576);
  });
});

describe("400 malformed request", () => {
  it.each([
    ["malformed JSON", '{"name": "a", size: 1}'],
    ["truncated JSON", '{"name": "a", "size": '],
    ["an empty body", ""],
    ["a blank body", "  \n "],
    ["a __proto__ member", '{"name":"a","size":1,"__proto__":{"polluted":true}}'],
    ["a nested __proto__ member", '{"name":"a","size":1,"x":[{"__proto__":{}}]}'],
    ["an escaped __proto__ member", '{"name":"a","size":1,"\\u005f_proto__":{}}'],
    [
      "constructor.prototype",
      '{"name":"a","size":1,"constructor":{"prototype":{"polluted":true}}}',
    ],
  ])("for %s", async (_label, text) => {
    const res = await callFixture("/fixture-widgets", { ...json({}), body: text });
    const body = await expectProblem(res, 400);
    expect(body.type).toBe("/_service/problems/malformed-request");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("for invalid UTF-8", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
    await expectProblem(await callFixture("/fixture-widgets", { ...json({}), body: bytes }), 400);
  });

  it("for a missing body where the operation requires one", async () => {
    await expectProblem(await callFixture("/fixture-widgets", { method: "POST" }), 400);
  });

  it("but not for a member merely named constructor (the schema decides: 422)", async () => {
    const res = await callFixture(
      "/fixture-widgets",
      json({ name: "a", size: 1, constructor: "x" }),
    );
    await expectProblem(res, 422);
  });

  it("never a 500 for deeply nested JSON", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const res = await callFixture("/fixture-widgets", { ...json({}), body: deep });
    expect([400, 422]).toContain(res.status);
  });
});

describe("422 schema violations, with errors of { in, pointer, detail }", () => {
  it("in the body, naming each violation by JSON Pointer, quoting no value", async () => {
    const res = await callFixture(
      "/fixture-widgets",
      json({ name: CANARY.repeat(5), size: 0.5, extra: CANARY }),
    );
    const text = await res.clone().text();
    const body = await expectProblem(res, 422);
    expect(body.type).toBe("/_service/problems/validation-failed");
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { in: "body", pointer: "#/name", detail: "Must be at most 40 characters." },
        { in: "body", pointer: "#/size", detail: "Must be of type integer." },
        { in: "body", pointer: "#/extra", detail: "Is not a member the schema allows." },
      ]),
    );
    expect(text).not.toContain(CANARY);
  });

  it("names a member the schema does not allow only where its name is a plain identifier (OWASP: no reflected input)", async () => {
    const odd = `<b>${CANARY}</b>`;
    const res = await callFixture(
      "/fixture-widgets",
      json({ name: "ok", size: 1, nickname: 1, [odd]: 1, ["x".repeat(65)]: 1 }),
    );
    const text = await res.clone().text();
    const body = await expectProblem(res, 422);
    expect(body.errors).toEqual([
      { in: "body", pointer: "#/nickname", detail: "Is not a member the schema allows." },
      { in: "body", pointer: "#", detail: "Has 2 members the schema does not allow." },
    ]);
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain("x".repeat(65));
  });

  it("say what a client can act on: required, null, wrong type, integer (never zod's int)", async () => {
    const a = await expectProblem(await callFixture("/fixture-widgets", json({ name: null })), 422);
    expect(a.errors).toEqual([
      { in: "body", pointer: "#/name", detail: "Must not be null: must be of type string." },
      { in: "body", pointer: "#/size", detail: "Is required." },
    ]);
    const b = await expectProblem(
      await callFixture("/fixture-widgets", json({ name: 5, size: 1.5 })),
      422,
    );
    expect(b.errors).toEqual([
      { in: "body", pointer: "#/name", detail: "Must be of type string." },
      { in: "body", pointer: "#/size", detail: "Must be of type integer." },
    ]);
  });

  it("in every request part at once: path, query, header, cookie and body", async () => {
    const bad = await callFixture(
      "/fixture-widgets?dryRun=maybe",
      json({ name: "", size: 1 }, { "x-fixture-trace": "NO!" }),
    );
    const body = await expectProblem(bad, 422);
    expect(
      (body.errors as { in: string; pointer: string }[]).map((e) => `${e.in} ${e.pointer}`).sort(),
    ).toEqual(["body #/name", "header #/x-fixture-trace", "query #/dryRun"]);
    const item = await callFixture("/fixture-widgets/x1", {
      headers: { cookie: "fixture_session=ab" },
    });
    const itemBody = await expectProblem(item, 422);
    expect((itemBody.errors as { in: string }[]).map((e) => e.in).sort()).toEqual([
      "cookie",
      "path",
    ]);
  });

  it("for a query value out of bounds, after coercion", async () => {
    const body = await expectProblem(await callFixture("/fixture-widgets?limit=0"), 422);
    expect(body.errors).toEqual([
      { in: "query", pointer: "#/limit", detail: "Must be at least 1." },
    ]);
    const ok = await callFixture("/fixture-widgets?limit=5");
    expect(await ok.json()).toEqual({ items: [], limit: 5 });
  });

  it("and hands the handler the validated, coerced input", async () => {
    const res = await callFixture(
      "/fixture-widgets?dryRun=true",
      json({ name: "a", size: 2 }, { "x-fixture-trace": "abcd" }),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: "w1", name: "a", size: 2 });
  });
});
