/**
 * Opaque bearer tokens verified by OAuth 2.0 Token Introspection (RFC 7662), against the
 * FIXTURE introspection app inside workerd. The authorization server is a mocked `fetch`,
 * each test at its own URL so no test sees another's kept answers. Tokens are made here.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import {
  FIXTURE_INTROSPECTION_CONTRACT,
  FIXTURE_INTROSPECTION_HANDLERS,
} from "../../fixtures/introspection";
import { expectProblem } from "../../support/assertions";

const app = createApp(FIXTURE_INTROSPECTION_CONTRACT, {
  engine: BUILD_ENGINE,
  jsonSchema: z.toJSONSchema,
  handlers: FIXTURE_INTROSPECTION_HANDLERS,
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const CLIENT = { id: "fixture-client", secret: `fixture-secret-${crypto.randomUUID()}` };
const newToken = () => `fixture-opaque-${crypto.randomUUID()}`;

type Answer = Record<string, unknown> | Response | Error | Promise<Response>;

let endpoints = 0;
/** An introspection endpoint no other test uses; `answer` is asked per token. */
function authorizationServer(answer: (token: string) => Answer) {
  const url = `https://fixture-idp.test/introspect-${++endpoints}`;
  const asked: { token: string; authorization: string | null; type: string | null }[] = [];
  const fetched = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.url !== url) throw new TypeError(`unexpected fetch of ${request.url}`);
    const form = new URLSearchParams(await request.text());
    const token = form.get("token") ?? "";
    asked.push({
      token,
      authorization: request.headers.get("authorization"),
      type: request.headers.get("content-type"),
    });
    const given = answer(token);
    if (given instanceof Error) throw given;
    if (given instanceof Response || given instanceof Promise) return given;
    return Response.json(given);
  });
  const bindings = {
    FIXTURE_INTROSPECTION_URL: url,
    FIXTURE_INTROSPECTION_CLIENT_ID: CLIENT.id,
    FIXTURE_INTROSPECTION_CLIENT_SECRET: CLIENT.secret,
    FIXTURE_INTROSPECTION_AUDIENCE: "fixture-api",
  };
  return { bindings, fetched, asked };
}

