/**
 * Every request outside /_service, while part 4 (Endpoints) declares nothing: 501 with an
 * RFC 9457 problem that names the missing part. Against the app of a contract that
 * declares nothing, inside workerd; the shipped Worker is held to the same promises by the
 * conformance checker, which derives them from what the Worker reports of itself.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectPlatformHeaders, expectProblem } from "../support/assertions";
import { emptyApp } from "../support/fixture-app";

const BASE = "https://fixture.test";
const app = emptyApp();
const call = async (path: string, init?: RequestInit) =>
  app.fetch(new Request(`${BASE}${path}`, init), env);

async function expectNotSpecified(res: Response): Promise<void> {
  const body = await expectProblem(res, 501);
  expect(body.type).toBe("/_service/problems/interface-not-specified");
  expect(body.title).toBe("Interface not specified");
  expect(body.missingPart).toEqual({ number: 4, name: "endpoints" });
  expect(body.statusReport).toBe("/_service/interface");
}

describe("501 Not Implemented for every method (RFC 9110 §15.6.2)", () => {
  // workerd's Request accepts these; tokens it refuses to construct (FOO, 40-character
  // methods) are checked over real HTTP by the conformance checker.
  it.each([
    "GET",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "OPTIONS",
    "TRACE",
    "PROPFIND",
    "MKCOL",
    "QUERY",
    "get",
  ])("answers %s", async (method) => {
    await expectNotSpecified(await call("/fixture-items/1", { method }));
  });

  it("answers HEAD with the same status and headers and no body (RFC 9110 §9.3.2)", async () => {
    const res = await call("/fixture-items/1", { method: "HEAD" });
    expect(res.status).toBe(501);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectPlatformHeaders(res);
    expect(await res.text()).toBe("");
  });

  it("does not answer a CORS preflight with any CORS header", async () => {
    const res = await call("/fixture-items", {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.test", "access-control-request-method": "POST" },
    });
    await expectNotSpecified(res);
  });

  it("answers a request with a JSON body without reading or echoing it", async () => {
    const res = await call("/fixture-items", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fixtureMarker: "ECHO-CANARY" }),
    });
    const text = await res.clone().text();
    expect(text).not.toContain("ECHO-CANARY");
    await expectNotSpecified(res);
  });
});

describe("501 for odd paths, never echoing them", () => {
  it.each([
    ["the root", "/"],
    ["a double slash", "//_service/health"],
    ["an encoded slash", "/_service%2Fhealth"],
    ["a prefix look-alike", "/_servicex/health"],
    ["an upper-case prefix", "/_SERVICE/health"],
    ["an encoded NUL", "/fixture%00item"],
    ["an invalid percent sequence", "/fixture%zz%"],
    ["an overlong UTF-8 sequence", "/%c0%ae%c0%ae/fixture"],
    ["a 16 KB path", `/${"ECHO-CANARY".repeat(1500)}`],
    ["a query string", "/fixture?q=ECHO-CANARY&__proto__=1"],
  ])("answers %s", async (_label, path) => {
    const res = await call(path);
    const text = await res.clone().text();
    expect(text).not.toContain("ECHO-CANARY");
    await expectNotSpecified(res);
  });
});
