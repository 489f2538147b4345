/**
 * CORS as a deployment setting (the Fetch Standard's CORS protocol), inside workerd: off by
 * default, with nothing CORS-related sent; when on, preflights granted or refused by origin,
 * method and header, the grant on every actual answer (problems included) with `Vary`, and
 * what a path allows derived from the FIXTURE contracts. The setting comes from the
 * request's env, as a deployment's vars.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import type { StatusReport } from "../../../src/platform/status";
import { FIXTURE_VERSIONS_HANDLERS, fixtureVersionsContract } from "../../fixtures/versions";
import { expectPlatformHeaders, expectProblem } from "../../support/assertions";
import { emptyApp, fixtureApp } from "../../support/fixture-app";
import { securityApp } from "../../support/security-app";
import { vocabularyApp } from "../../support/vocabulary-app";

const ORIGIN = "https://app.fixture.test";
const OTHER = "https://elsewhere.fixture.test";

type App = { readonly fetch: (request: Request, env: Env) => Response | Promise<Response> };

/** The test runtime's bindings with the CORS vars a deployment would set. */
function setting(vars: { origins?: string; credentials?: string; maxAge?: string }): Env {
  return {
    ...env,
    CORS_ALLOWED_ORIGINS: vars.origins ?? "",
    CORS_ALLOW_CREDENTIALS: vars.credentials ?? "false",
    CORS_MAX_AGE: vars.maxAge ?? "600",
  };
}

const LISTED = setting({ origins: `${ORIGIN}, https://admin.fixture.test` });

function call(app: App, path: string, init: RequestInit, bindings: Env): Promise<Response> {
  return Promise.resolve(app.fetch(new Request(`https://fixture.test${path}`, init), bindings));
}

/** A CORS-preflight request (Fetch Standard, "CORS-preflight fetch"). */
function preflight(method: string, headers?: string, origin = ORIGIN): RequestInit {
  return {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      ...(headers === undefined ? {} : { "access-control-request-headers": headers }),
    },
  };
}

const fromOrigin = (origin = ORIGIN, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string> | undefined), origin },
});

const corsHeaders = (res: Response) =>
  [...res.headers.keys()].filter((name) => name.startsWith("access-control-"));
const listOf = (res: Response, name: string) =>
  (res.headers.get(name) ?? "").split(",").map((item) => item.trim().toLowerCase());
const varies = (res: Response) => listOf(res, "vary");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("off, the default (CORS_ALLOWED_ORIGINS empty): nothing CORS-related is sent", () => {
  it("wrangler.toml's generated block leaves it empty", () => {
    expect(env.CORS_ALLOWED_ORIGINS).toBe("");
  });

  it.each([
    ["part 4's 501 (the shortcut)", () => emptyApp(), "/fixture-orders", fromOrigin()],
    [
      "a preflight of health",
      () => emptyApp(),
      "/_service/health",
      preflight("GET", "x-request-id"),
    ],
    ["a declared operation", () => fixtureApp(), "/fixture-widgets", fromOrigin()],
    ["its preflight", () => fixtureApp(), "/fixture-widgets", preflight("POST", "content-type")],
    ["a 404 problem", () => fixtureApp(), "/fixture-nothing", fromOrigin()],
  ])("%s: no Access-Control-* header and no Vary: Origin", async (_label, app, path, init) => {
    const res = await call(app(), path, init, env);
    expect(corsHeaders(res)).toEqual([]);
    expect(varies(res)).not.toContain("origin");
    expectPlatformHeaders(res);
  });
});