const call = (
  path: string,
  token: string | undefined,
  bindings: Readonly<Record<string, unknown>>,
) =>
  app.fetch(
    new Request(`https://fixture.test${path}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    }),
    { ...env, ...bindings } as Env,
  );

const ACTIVE = { active: true, sub: "fixture-user", scope: "fixture:read", aud: "fixture-api" };

describe("an opaque token (RFC 7662)", () => {
  it("is asked about as the Worker's client (§2.1): POST, form-encoded, HTTP Basic; its answer's sub reaches the handler", async () => {
    const { bindings, asked } = authorizationServer(() => ACTIVE);
    const token = newToken();
    const res = await call("/fixture-who", token, bindings);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ subject: "fixture-user", scopes: ["fixture:read"] });
    expect(asked).toEqual([
      {
        token,
        authorization: `Basic ${btoa(`${CLIENT.id}:${CLIENT.secret}`)}`,
        type: "application/x-www-form-urlencoded",
      },
    ]);
  });

  it.each<[string, Record<string, unknown>]>([
    ["inactive", { active: false }],
    ["expired", { ...ACTIVE, exp: Math.floor(Date.now() / 1000) - 1 }],
    ["not yet valid (nbf beyond 30 s of skew)", { ...ACTIVE, nbf: Date.now() / 1000 + 120 }],
  ])("one the server says is %s is 401 (RFC 6750 §3.1)", async (_label, answer) => {
    const { bindings } = authorizationServer(() => answer);
    const res = await call("/fixture-who", newToken(), bindings);
    await expectProblem(res, 401);
    // A refused token gets the challenge a missing one gets (as JWT schemes do).
    const missing = await call("/fixture-who", undefined, bindings);
    expect(res.headers.get("www-authenticate")).toBe(missing.headers.get("www-authenticate"));
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("no token at all is 401 without asking anyone", async () => {
    const { bindings, fetched } = authorizationServer(() => ACTIVE);
    await expectProblem(await call("/fixture-who", undefined, bindings), 401);
    expect(fetched).not.toHaveBeenCalled();
  });

  it("is asked about once for many requests, and once for concurrent ones", async () => {
    const { bindings, fetched } = authorizationServer(() => ACTIVE);
    const token = newToken();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call("/fixture-who", token, bindings)),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await call("/fixture-who", token, bindings)).status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it("a revoked token is refused once its kept answer (at most 5 minutes) runs out", async () => {
    let active = true;
    const { bindings, fetched } = authorizationServer(() => (active ? ACTIVE : { active: false }));
    vi.useFakeTimers({ toFake: ["Date"] });
    const token = newToken();
    expect((await call("/fixture-who", token, bindings)).status).toBe(200);
    active = false;
    vi.advanceTimersByTime(299_000);
    expect((await call("/fixture-who", token, bindings)).status).toBe(200);
    vi.advanceTimersByTime(2_000);
    await expectProblem(await call("/fixture-who", token, bindings), 401);
    expect(fetched).toHaveBeenCalledTimes(2);
  });

  it("an answer is never kept past the token's own exp", async () => {
    const exp = Math.floor(Date.now() / 1000) + 10;
    const { bindings, fetched } = authorizationServer(() => ({ ...ACTIVE, exp }));
    vi.useFakeTimers({ toFake: ["Date"] });
    const token = newToken();
    expect((await call("/fixture-who", token, bindings)).status).toBe(200);
    vi.advanceTimersByTime(11_000);
    await expectProblem(await call("/fixture-who", token, bindings), 401);
    expect(fetched).toHaveBeenCalledTimes(2);
  });
});

describe("scopes and audience of an introspected OAuth 2 token", () => {
  it("a token with the operation's scope is let in", async () => {
    const { bindings } = authorizationServer(() => ACTIVE);
    expect((await call("/fixture-scoped", newToken(), bindings)).status).toBe(200);
  });

  it("one without it is 403 insufficient_scope, naming the scope (RFC 6750 §3.1)", async () => {
    const { bindings } = authorizationServer(() => ({ ...ACTIVE, scope: "fixture:other" }));
    const res = await call("/fixture-scoped", newToken(), bindings);
    const body = await expectProblem(res, 403);
    expect(body.type).toBe("/_service/problems/insufficient-scope");
    expect(res.headers.get("www-authenticate")).toContain('scope="fixture:read"');
  });

  it("one issued for another audience is 401", async () => {
    const { bindings } = authorizationServer(() => ({ ...ACTIVE, aud: ["fixture-other"] }));
    await expectProblem(await call("/fixture-scoped", newToken(), bindings), 401);
  });
});

/** Every line the app writes to the console in `run`, by level. */
async function consoleOf(run: () => Promise<void>) {
  const lines = { error: [] as string[], warn: [] as string[] };
  for (const level of ["error", "warn"] as const)
    vi.spyOn(console, level).mockImplementation((line: unknown) => {
      lines[level].push(String(line));
    });
  await run();
  return lines;
}

describe("an authorization server that fails: 503 with Retry-After (RFC 9110 §15.6.4), never 401, never 200", () => {
  it.each<[string, () => Answer, RegExp]>([
    ["refuses the connection", () => new TypeError("fixture: connection refused"), /reached/],
    ["answers a 500", () => new Response("fixture", { status: 500 }), /answered 500/],
    ["answers HTML", () => new Response("<html>fixture</html>"), /not JSON/],
    ["answers JSON without active", () => Response.json({ fixture: true }), /no active member/],
  ])("one that %s", async (_label, answer, reason) => {
    const { bindings } = authorizationServer(answer);
    const token = newToken();
    let res = new Response();
    const lines = await consoleOf(async () => {
      res = await call("/fixture-who", token, bindings);
    });
    await expectProblem(res, 503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(lines.error).toHaveLength(1);
    expect(lines.error[0]).toContain("introspection endpoint");
    expect(lines.error[0]).toMatch(reason);
    expect(lines.error.join("\n")).not.toContain(token);
  });

  it("is not asked again before its backoff has passed, then is, and a kept answer still works", async () => {
    let down = false;
    const { bindings, fetched } = authorizationServer(() =>
      down ? new TypeError("fixture: connection refused") : ACTIVE,
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ["Date"] });
    const known = newToken();
    expect((await call("/fixture-who", known, bindings)).status).toBe(200);
    down = true;
    await expectProblem(await call("/fixture-who", newToken(), bindings), 503);
    const again = await call("/fixture-who", newToken(), bindings);
    await expectProblem(again, 503);
    expect(fetched).toHaveBeenCalledTimes(2);
    expect((await call("/fixture-who", known, bindings)).status).toBe(200);
    down = false;
    vi.advanceTimersByTime(1_000);
    expect((await call("/fixture-who", newToken(), bindings)).status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(3);
  });
});

describe("fails closed, never open", () => {
  it.each([
    "FIXTURE_INTROSPECTION_URL",
    "FIXTURE_INTROSPECTION_CLIENT_ID",
    "FIXTURE_INTROSPECTION_CLIENT_SECRET",
  ])(
    "a var the scheme names but the deployment lacks (%s) is a 500 naming it in the log",
    async (name) => {
      const { bindings, fetched } = authorizationServer(() => ACTIVE);
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const res = await call("/fixture-who", newToken(), { ...bindings, [name]: "" });
      await expectProblem(res, 500);
      expect(logged.mock.calls.map(([line]) => String(line)).join("\n")).toContain(name);
      expect(fetched).not.toHaveBeenCalled();
    },
  );

  it("an http: endpoint is refused as configuration: the client secret never leaves in clear", async () => {
    const { bindings, fetched } = authorizationServer(() => ACTIVE);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call("/fixture-who", newToken(), {
      ...bindings,
      FIXTURE_INTROSPECTION_URL: "http://fixture-idp.test/introspect",
    });
    await expectProblem(res, 500);
    expect(fetched).not.toHaveBeenCalled();
  });
});

describe("pinned tokens (a deployment's, and local development's)", () => {
  const digest = async (token: string) =>
    [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");

  it("a token pinned by its SHA-256 is answered as pinned, without asking anyone; any other is 401", async () => {
    const fetched = vi.spyOn(globalThis, "fetch");
    const token = newToken();
    const bindings = {
      FIXTURE_INTROSPECTION_URL: JSON.stringify({ tokens: { [await digest(token)]: ACTIVE } }),
      FIXTURE_INTROSPECTION_CLIENT_ID: "",
      FIXTURE_INTROSPECTION_CLIENT_SECRET: "",
    };
    const res = await call("/fixture-who", token, bindings);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ subject: "fixture-user", scopes: ["fixture:read"] });
    await expectProblem(await call("/fixture-who", newToken(), bindings), 401);
    expect(fetched).not.toHaveBeenCalled();
  });
});
