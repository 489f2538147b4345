/**
 * The conformance checker, run inside workerd: it passes against the shipped Worker and
 * the FIXTURE apps, and it catches each deliberately broken server (a missing header, a
 * leaked stack trace, a wrong status, a 501 without no-store, and more).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import {
  FIXTURE_ERROR_BODIES_CONTRACT,
  FIXTURE_ERROR_BODIES_HANDLERS,
} from "../../fixtures/error-bodies";
import { FIXTURE_OPERATIONS_CONTRACT } from "../../fixtures/operations";
import { FIXTURE_STYLES_CONTRACT, FIXTURE_STYLES_HANDLERS } from "../../fixtures/parameter-styles";
import {
  FIXTURE_SECURITY_CONTRACT,
  FIXTURE_UNBOUND_LIMITER,
  FIXTURE_UNSET_SECRET,
} from "../../fixtures/security";
import {
  FIXTURE_ACCESS_KEYS,
  FIXTURE_VERIFIED_CONTRACT,
  FIXTURE_VERIFIED_HANDLERS,
} from "../../fixtures/verified";
import {
  FIXTURE_VERSIONS_CONTRACT,
  FIXTURE_VERSIONS_HANDLERS,
  fixtureVersionsContract,
} from "../../fixtures/versions";
import { FIXTURE_VOCABULARY_CONTRACT } from "../../fixtures/vocabulary";
import { emptyApp, fixtureApp } from "../../support/fixture-app";
import { keySetOf, newIssuer } from "../../support/issuer";
import { securityApp } from "../../support/security-app";
import { callVocabulary } from "../../support/vocabulary-app";
import {
  type ConformanceReport,
  checkConformance,
  describeInstance,
  type Fetcher,
} from "./checker";
import { secretCredentials, signedCredentials } from "./credentials";

const BASE = "https://conformance.test";
const shipped: Fetcher = (request) => exports.default.fetch(request);

/** How many operations got a valid request whose answer was held to the document. */
const validProbes = (report: ConformanceReport) =>
  report.checks.filter((c) =>
    /: a valid request gets an answer the document documents \(\d+\)$/.test(c.name),
  ).length;

const failing = (report: ConformanceReport) =>
  report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);

