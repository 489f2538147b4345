/**
 * Bodies of every media type, both ways, through the FIXTURE vocabulary app inside
 * workerd: each goes through the same 415 → 413 → 400 → 422 order and reaches its schema
 * in the shape a handler receives; answers are chosen from Accept (RFC 9110 §12.5.1) with
 * Vary: Accept, or refused with 406 (§15.5.7) before the handler runs; and a body is
 * written as its type says, never with String(value).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../src/contract-language/define-handlers";
import { XML_CODEC } from "../../../src/engine/xml/codec";
import {
  FIXTURE_ROTATED_SECRETS,
  FIXTURE_VOCABULARY_CONTRACT,
  FIXTURE_VOCABULARY_HANDLERS,
} from "../../fixtures/vocabulary";
import { expectPlatformHeaders, expectProblem } from "../../support/assertions";
import { callVocabulary, withKey } from "../../support/vocabulary-app";

afterEach(() => vi.restoreAllMocks());

const post = (path: string, type: string, body: BodyInit, method = "POST") =>
  callVocabulary(path, { method, headers: { "content-type": type }, body });

describe("application/x-www-form-urlencoded", () => {
  it("reaches the schema as an object of strings, a repeated name as an array", async () => {
    const res = await post(
      "/fixture-bodies/form",
      "application/x-www-form-urlencoded",
      "name=Rex+II&tags=a&tags=b%20c",
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      kind: "form",
      value: { name: "Rex II", tags: ["a", "b c"] },
    });
  });

  it("is 422 when a field the schema requires is missing, naming it", async () => {
    const body = await expectProblem(
      await post("/fixture-bodies/form", "application/x-www-form-urlencoded", "tags=a"),
      400,
    );
    // The FIXTURE error model presents validation failures as its own 400.
    expect(body.errors).toEqual([{ in: "body", pointer: "#/name", detail: "Is required." }]);
  });

  it("is 400 when it is not UTF-8, and 415 for another charset", async () => {
    await expectProblem(
      await post(
        "/fixture-bodies/form",
        "application/x-www-form-urlencoded",
        new Uint8Array([0x6e, 0x3d, 0xff]),
      ),
      400,
    );
    await expectProblem(
      await post(
        "/fixture-bodies/form",
        "application/x-www-form-urlencoded; charset=iso-8859-1",
        "name=x",
      ),
      415,
    );
  });

  it("keeps a field named __proto__ a plain field", async () => {
    const res = await post(
      "/fixture-bodies/form",
      "application/x-www-form-urlencoded",
      "name=x&__proto__=y",
    );
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).y).toBeUndefined();
  });
});

describe("multipart/form-data (RFC 7578)", () => {
  const form = () => {
    const data = new FormData();
    data.append("title", "Fixture upload");
    data.append("file", new File(["fixture file text"], "fixture.txt", { type: "text/plain" }));
    return data;
  };

  it("reaches the schema with its file parts as Files", async () => {
    const res = await callVocabulary("/fixture-bodies/multipart", { method: "POST", body: form() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      kind: "multipart",
      value: { title: "Fixture upload", file: "fixture.txt", text: "fixture file text" },
    });
  });

  it("is 422 without the file part the schema requires", async () => {
    const data = new FormData();
    data.append("title", "no file");
    const body = await expectProblem(
      await callVocabulary("/fixture-bodies/multipart", { method: "POST", body: data }),
      400,
    );
    expect(body.errors).toEqual([expect.objectContaining({ pointer: "#/file" })]);
  });

  it("is 400 when the body does not follow its boundary", async () => {
    const res = await post(
      "/fixture-bodies/multipart",
      "multipart/form-data; boundary=fixture",
      "--other\r\nnot a part\r\n",
    );
    await expectProblem(res, 400);
  });

  it("counts every byte of every part against the cap (413 before any part is read)", async () => {
    const app = createApp(FIXTURE_VOCABULARY_CONTRACT, {
      engine: BUILD_ENGINE,
      handlers: FIXTURE_VOCABULARY_HANDLERS,
      jsonSchema: z.toJSONSchema,
      xml: XML_CODEC,
      maxBodyBytes: 512,
    });
    const data = new FormData();
    data.append("title", "big");
    data.append("file", new File(["x".repeat(600)], "big.txt"));
    const res = await app.fetch(
      new Request("https://fixture.test/fixture-bodies/multipart", { method: "POST", body: data }),
      env,
    );
    const body = await expectProblem(res, 413);
    expect(body.maxBytes).toBe(512);
  });
});

describe("text/plain, handed over as text", () => {
  it("reaches the schema as a string", async () => {
    const text = await post("/fixture-bodies/text", "text/plain; charset=utf-8", "fixture words");
    expect(await text.json()).toEqual({ kind: "text/plain", value: "fixture words" });
  });

  it("is 422 when the string breaks its schema, 400 when it is not UTF-8, 415 for another charset", async () => {
    await expectProblem(await post("/fixture-bodies/text", "text/plain", "x".repeat(21)), 400);
    await expectProblem(
      await post("/fixture-bodies/text", "text/plain", new Uint8Array([0xc3, 0x28])),
      400,
    );
    await expectProblem(await post("/fixture-bodies/text", "text/plain; charset=utf-16", "x"), 415);
    await expectProblem(await post("/fixture-bodies/text", "application/atom+xml", "<feed/>"), 415);
  });
});

describe("application/octet-stream", () => {
  it("reaches the schema as the bytes, and is answered as bytes", async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const res = await post("/fixture-bodies/binary", "application/octet-stream", bytes, "PUT");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it("may come without a body where the contract says the body is optional", async () => {
    const res = await callVocabulary("/fixture-bodies/binary", { method: "PUT" });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it("is 415 for a type it does not declare, with Accept-Post style hints only for POST and PATCH", async () => {
    const res = await post("/fixture-bodies/binary", "image/png", new Uint8Array([1]), "PUT");
    const body = await expectProblem(res, 415);
    expect(body.acceptedMediaTypes).toEqual(["application/octet-stream"]);
  });
});

describe("answers in several media types (RFC 9110 §12.5.1)", () => {
  const getPet = (accept?: string) =>
    callVocabulary(
      "/fixture-pets/p7",
      withKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY, accept ? { headers: { accept } } : {}),
    );

  it.each([
    [undefined, "application/json", '{"id":"p7","name":"anonymous"}'],
    ["application/json", "application/json", '{"id":"p7","name":"anonymous"}'],
    // RFC 7303 §3.2: XML's charset is said; it is written from the same object as JSON.
    [
      "application/xml",
      "application/xml; charset=utf-8",
      '<?xml version="1.0" encoding="UTF-8"?><pet id="p7"><name>anonymous</name></pet>',
    ],
    ["text/plain;q=0.9, application/xml;q=0.5", "text/plain; charset=utf-8", "pet p7"],
    ["text/*", "text/plain; charset=utf-8", "pet p7"],
  ])("Accept %s is answered as %s, with Vary: Accept", async (accept, type, text) => {
    // The rotated key is accepted as the third alternative of this operation's security.
    const res = await getPet(accept);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("vary")).toBe("accept");
    expectPlatformHeaders(res);
    expect(await res.text()).toBe(text);
  });

  it("an Accept that excludes every media type is 406 listing them, before the handler runs", async () => {
    let calls = 0;
    const app = createApp(FIXTURE_VOCABULARY_CONTRACT, {
      engine: BUILD_ENGINE,
      jsonSchema: z.toJSONSchema,
      xml: XML_CODEC,
      handlers: {
        fixtureGetPet: (input, context) => {
          calls += 1;
          return (
            FIXTURE_VOCABULARY_HANDLERS.fixtureGetPet?.(input, context) ?? {
              status: 200,
              mediaType: "application/json",
              body: { id: "x", name: "x" },
            }
          );
        },
      },
    });
    const init = withKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY, {
      headers: { accept: "image/png, application/json;q=0" },
    });
    const res = await app.fetch(new Request("https://fixture.test/fixture-pets/p7", init), env);
    const body = await expectProblem(res, 406);
    expect(body.type).toBe("/_service/problems/not-acceptable");
    expect(body.availableMediaTypes).toEqual(["application/json", "application/xml", "text/plain"]);
    expect(calls).toBe(0);
    // The same request accepting JSON reaches the handler.
    const ok = await app.fetch(
      new Request(
        "https://fixture.test/fixture-pets/p7",
        withKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY),
      ),
      env,
    );
    expect(ok.status).toBe(200);
    expect(calls).toBe(1);
  });
});

describe("a body is written as its media type says, never with String(value)", () => {
  // FIXTURE: a handler that answers an object where text is declared.
  const contract = defineContract({
    operations: {
      fixtureWrongText: {
        method: "GET",
        path: "/fixture-wrong-text",
        responses: { 200: { description: "text", content: { "text/plain": z.string() } } },
      },
    },
  });
  const handlers = defineHandlers(contract, {
    fixtureWrongText: () => ({ status: 200, body: { not: "text" } as unknown as string }),
  });
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: z.toJSONSchema,
    handlers,
  });

  it.each(["enforce", "log", "off"])(
    "is a 500, not [object Object], with the response check %s",
    async (mode) => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      vi.spyOn(console, "warn").mockImplementation(() => {});
      const res = await app.fetch(new Request("https://fixture.test/fixture-wrong-text"), {
        ...env,
        RESPONSE_VALIDATION: mode,
      });
      const text = await res.clone().text();
      expect(text).not.toContain("[object Object]");
      await expectProblem(res, 500);
    },
  );
});
