/**
 * Part 8 enforced, with the FIXTURE security contract: a body cap that replaces the
 * platform default (413), rate limits counted by the test runtime's rate limiting bindings
 * (429 + Retry-After, RFC 6585 §4), page-size bounds enforced by the schema (422), and a
 * missing binding failing closed.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURE_SECRETS, FIXTURE_UNBOUND_LIMITER } from "../../fixtures/security";
import { expectProblem } from "../../support/assertions";
import { callSecured } from "../../support/security-app";

afterEach(() => vi.restoreAllMocks());

const token = { authorization: `Bearer ${FIXTURE_SECRETS.FIXTURE_BEARER_TOKEN}` };
let clients = 0;
/** A fresh client address, so each test counts from zero. */
const client = () => ({ "cf-connecting-ip": `192.0.2.${++clients}` });

beforeAll(async () => {
  // The binding counts in windows aligned to the wall clock; start well inside one.
  const into = Date.now() % 60_000;
  if (into > 55_000) await new Promise((r) => setTimeout(r, 60_000 - into + 100));
});

describe("a body-size limit replaces the platform default for its operation", () => {
  const upload = (bytes: number) =>
    callSecured("/fixture-uploads", {
      method: "POST",
      headers: { ...token, "content-type": "application/json" },
      body: JSON.stringify({ note: "x".repeat(bytes - 11) }), // {"note":""} is 11 bytes
    });

  it("a body of exactly the cap is accepted", async () => {
    expect((await upload(64)).status).toBe(200);
  });

  it("one byte more is 413 with the declared cap (RFC 9110 §15.5.14)", async () => {
    const body = await expectProblem(await upload(65), 413);
    expect(body.maxBytes).toBe(64);
    expect(body.type).toBe("/_service/problems/content-too-large");
  });
});

describe("a rate limit per client address", () => {
  it("admits the declared number of requests, then answers 429 with Retry-After", async () => {
    const headers = client();
    for (let i = 0; i < 2; i++)
      expect((await callSecured("/fixture-list", { headers })).status).toBe(200);
    const res = await callSecured("/fixture-list", { headers });
    const body = await expectProblem(res, 429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(body).toMatchObject({
      type: "/_service/problems/rate-limit-exceeded",
      limit: "fixtureListRate",
      maxRequests: 2,
      periodSeconds: 60,
    });
  });

  it("counts each client address on its own", async () => {
    const first = client();
    for (let i = 0; i < 3; i++) await callSecured("/fixture-list", { headers: first });
    expect((await callSecured("/fixture-list", { headers: client() })).status).toBe(200);
  });

  it("counts requests before their credentials are checked, so guessing is limited too", async () => {
    const headers = client();
    const wrong = { ...headers, authorization: "Bearer fixture-guess" };
    await expectProblem(await callSecured("/fixture-secure/counted", { headers: wrong }), 401);
    await expectProblem(await callSecured("/fixture-secure/counted", { headers: wrong }), 401);
    const res = await callSecured("/fixture-secure/counted", { headers: { ...headers, ...token } });
    await expectProblem(res, 429);
  });
});

describe("a rate limit per credential", () => {
  it("counts every client that presents the same credential together", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await callSecured("/fixture-secure/counted", {
        headers: { ...client(), ...token },
      });
      expect(res.status).toBe(200);
    }
    const res = await callSecured("/fixture-secure/counted", {
      headers: { ...client(), ...token },
    });
    const body = await expectProblem(res, 429);
    expect(body.limit).toBe("fixtureCountedPerCredential");
    // A request without the credential is not counted against it: it is simply refused.
    await expectProblem(await callSecured("/fixture-secure/counted", { headers: client() }), 401);
  });
});

describe("page-size bounds are enforced by the operation's schema", () => {
  it.each([
    ["0", 422],
    ["51", 422],
    ["2.5", 422],
    ["1", 200],
    ["50", 200],
  ])("limit=%s answers %i", async (limit, status) => {
    const res = await callSecured(`/fixture-list?limit=${limit}`, { headers: client() });
    if (status === 200) expect(res.status).toBe(200);
    else {
      const body = await expectProblem(res, 422);
      expect(body.errors).toEqual([expect.objectContaining({ in: "query", pointer: "#/limit" })]);
    }
  });
});

describe("a rate limiting binding the deployment lacks fails closed", () => {
  it("answers 500 and logs the binding's name", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const body = await expectProblem(await callSecured("/fixture-unbound"), 500);
    expect(logged).toHaveBeenCalledOnce();
    expect(JSON.parse(String(logged.mock.calls[0]?.[0]))).toMatchObject({
      binding: FIXTURE_UNBOUND_LIMITER,
      requestId: body.requestId,
    });
  });
});