describe("against correct servers", () => {
  it("the shipped Worker passes every check, whatever its contract declares (each operation's own probes: test/contract/index.operations.test.ts)", async () => {
    const report = await checkConformance(BASE, { fetch: shipped, probeOperations: false });
    expect(failing(report)).toEqual([]);
    expect(report.passed).toBeGreaterThanOrEqual(20);
  });

  it("a contract that declares nothing passes, with part 4's 501 probed for each method", async () => {
    const app = emptyApp();
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, env)),
    });
    expect(failing(report)).toEqual([]);
    const names = report.checks.map((c) => c.name).join("\n");
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
      expect(names).toContain(`${method} /`);
  });

  it.each([
    ["a list, with credentials", { origins: "https://app.fixture.test", credentials: "true" }],
    ["any origin", { origins: "*", credentials: "false" }],
  ])(
    "a deployment with CORS on (%s) passes, its grant probed as the report states it",
    async (_label, vars) => {
      const app = emptyApp();
      const bindings = { ...env, ...corsVars(vars) };
      const report = await checkConformance(BASE, {
        fetch: (r) => Promise.resolve(app.fetch(r, bindings)),
      });
      expect(failing(report)).toEqual([]);
      const names = report.checks.map((c) => c.name).join("\n");
      expect(names).toContain("GET /_service/health from ");
      expect(names).toContain(
        "a preflight of GET /_service/health with X-Request-Id: 204 with the grant",
      );
      expect(names).toContain("a 404 problem from an allowed origin: the CORS grant too");
    },
  );

  it("a deployment whose CORS setting is refused is held to CORS off", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const app = emptyApp();
    const bindings = { ...env, ...corsVars({ origins: "*", credentials: "true" }) };
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, bindings)),
    });
    vi.restoreAllMocks();
    expect(failing(report)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toContain(
      "GET /_service/health from another origin, CORS off: no CORS header",
    );
  });

  it("a FIXTURE app behind an AWS signature passes, each valid request signed per request by the run's access key", async () => {
    const keys = { [FIXTURE_ACCESS_KEYS]: `TESTONLYFIXTURE:${crypto.randomUUID()}` };
    const bindings = { ...env, ...keys };
    const app = createApp(FIXTURE_VERIFIED_CONTRACT, {
      engine: BUILD_ENGINE,
      jsonSchema: z.toJSONSchema,
      handlers: FIXTURE_VERIFIED_HANDLERS,
    });
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, bindings)),
      credentials: signedCredentials(FIXTURE_VERIFIED_CONTRACT, bindings),
    });
    expect(failing(report)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toContain(
      "PUT /fixture-signed/{id}: a valid request gets an answer the document documents (200)",
    );
    // What no run can present (a client certificate, a scheme only code verifies) is said so.
    expect(report.unprobed.map((u) => u.operation).sort()).toEqual([
      "GET /fixture-certified",
      "GET /fixture-hmac",
    ]);
  });

  it("a FIXTURE operations app passes, with its 404, 405, 415, 413, 400 and 422 probed, and a valid request to each operation", async () => {
    const app = fixtureApp();
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, env)),
    });
    // Its one handler that breaks its declaration on purpose is caught by the valid request.
    expect(failing(report)).toEqual([
      expect.stringMatching(
        /^GET \/fixture-broken\/\{kind\}: a valid request gets an answer the document documents \(500\): status 500$/,
      ),
    ]);
    expect(report.unprobed).toEqual([]);
    expect(validProbes(report)).toBe(Object.keys(FIXTURE_OPERATIONS_CONTRACT.operations).length);
    const names = report.checks.map((c) => c.name).join("\n");
    for (const status of ["404", "405", "415", "413", "400", "422"])
      expect(names).toContain(`: ${status}`);
    expect(names).not.toContain("501 interface-not-specified");
  });

  it("probes operation by operation from one description of the instance, read once, with each operation's checks of a run that reads it itself", async () => {
    const app = fixtureApp();
    const fetch = (r: Request) => Promise.resolve(app.fetch(r, env));
    const described = await describeInstance(BASE, fetch);
    expect(described?.report.parts).toHaveLength(9);
    for (const id of Object.keys(FIXTURE_OPERATIONS_CONTRACT.operations)) {
      const reused = await checkConformance(BASE, { fetch, operations: [id], described });
      const own = await checkConformance(BASE, { fetch, operations: [id] });
      const names = (report: ConformanceReport) => report.checks.map((c) => `${c.name} ${c.ok}`);
      // The same checks of the operation, in order; what is not repeated is the reading of
      // the two documents and their agreement, which come first in a run of its own.
      const ownNames = names(own);
      expect(validProbes(reused)).toBe(1);
      expect(names(reused)).toEqual(ownNames.slice(ownNames.length - reused.checks.length));
      expect(ownNames.slice(0, ownNames.length - reused.checks.length)).toContain(
        "GET /_service/openapi.json: 200 OpenAPI document true",
      );
    }
  });

  it("a FIXTURE app with a parameter of every OpenAPI style and explode, in each location, gets a documented answer to each valid request the checker serialises (OpenAPI 3.1 §4.8.12.4)", async () => {
    const app = createApp(FIXTURE_STYLES_CONTRACT, {
      engine: BUILD_ENGINE,
      handlers: FIXTURE_STYLES_HANDLERS,
      jsonSchema: z.toJSONSchema,
    });
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, env)),
    });
    expect(failing(report)).toEqual([]);
    expect(report.unprobed).toEqual([]);
    // Each answer a 200, so each request was read as the checker wrote it.
    const answered = report.checks.filter((c) => c.name.includes(": a valid request gets"));
    expect(answered.map((c) => c.name.replace(/.*\(/, "("))).toEqual(
      Object.keys(FIXTURE_STYLES_CONTRACT.operations).map(() => "(200)"),
    );
  });

  it("a FIXTURE vocabulary app passes, its platform failures probed as the error types that present them", async () => {
    // Its JWT schemes trust a key set given inline: the test runtime's FIXTURE URL names a
    // host that does not exist, and a key set that cannot be fetched is a 503, never the
    // 401 the checker expects of a wrong token.
    const keySet = { FIXTURE_JWKS_URL: keySetOf(await newIssuer("fixture-conformance")) };
    const report = await checkConformance(BASE, {
      fetch: (r) => callVocabulary(new URL(r.url).pathname + new URL(r.url).search, r, keySet),
      credentials: secretCredentials(
        FIXTURE_VOCABULARY_CONTRACT,
        env as unknown as Record<string, unknown>,
      ),
    });
    // A write-only member (a card's security code) is not required in the answer's view
    // (FixturePayment-Output), so a validating client accepts the 201.
    expect(failing(report)).toEqual([]);
    const names = report.checks.map((c) => c.name);
    // Malformed JSON and invalid input are the spec's own 400 type, not the platform's 400 and 422.
    expect(names).toContain("POST /fixture-payments with malformed JSON: 400 problem");
    expect(names).toContain(
      "POST /fixture-payments with a JSON array where an object is declared: 400 problem",
    );
    expect(names.some((n) => n.includes(": 422 problem"))).toBe(false);
  });

  it("a FIXTURE app with a literal path beside a template that declares more methods passes: the literal path answers its own methods only, the others 405 (OpenAPI 3.1 §4.8.8)", async () => {
    const thing = { description: "FIXTURE thing", content: { "application/json": z.string() } };
    const params = z.object({ id: z.string() });
    const contract = defineContract({
      operations: {
        // FIXTURE: a literal path with POST alone, as Airflow's POST /connections/test.
        fixtureSearch: {
          method: "POST",
          path: "/fixture-things/search",
          responses: { 200: thing },
        },
        fixtureThing: {
          method: "GET",
          path: "/fixture-things/{id}",
          request: { params },
          responses: { 200: thing },
        },
        fixtureDrop: {
          method: "DELETE",
          path: "/fixture-things/{id}",
          request: { params },
          responses: { 200: thing },
        },
      },
    });
    const app = createApp(contract, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema });
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, env)),
    });
    expect(failing(report)).toEqual([]);
    const names = report.checks.map((c) => c.name);
    // A concrete path is matched before its templated sibling: GET there is its own 405.
    expect(names).toContain("GET /fixture-things/search: 405 problem with Allow");
  });

  it("a FIXTURE app with error bodies of its own passes: each failure expected as its operation answers it", async () => {
    const app = createApp(FIXTURE_ERROR_BODIES_CONTRACT, {
      engine: BUILD_ENGINE,
      jsonSchema: z.toJSONSchema,
      handlers: FIXTURE_ERROR_BODIES_HANDLERS,
    });
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, env)),
    });
    expect(failing(report)).toEqual([]);
    const names = report.checks.map((c) => c.name);
    expect(names).toContain("POST /fixture-own with malformed JSON: 400 problem");
    expect(names).toContain("POST /fixture-platform with malformed JSON: 400 problem");
    expect(names.some((n) => n.startsWith("POST /fixture-own") && n.includes(": 422"))).toBe(false);
  });

  it("a FIXTURE versions app passes, each placement, with its 410, deprecation headers and 400 probed from the documents", async () => {
    for (const placement of [
      { in: "header", name: "Api-Version" },
      { in: "query", name: "api-version" },
      { in: "media-type", parameter: "version" },
      { in: "path" },
    ] as const) {
      const app = createApp(fixtureVersionsContract(placement), {
        engine: BUILD_ENGINE,
        handlers: FIXTURE_VERSIONS_HANDLERS,
        jsonSchema: z.toJSONSchema,
      } as never);
      const report = await checkConformance(BASE, {
        fetch: (r) => Promise.resolve(app.fetch(r, env)),
      });
      expect(failing(report), placement.in).toEqual([]);
      const names = report.checks.map((c) => c.name).join("\n");
      expect(names).toContain("version v0, past its sunset: 410 problem");
      expect(names).toContain("as version v1: Deprecation and Sunset headers");
      expect(names).toContain("as version v2: no Deprecation header");
      expect(names).toContain("a version the report does not list: 400 problem");
      expect(names).toContain(
        "deprecated on its own: Deprecation and Sunset headers as documented",
      );
      expect(names).toContain("deprecated on its own, past its sunset: 410 problem");
    }
  });

  it("a FIXTURE versions app that sends no Deprecation header is caught", async () => {
    const app = createApp(FIXTURE_VERSIONS_CONTRACT, {
      engine: BUILD_ENGINE,
      handlers: FIXTURE_VERSIONS_HANDLERS,
      jsonSchema: z.toJSONSchema,
    });
    const report = await checkConformance(BASE, {
      fetch: async (r) => {
        const response = await app.fetch(r, env);
        const stripped = new Response(response.body, response);
        stripped.headers.delete("deprecation");
        return stripped;
      },
    });
    const failed = failing(report).join("\n");
    expect(failed).toContain("header deprecation is null");
    expect(failed).toContain("GET /fixture-retiring, deprecated on its own");
  });

  it("a FIXTURE security app passes, with 401 + WWW-Authenticate probed, a valid request with each credential, and rate-limited operations probed within half their budget", async () => {
    const app = securityApp();
    // The fixture leaves one secret and one binding unset on purpose; a deployment that
    // sets them passes.
    const deployed = {
      ...env,
      [FIXTURE_UNSET_SECRET]: "fixture-now-set",
      [FIXTURE_UNBOUND_LIMITER]: { limit: async () => ({ success: true }) },
    };
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, deployed)),
      credentials: secretCredentials(FIXTURE_SECURITY_CONTRACT, deployed),
    });
    expect(failing(report)).toEqual([]);
    // Every operation got a valid request; under a rate limit, probes stop at half its budget.
    expect(report.unprobed.map((u) => u.operation)).toContain("GET /fixture-secure/counted");
    for (const { reason } of report.unprobed) expect(reason).toContain("rate limit");
    expect(validProbes(report)).toBe(Object.keys(FIXTURE_SECURITY_CONTRACT.operations).length);
    const names = report.checks.map((c) => c.name);
    expect(names).toContain(
      "POST /fixture-uploads without credentials: 401 problem with WWW-Authenticate (RFC 9110 §11.6.1)",
    );
  });
});