describe("preflight (Fetch Standard, CORS-preflight fetch)", () => {
  it("from an allowed origin, for a declared method and headers it reads: 204 with the grant", async () => {
    const res = await call(
      fixtureApp(),
      "/fixture-widgets",
      preflight("POST", "content-type,x-fixture-trace,x-request-id"),
      LISTED,
    );
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, OPTIONS");
    expect(listOf(res, "access-control-allow-headers")).toEqual(
      expect.arrayContaining(["content-type", "x-fixture-trace", "x-request-id", "accept"]),
    );
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    // The answer depends on all three; an OPTIONS answer is not cacheable (RFC 9110 §9.3.7).
    expect(res.headers.get("vary")).toBe(
      "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expectPlatformHeaders(res, "api", { cors: true });
  });

  it("takes its max age from the setting", async () => {
    const res = await call(
      emptyApp(),
      "/_service/health",
      preflight("GET"),
      setting({ origins: ORIGIN, maxAge: "30" }),
    );
    expect(res.headers.get("access-control-max-age")).toBe("30");
  });

  it.each([
    ["from an origin not listed", preflight("POST", "content-type", OTHER)],
    ["for a method the path does not declare", preflight("DELETE")],
    ["for a header no operation of the path reads", preflight("POST", "content-type,x-not-read")],
  ])("%s: the plain 204 with Allow, and no grant", async (_label, init) => {
    const res = await call(fixtureApp(), "/fixture-widgets", init, LISTED);
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expect(corsHeaders(res)).toEqual([]);
    expect(varies(res)).toContain("origin");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("is answered before credentials are asked for: a preflight carries none", async () => {
    const res = await call(
      securityApp(),
      "/fixture-secure/header",
      preflight("GET", "x-fixture-partner-key"),
      LISTED,
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("a plain OPTIONS (no Access-Control-Request-Method) is no preflight: Allow, and the actual-answer grant", async () => {
    const res = await call(
      fixtureApp(),
      "/fixture-widgets",
      fromOrigin(ORIGIN, { method: "OPTIONS" }),
      LISTED,
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toBeNull();
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });
});

describe("actual answers to an allowed origin", () => {
  it("a list without credentials: the origin itself, Vary: Origin, the headers a script may read", async () => {
    const res = await call(fixtureApp(), "/fixture-widgets", fromOrigin(), LISTED);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(listOf(res, "access-control-expose-headers")).toContain("x-request-id");
    expect(varies(res)).toContain("origin");
    expectPlatformHeaders(res, "api", { cors: true });
  });

  it("a list with credentials: the origin itself and Access-Control-Allow-Credentials, preflight too", async () => {
    const withCredentials = setting({ origins: ORIGIN, credentials: "true" });
    const actual = await call(fixtureApp(), "/fixture-widgets", fromOrigin(), withCredentials);
    expect(actual.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(actual.headers.get("access-control-allow-credentials")).toBe("true");
    const pre = await call(fixtureApp(), "/fixture-widgets", preflight("GET"), withCredentials);
    expect(pre.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(pre.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it('"*" without credentials: any origin, answered with *, never with credentials', async () => {
    const any = setting({ origins: "*" });
    for (const origin of [ORIGIN, OTHER, "null"]) {
      const res = await call(fixtureApp(), "/fixture-widgets", fromOrigin(origin), any);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(varies(res)).toContain("origin");
    }
    const pre = await call(emptyApp(), "/_service/health", preflight("GET", "", OTHER), any);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
  });

  it('"*" with credentials is refused, fail-closed: a log line, and no CORS header at all', async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const refused = setting({ origins: "*", credentials: "true", maxAge: "601" });
    const app = fixtureApp();
    for (const init of [fromOrigin(), preflight("GET")]) {
      const res = await call(app, "/fixture-widgets", init, refused);
      expect(corsHeaders(res)).toEqual([]);
      expect(varies(res)).not.toContain("origin");
    }
    // Parsed once per isolate while the setting holds: one log line for both requests.
    const lines = logged.mock.calls.map(([line]) => String(line));
    expect(lines.filter((line) => line.includes("CORS setting refused"))).toHaveLength(1);
    expect(lines.join("\n")).toContain("the Fetch Standard does not allow credentials");
  });

  it("without Origin, or from an origin not listed: Vary: Origin and no grant", async () => {
    for (const init of [{}, fromOrigin(OTHER)]) {
      const res = await call(fixtureApp(), "/fixture-widgets", init, LISTED);
      expect(res.status).toBe(200);
      expect(corsHeaders(res)).toEqual([]);
      expect(varies(res)).toEqual(["origin"]);
    }
  });

  it("Vary: Origin is added to what the answer already varies on", async () => {
    const res = await call(emptyApp(), "/_service/interface", fromOrigin(), LISTED);
    expect(varies(res)).toEqual(["accept", "origin"]);
  });
});

describe("problems carry the grant too", () => {
  it.each([
    ["part 4's 501 (the shortcut steps aside)", () => emptyApp(), "/fixture-orders", {}, 501],
    ["a 404", () => fixtureApp(), "/fixture-nothing", {}, 404],
    ["a 405", () => fixtureApp(), "/fixture-widgets", { method: "PUT" }, 405],
    [
      "a 422",
      () => fixtureApp(),
      "/fixture-widgets",
      { method: "POST", headers: { "content-type": "application/json" }, body: "[]" },
      422,
    ],
    ["a 401", () => securityApp(), "/fixture-secure/header", {}, 401],
  ])("%s", async (_label, app, path, init: RequestInit, status) => {
    const res = await call(app(), path, fromOrigin(ORIGIN, init), LISTED);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(listOf(res, "access-control-expose-headers")).toContain("x-request-id");
    expect(varies(res)).toContain("origin");
    await expectProblem(res, status, { cors: true });
  });

  it("a 500 from a handler that throws", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call(fixtureApp(), "/fixture-broken/zod-throw", fromOrigin(), LISTED);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    await expectProblem(res, 500, { cors: true });
  });
});

describe("what a path allows is derived from the contract", () => {
  const granted = async (app: App, path: string, method: string, headers?: string) => {
    const res = await call(app, path, preflight(method, headers), LISTED);
    return res.headers.get("access-control-allow-origin") === ORIGIN;
  };
  const exposedBy = async (app: App, path: string, init: RequestInit = {}) =>
    listOf(
      await call(app, path, fromOrigin(ORIGIN, init), LISTED),
      "access-control-expose-headers",
    );

  it("FIXTURE operations: the request header an operation declares; Location for a 201, Accept-Post for a POST", async () => {
    const app = fixtureApp();
    expect(await granted(app, "/fixture-widgets", "POST", "x-fixture-trace")).toBe(true);
    // Declared on another path only.
    expect(await granted(app, "/fixture-widgets/w1", "GET", "x-fixture-trace")).toBe(false);
    expect(await exposedBy(app, "/fixture-widgets")).toEqual(
      expect.arrayContaining(["x-request-id", "allow", "location", "accept-post"]),
    );
    expect(await exposedBy(app, "/fixture-widgets/w1")).toContain("accept-patch");
    expect(await exposedBy(app, "/fixture-widgets/w1")).not.toContain("location");
  });

  it("FIXTURE security: each scheme's header, WWW-Authenticate where credentials are required, Retry-After under a rate limit", async () => {
    const app = securityApp();
    expect(await granted(app, "/fixture-secure/header", "GET", "x-fixture-partner-key")).toBe(true);
    expect(await granted(app, "/fixture-secure/bearer", "GET", "authorization")).toBe(true);
    expect(await granted(app, "/fixture-secure/basic", "GET", "authorization")).toBe(true);
    // A scheme's header is read only where the operation names the scheme.
    expect(await granted(app, "/fixture-secure/bearer", "GET", "x-fixture-partner-key")).toBe(
      false,
    );
    // A cookie travels with credentials, never as a header a script sets.
    expect(await granted(app, "/fixture-secure/cookie", "GET", "cookie")).toBe(false);
    expect(await exposedBy(app, "/fixture-secure/header")).toContain("www-authenticate");
    expect(await exposedBy(app, "/fixture-public")).not.toContain("www-authenticate");
    expect(await exposedBy(app, "/fixture-secure/counted")).toContain("retry-after");
    expect(await exposedBy(app, "/fixture-secure/header")).not.toContain("retry-after");
  });

  it("a FIXTURE contract's declared request and response headers, whatever their case", async () => {
    const app = createApp(
      defineContract({
        operations: {
          fixtureReport: {
            summary: "FIXTURE: a report",
            method: "GET",
            path: "/fixture-reports",
            request: { headers: z.object({ "X-Fixture-Tenant": z.optional(z.string()) }) },
            responses: {
              200: {
                description: "A report",
                content: { "application/json": z.object({}) },
                headers: z.object({ "X-Fixture-Page-Count": z.string() }),
              },
            },
          },
        },
      }),
      { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema } as never,
    );
    expect(await granted(app, "/fixture-reports", "GET", "x-fixture-tenant")).toBe(true);
    expect(await exposedBy(app, "/fixture-reports")).toContain("x-fixture-page-count");
    expect(await exposedBy(app, "/fixture-reports")).not.toContain("location");
  });

  it("FIXTURE vocabulary: the response headers an operation declares, Retry-After where a JWT is verified", async () => {
    const app = vocabularyApp();
    const exposed = await exposedBy(app, "/fixture-pets", { method: "POST" });
    expect(exposed).toEqual(
      expect.arrayContaining(["location", "www-authenticate", "retry-after", "x-request-id"]),
    );
    expect(await granted(app, "/fixture-pets", "POST", "x-fixture-rotated-key,authorization")).toBe(
      true,
    );
  });

  it("FIXTURE versions: part 9's version header may be sent; Deprecation, Sunset and Link may be read", async () => {
    const app = createApp(fixtureVersionsContract({ in: "header", name: "Api-Version" }), {
      engine: BUILD_ENGINE,
      handlers: FIXTURE_VERSIONS_HANDLERS,
      jsonSchema: z.toJSONSchema,
    } as never);
    expect(await granted(app, "/fixture-things", "GET", "api-version")).toBe(true);
    expect(await exposedBy(app, "/fixture-things")).toEqual(
      expect.arrayContaining(["deprecation", "sunset", "link"]),
    );
  });

  it("the platform's documents: If-None-Match may be sent and ETag read; part 4's 501 exposes its request id only", async () => {
    const app = emptyApp();
    expect(await granted(app, "/_service/openapi.json", "GET", "if-none-match")).toBe(true);
    expect(await granted(app, "/_service/health", "GET", "if-none-match")).toBe(false);
    expect(await exposedBy(app, "/_service/openapi.json")).toContain("etag");
    expect(await exposedBy(app, "/fixture-orders")).toEqual(["x-request-id"]);
  });
});

describe("the status report says whether CORS is on, and for which origins", () => {
  const reportOf = async (bindings: Env) =>
    (await (
      await call(
        emptyApp(),
        "/_service/interface",
        { headers: { accept: "application/json" } },
        bindings,
      )
    ).json()) as StatusReport;

  it("off by default; on with the origins, credentials and max age; refused with the reason", async () => {
    expect((await reportOf(env)).cors).toEqual({ enabled: false, origins: [] });
    expect((await reportOf(LISTED)).cors).toEqual({
      enabled: true,
      origins: [ORIGIN, "https://admin.fixture.test"],
      credentials: false,
      maxAgeSeconds: 600,
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const refused = (await reportOf(setting({ origins: `${ORIGIN}/` }))).cors;
    expect(refused.enabled).toBe(false);
    expect(refused.refused).toContain(`is not written as an origin: ${ORIGIN}`);
  });

  it("the HTML page shows it", async () => {
    const page = await (
      await call(emptyApp(), "/_service/interface", { headers: { accept: "text/html" } }, LISTED)
    ).text();
    expect(page).toContain("Cross-origin requests (CORS)");
    expect(page).toContain(`<code>${ORIGIN}</code>`);
  });
});
