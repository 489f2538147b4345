import { describe, expect, it } from "vitest";
import { parseJson, readBodyBytes } from "../../../src/engine/request/body";

function countingRequest(text: string, headers: Record<string, string> = {}) {
  const state = { pulls: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulls++;
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    state,
    request: new Request("https://fixture.test/", { method: "POST", body, headers }),
  };
}

describe("readBodyBytes", () => {
  it("refuses a Content-Length over the cap without reading the body", async () => {
    const { state, request } = countingRequest("x".repeat(20), { "content-length": "20" });
    expect(await readBodyBytes(request, 10)).toEqual({ ok: false, kind: "too-large" });
    expect(state.pulls).toBe(0);
  });

  it.each(["abc", "-1", "1,1", "1e3"])(
    "refuses a malformed Content-Length %j (RFC 9112 §6.3)",
    async (value) => {
      const { request } = countingRequest("x", { "content-length": value });
      const result = await readBodyBytes(request, 10);
      expect(result).toMatchObject({ ok: false, kind: "malformed" });
    },
  );

  it("counts the bytes that arrive when Content-Length is absent", async () => {
    const { request } = countingRequest("é".repeat(6)); // 12 bytes
    expect(await readBodyBytes(request, 11)).toEqual({ ok: false, kind: "too-large" });
    const again = countingRequest("é".repeat(6));
    const result = await readBodyBytes(again.request, 12);
    expect(result.ok && result.value.byteLength).toBe(12);
  });
});

describe("parseJson", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it("parses well-formed JSON", () => {
    expect(parseJson(bytes('{"a":[1,{"b":null}]}'))).toEqual({
      ok: true,
      value: { a: [1, { b: null }] },
    });
  });

  it("tolerates a leading byte-order mark (RFC 8259 §8.1)", () => {
    expect(parseJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))).toEqual({ ok: true, value: 1 });
  });

  it("refuses a polluting key even when written with escapes", () => {
    expect(parseJson(bytes('{"\\u005f\\u005fproto\\u005f\\u005f":1}')).ok).toBe(false);
    expect(parseJson(bytes('[[{"constructor":{"prototype":{}}}]]')).ok).toBe(false);
  });

  it("accepts the words as values rather than member names", () => {
    expect(parseJson(bytes('{"a":"__proto__","b":"constructor"}')).ok).toBe(true);
    expect(parseJson(bytes('{"constructor":{"name":"x"}}')).ok).toBe(true);
  });
});