describe("text the contract itself holds is not a leak", () => {
  // FIXTURE: a purpose whose description links to a repository's source, as real
  // documents' descriptions do; the status report and the document both carry it.
  const app = createApp(
    defineContract({
      purpose: {
        title: "FIXTURE linked source",
        description:
          "FIXTURE: see https://github.com/fixture-org/fixture-api/blob/main/src/routes.ts:12 for how it began.",
      },
    }),
  );
  const served: Fetcher = (r) => Promise.resolve(app.fetch(r, env));

  it("passes, though its description names a /src/ path and a .ts line", async () => {
    const report = await checkConformance(BASE, { fetch: served });
    expect(failing(report)).toEqual([]);
  });

  it("passes a page that shows such text escaped for HTML (Bitbucket's apostrophe, then a line beginning `  at`)", async () => {
    const escaped = createApp(
      defineContract({
        purpose: {
          title: "FIXTURE escaped text",
          description:
            "FIXTURE: the teams of the caller's role, a member of\n  at least one group.",
        },
      }),
    );
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(escaped.fetch(r, env)),
    });
    expect(report.checks.some((c) => c.name.startsWith("GET /_service/reference"))).toBe(true);
    expect(failing(report)).toEqual([]);
  });

  it("still fails an answer that adds a stack frame of its own beside that text", async () => {
    const report = await checkConformance(BASE, {
      fetch: async (request) => {
        const response = await served(request);
        if (!new URL(request.url).pathname.endsWith("/interface")) return response;
        return rebuild(response, {
          body: (t) => t.replace("{", '{"trace":"    at handler (/srv/app/src/index.ts:9:1)",'),
        });
      },
    });
    expect(failing(report).join("\n")).toContain(
      "GET /_service/interface: 200 JSON status report: the body shows a stack trace or a source path",
    );
  });
});

