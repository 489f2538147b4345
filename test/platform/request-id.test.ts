import { describe, expect, it } from "vitest";
import { emptyApp } from "../support/fixture-app";

const app = emptyApp();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function idFor(offered?: string): Promise<string | null> {
  const headers = offered === undefined ? undefined : { "x-request-id": offered };
  const res = await app.request("/_service/health", { headers });
  return res.headers.get("x-request-id");
}

describe("request id", () => {
  it("is a fresh UUID when the client sends none", async () => {
    const [a, b] = [await idFor(), await idFor()];
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it.each(["abc-123", "trace.7:span_9", "x".repeat(64)])(
    "keeps a short, safe client id (%s)",
    async (offered) => {
      expect(await idFor(offered)).toBe(offered);
    },
  );

  it.each([
    ["too long", "x".repeat(65)],
    ["spaces", "a b"],
    ["log-injection characters (OWASP Logging Cheat Sheet)", 'a"}{"level":"info'],
    ["angle brackets", "<script>"],
  ])("replaces a client id with %s", async (_why, offered) => {
    const id = await idFor(offered);
    expect(id).toMatch(UUID);
    expect(id).not.toBe(offered);
  });

  it("is the same in the header and in the problem document", async () => {
    const res = await app.request("/anything", { headers: { "x-request-id": "fixture-id-1" } });
    expect(res.headers.get("x-request-id")).toBe("fixture-id-1");
    expect(((await res.json()) as { requestId: string }).requestId).toBe("fixture-id-1");
  });
});