/**
 * A server that answers like the app of a contract that declares nothing (part 4's 501
 * everywhere), except where `mutate` changes the answer; `bindings` replace the runtime's.
 */
function broken(
  mutate: (request: Request, response: Response) => Promise<Response> | Response,
  bindings: Partial<Env> = {},
): Fetcher {
  const app = emptyApp();
  return async (request) =>
    mutate(request, await app.fetch(request.clone(), { ...env, ...bindings }));
}

/** The CORS vars of a deployment (src/platform/cors.ts). */
function corsVars(vars: { origins: string; credentials: string }): Partial<Env> {
  return {
    CORS_ALLOWED_ORIGINS: vars.origins,
    CORS_ALLOW_CREDENTIALS: vars.credentials,
    CORS_MAX_AGE: "600",
  };
}

const LISTED = corsVars({ origins: "https://app.fixture.test", credentials: "false" });

async function rebuild(
  response: Response,
  change: { status?: number; headers?: (h: Headers) => void; body?: (text: string) => string },
): Promise<Response> {
  const headers = new Headers(response.headers);
  change.headers?.(headers);
  const text = await response.text();
  const body = change.body ? change.body(text) : text;
  return new Response(body === "" ? null : body, {
    status: change.status ?? response.status,
    headers,
  });
}

const isNotSpecified = (request: Request) => !new URL(request.url).pathname.startsWith("/_service");

describe("against deliberately broken servers, it fails with the reason", () => {
  it.each([
    [
      "a missing security header",
      broken((_q, r) => rebuild(r, { headers: (h) => h.delete("x-content-type-options") })),
      "header x-content-type-options is null",
    ],
    [
      "an answer without Cross-Origin-Embedder-Policy (OWASP Secure Headers)",
      broken((_q, r) => rebuild(r, { headers: (h) => h.delete("cross-origin-embedder-policy") })),
      "header cross-origin-embedder-policy is null",
    ],
    [
      "a Permissions-Policy that grants a feature",
      broken((_q, r) =>
        rebuild(r, {
          headers: (h) =>
            h.set("permissions-policy", `${h.get("permissions-policy")}, camera=(self)`),
        }),
      ),
      "header permissions-policy is",
    ],
    [
      "a Permissions-Policy that leaves a listed feature out",
      broken((_q, r) =>
        rebuild(r, {
          headers: (h) =>
            h.set(
              "permissions-policy",
              (h.get("permissions-policy") ?? "").replace("usb=(), ", ""),
            ),
        }),
      ),
      "header permissions-policy is",
    ],
    [
      "an OPTIONS answer a cache may store (RFC 9110 §9.3.7)",
      broken((q, r) =>
        q.method === "OPTIONS" && !isNotSpecified(q)
          ? rebuild(r, { headers: (h) => h.delete("cache-control") })
          : r,
      ),
      "OPTIONS /_service/health: 204 with Allow, not stored (RFC 9110 §9.3.7): header cache-control is null",
    ],
    [
      "a leaked stack trace",
      broken((q, r) =>
        isNotSpecified(q) && q.method !== "HEAD"
          ? rebuild(r, {
              body: (t) =>
                JSON.stringify({
                  ...JSON.parse(t),
                  detail: "Error: boom\n    at route (src/app.ts:12:3)",
                }),
            })
          : r,
      ),
      "stack trace",
    ],
    [
      "a wrong status",
      broken((q, r) => (isNotSpecified(q) ? rebuild(r, { status: 500 }) : r)),
      "status 500, expected 501",
    ],
    [
      "a 501 without no-store",
      broken((q, r) =>
        isNotSpecified(q) ? rebuild(r, { headers: (h) => h.delete("cache-control") }) : r,
      ),
      "not no-store",
    ],
    [
      "an echoed request",
      broken((q, r) =>
        isNotSpecified(q) && q.method !== "HEAD"
          ? rebuild(r, { body: (t) => JSON.stringify({ ...JSON.parse(t), instance: q.url }) })
          : r,
      ),
      "echoes the request",
    ],
    [
      "a body on a HEAD answer",
      broken((q, r) => (q.method === "HEAD" ? rebuild(r, { body: () => "{}" }) : r)),
      "a HEAD answer has a body",
    ],
    [
      "a 405 without Allow",
      broken((_q, r) => (r.status === 405 ? rebuild(r, { headers: (h) => h.delete("allow") }) : r)),
      "Allow lacks GET",
    ],
    [
      "a problem whose status member disagrees",
      broken((q, r) =>
        isNotSpecified(q) && q.method !== "HEAD"
          ? rebuild(r, { body: (t) => JSON.stringify({ ...JSON.parse(t), status: "501" }) })
          : r,
      ),
      "differs from the HTTP status",
    ],
    [
      "a problem without the request id",
      broken((_q, r) =>
        r.status === 404
          ? rebuild(r, { body: (t) => JSON.stringify({ ...JSON.parse(t), requestId: undefined }) })
          : r,
      ),
      "requestId differs",
    ],
    [
      "an error answered as text/plain",
      broken((q, r) =>
        isNotSpecified(q) ? rebuild(r, { headers: (h) => h.set("content-type", "text/plain") }) : r,
      ),
      "not application/problem+json",
    ],
    [
      "an OpenAPI document that disagrees with the status report",
      broken((q, r) =>
        q.url.endsWith("/openapi.json")
          ? rebuild(r, {
              body: (t) => {
                const doc = JSON.parse(t);
                doc.paths["/fixture-ghost"] = { get: { responses: {} } };
                return JSON.stringify(doc);
              },
            })
          : r,
      ),
      "part 4 (endpoints): report 0, OpenAPI 1",
    ],
    [
      "CORS on, as the report says, but no answer grants the allowed origin",
      broken(
        (_q, r) => rebuild(r, { headers: (h) => h.delete("access-control-allow-origin") }),
        LISTED,
      ),
      'header access-control-allow-origin is null, not "https://app.fixture.test"',
    ],
    [
      "CORS on, granting an origin the setting does not list",
      broken(
        (q, r) =>
          rebuild(r, {
            headers: (h) => h.set("access-control-allow-origin", q.headers.get("origin") ?? ""),
          }),
        LISTED,
      ),
      "which the setting does not allow",
    ],
    [
      "CORS on without Vary: Origin (Fetch Standard, CORS protocol and HTTP caches)",
      broken((_q, r) => rebuild(r, { headers: (h) => h.delete("vary") }), LISTED),
      "Vary lacks Origin while CORS is on",
    ],
    [
      "a preflight granted for longer than the report says",
      broken(
        (_q, r) =>
          r.headers.has("access-control-max-age")
            ? rebuild(r, { headers: (h) => h.set("access-control-max-age", "86400") })
            : r,
        LISTED,
      ),
      'header access-control-max-age is "86400", not "600"',
    ],
    [
      "a CORS header that grants cross-origin use",
      broken((_q, r) => rebuild(r, { headers: (h) => h.set("access-control-allow-origin", "*") })),
      "CORS header access-control-allow-origin",
    ],
  ])("%s", async (_label, server, reason) => {
    const report = await checkConformance(BASE, { fetch: server });
    expect(report.failed).toBeGreaterThan(0);
    expect(failing(report).join("\n")).toContain(reason);
  });

  it("a deployment that lacks a secret the contract names (its way in answers 500 when tried)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const app = securityApp();
    const report = await checkConformance(BASE, {
      fetch: (r) => Promise.resolve(app.fetch(r, env)),
    });
    vi.restoreAllMocks();
    // Both ways a deployment can miss what part 5 and part 8 name are seen from outside.
    expect(failing(report)).toEqual([
      expect.stringContaining(
        "GET /fixture-secure/misconfigured with a wrong credential of fixtureUnset",
      ),
      expect.stringContaining(
        "GET /fixture-unbound: a valid request gets an answer the document documents (500)",
      ),
    ]);
  });

  it("an unreachable server fails every probe instead of throwing", async () => {
    const report = await checkConformance(BASE, {
      fetch: () => Promise.reject(new TypeError("connection refused")),
    });
    expect(report.passed).toBe(0);
    expect(failing(report).join("\n")).toContain("connection refused");
  });
});
