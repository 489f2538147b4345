/**
 * Part 5 enforced, with the FIXTURE security contract and FIXTURE secrets: each scheme
 * accepted and refused, OR and AND of schemes, the 401 answer (RFC 9110 §11.6.1), fail-closed
 * on a missing secret, and credentials kept out of handlers, answers and logs.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toJSONSchema } from "zod";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../src/contract-language/define-handlers";
import {
  FIXTURE_SECRETS,
  FIXTURE_SECURITY_CONTRACT,
  FIXTURE_UNSET_SECRET,
} from "../../fixtures/security";
import { FIXTURE_ROTATED_SECRETS } from "../../fixtures/vocabulary";
import { expectProblem } from "../../support/assertions";
import { basic, callSecured, securityApp, withoutRequestId } from "../../support/security-app";
import { callVocabulary, withKey } from "../../support/vocabulary-app";

const S = FIXTURE_SECRETS;

afterEach(() => vi.restoreAllMocks());

/** One way to present each scheme's credential, right or wrong. */
const SCHEMES = {
  header: {
    path: "/fixture-secure/header",
    right: { headers: { "x-fixture-partner-key": S.FIXTURE_PARTNER_KEY } },
    wrong: { headers: { "x-fixture-partner-key": `${S.FIXTURE_PARTNER_KEY}x` } },
    challenge: 'ApiKey in="header", name="X-Fixture-Partner-Key"',
  },
  query: {
    path: `/fixture-secure/query?fixture_key=${S.FIXTURE_QUERY_KEY}`,
    right: {},
    wrong: undefined,
    challenge: 'ApiKey in="query", name="fixture_key"',
  },
  cookie: {
    path: "/fixture-secure/cookie",
    right: { headers: { cookie: `other=1; fixture_session=${S.FIXTURE_COOKIE_KEY}` } },
    wrong: { headers: { cookie: "fixture_session=fixture-cookie-key" } },
    challenge: 'ApiKey in="cookie", name="fixture_session"',
  },
  bearer: {
    path: "/fixture-secure/bearer",
    right: { headers: { authorization: `Bearer ${S.FIXTURE_BEARER_TOKEN}` } },
    wrong: { headers: { authorization: "Bearer fixture.bearer.toke" } },
    challenge: "Bearer",
  },
  basic: {
    path: "/fixture-secure/basic",
    right: { headers: { authorization: basic(S.FIXTURE_BASIC_CREDENTIALS) } },
    wrong: { headers: { authorization: basic("fixture-user:fixture pass") } },
    challenge: 'Basic realm="fixture realm", charset="UTF-8"',
  },
} as const;

describe("each security scheme", () => {
  for (const [name, scheme] of Object.entries(SCHEMES)) {
    it(`${name}: the right credential is accepted`, async () => {
      const res = await callSecured(scheme.path, scheme.right);
      expect(res.status).toBe(200);
    });

    it(`${name}: no credential is 401 with its challenge in WWW-Authenticate (RFC 9110 §11.6.1)`, async () => {
      const res = await callSecured(scheme.path.split("?")[0] ?? "");
      const body = await expectProblem(res, 401);
      expect(body.type).toBe("/_service/problems/authentication-required");
      expect(res.headers.get("www-authenticate")).toBe(scheme.challenge);
    });
  }

  it("query: a wrong key, or the key twice, is refused", async () => {
    for (const query of [
      "fixture_key=fixture-query-ke",
      `fixture_key=${S.FIXTURE_QUERY_KEY}&fixture_key=${S.FIXTURE_QUERY_KEY}`,
    ]) {
      await expectProblem(await callSecured(`/fixture-secure/query?${query}`), 401);
    }
  });

  for (const [name, scheme] of Object.entries(SCHEMES)) {
    if (!scheme.wrong) continue;
    it(`${name}: a wrong credential is refused`, async () => {
      await expectProblem(await callSecured(scheme.path, scheme.wrong), 401);
    });
  }

  it("an auth-scheme name matches case-insensitively (RFC 9110 §11.1)", async () => {
    const res = await callSecured("/fixture-secure/bearer", {
      headers: { authorization: `bEaReR ${S.FIXTURE_BEARER_TOKEN}` },
    });
    expect(res.status).toBe(200);
  });

  it("a credential of one scheme does not pass for another scheme's secret", async () => {
    const res = await callSecured("/fixture-secure/bearer", {
      headers: { authorization: `Bearer ${S.FIXTURE_PARTNER_KEY}` },
    });
    await expectProblem(res, 401);
  });

  it("malformed Authorization values are refused like missing ones", async () => {
    const values = [
      "Bearer",
      "Bearer ",
      `Bearer  ${S.FIXTURE_BEARER_TOKEN} extra`,
      `Token ${S.FIXTURE_BEARER_TOKEN}`,
      "Basic !!!not-base64!!!",
      "Basic",
      `Bearer ${"a".repeat(16_384)}`,
    ];
    for (const authorization of values) {
      await expectProblem(
        await callSecured("/fixture-secure/either", { headers: { authorization } }),
        401,
      );
    }
  });
});

describe("missing and wrong credentials get the same answer", () => {
  it("byte-identical status, headers and body apart from the request id", async () => {
    const answers = await Promise.all([
      callSecured("/fixture-secure/bearer"),
      callSecured("/fixture-secure/bearer", SCHEMES.bearer.wrong),
      callSecured("/fixture-secure/bearer", { headers: { authorization: "Bearer x" } }),
      callSecured("/fixture-secure/bearer", {
        headers: { authorization: `Bearer ${S.FIXTURE_BEARER_TOKEN}${"z".repeat(500)}` },
      }),
    ]);
    const shapes = await Promise.all(
      answers.map(async (res) => {
        const headers = [...res.headers].filter(([name]) => name !== "x-request-id");
        return JSON.stringify({ status: res.status, headers, body: await withoutRequestId(res) });
      }),
    );
    expect(answers[0]?.status).toBe(401);
    expect(new Set(shapes).size).toBe(1);
  });
});

describe("OR and AND of schemes (OpenAPI security requirements)", () => {
  it("either alternative of an OR suffices", async () => {
    expect((await callSecured("/fixture-secure/either", SCHEMES.bearer.right)).status).toBe(200);
    expect((await callSecured("/fixture-secure/either", SCHEMES.basic.right)).status).toBe(200);
  });

  it("the 401 of an OR challenges with every scheme it accepts", async () => {
    const res = await callSecured("/fixture-secure/either");
    const body = await expectProblem(res, 401);
    expect(res.headers.get("www-authenticate")).toBe(
      `${SCHEMES.bearer.challenge}, ${SCHEMES.basic.challenge}`,
    );
    expect(body.security).toEqual([{ fixtureToken: [] }, { fixtureBasic: [] }]);
  });

  it("an AND needs every scheme: one of the two is not enough", async () => {
    const both = {
      headers: {
        "x-fixture-partner-key": S.FIXTURE_PARTNER_KEY,
        authorization: `Bearer ${S.FIXTURE_BEARER_TOKEN}`,
      },
    };
    expect((await callSecured("/fixture-secure/both", both)).status).toBe(200);
    await expectProblem(await callSecured("/fixture-secure/both", SCHEMES.header.right), 401);
    await expectProblem(await callSecured("/fixture-secure/both", SCHEMES.bearer.right), 401);
  });

  it("an operation declared with security: [] needs no credential", async () => {
    expect((await callSecured("/fixture-public")).status).toBe(200);
  });
});

describe("optional credentials: an empty requirement (OpenAPI 3.1 §4.8.30)", () => {
  const { fixturePartnerKey } = FIXTURE_SECURITY_CONTRACT.securitySchemes;
  const contract = defineContract({
    securitySchemes: { fixturePartnerKey },
    operations: {
      fixtureOptional: {
        method: "GET",
        path: "/fixture-optional",
        security: [{ fixturePartnerKey: [] }, {}],
        responses: { 200: { description: "FIXTURE: who was let in" } },
      },
    },
  });
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: toJSONSchema,
    handlers: defineHandlers(contract, {
      fixtureOptional: (_input, { auth }) => ({
        status: 200,
        headers: { "x-fixture-schemes": auth.schemes.join(",") || "none" },
      }),
    }),
  });
  const schemesSeen = async (init?: RequestInit) => {
    const res = await app.request("https://fixture.test/fixture-optional", init, env);
    return res.status === 200 ? res.headers.get("x-fixture-schemes") : res.status;
  };

  it("lets a request without credentials in as no one, and one with the right key in as its holder", async () => {
    expect(await schemesSeen()).toBe("none");
    expect(await schemesSeen(SCHEMES.header.right)).toBe("fixturePartnerKey");
  });

  it("refuses a wrong credential rather than letting it in as no one (RFC 6750 §3.1)", async () => {
    expect(await schemesSeen(SCHEMES.header.wrong)).toBe(401);
  });
});

describe("an API key in the Authorization header: the header's whole value", () => {
  const key = `Bearer ${crypto.randomUUID()}`;
  const contract = defineContract({
    securitySchemes: {
      fixtureAuthorizationKey: {
        type: "apiKey",
        in: "header",
        name: "Authorization",
        secret: "FIXTURE_AUTHORIZATION_KEY",
      },
    },
    operations: {
      fixtureKeyed: {
        method: "GET",
        path: "/fixture-keyed",
        security: [{ fixtureAuthorizationKey: [] }],
        responses: { 204: { description: "FIXTURE: let in" } },
      },
    },
  });
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: toJSONSchema,
    handlers: defineHandlers(contract, { fixtureKeyed: () => ({ status: 204 }) }),
  });
  const call = (authorization?: string) =>
    app.request(
      "https://fixture.test/fixture-keyed",
      authorization === undefined ? {} : { headers: { authorization } },
      { FIXTURE_AUTHORIZATION_KEY: key },
    );

  it("lets in exactly the value its secret holds, and challenges anything else (RFC 9110 §11.6.1)", async () => {
    expect((await call(key)).status).toBe(204);
    for (const wrong of [undefined, `${key}x`, key.replace("Bearer", "bearer")]) {
      const res = await call(wrong);
      await expectProblem(res, 401);
      expect(res.headers.get("www-authenticate")).toBe('ApiKey in="header", name="Authorization"');
    }
  });
});

describe("one requirement naming two schemes that both read Authorization's Bearer: one credential both accept (RFC 9110 §11.6.2)", () => {
  const contract = defineContract({
    securitySchemes: {
      fixtureFirst: { type: "http", scheme: "bearer", secret: "FIXTURE_FIRST_TOKEN" },
      fixtureSecond: { type: "http", scheme: "bearer", secret: "FIXTURE_SECOND_TOKEN" },
    },
    operations: {
      fixtureBoth: {
        method: "GET",
        path: "/fixture-both",
        security: [{ fixtureFirst: [], fixtureSecond: [] }],
        responses: { 204: { description: "FIXTURE: let in" } },
      },
    },
  });
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: toJSONSchema,
    handlers: defineHandlers(contract, { fixtureBoth: () => ({ status: 204 }) }),
  });
  const shared = crypto.randomUUID();
  const other = crypto.randomUUID();
  const call = (token: string, secrets: Record<string, string>) =>
    app.request(
      "https://fixture.test/fixture-both",
      { headers: { authorization: `Bearer ${token}` } },
      secrets,
    );

  it("lets in a token each scheme accepts, and refuses one that only one of them accepts", async () => {
    const same = { FIXTURE_FIRST_TOKEN: shared, FIXTURE_SECOND_TOKEN: shared };
    expect((await call(shared, same)).status).toBe(204);
    const apart = { FIXTURE_FIRST_TOKEN: shared, FIXTURE_SECOND_TOKEN: other };
    await expectProblem(await call(shared, apart), 401);
    await expectProblem(await call(other, apart), 401);
  });
});

describe("credentials never reach handlers, answers or logs", () => {
  it("the credential's header, query parameter and cookie are kept from the schemas", async () => {
    const cases = [
      [SCHEMES.header.path, SCHEMES.header.right, "x-fixture-partner-key"],
      [SCHEMES.query.path, SCHEMES.query.right, "fixture_key"],
      [SCHEMES.cookie.path, SCHEMES.cookie.right, "fixture_session"],
      [SCHEMES.bearer.path, SCHEMES.bearer.right, "authorization"],
    ] as const;
    for (const [path, init, field] of cases) {
      const headers = {
        ...(init as { headers?: Record<string, string> }).headers,
        "x-fixture-other": "1",
      };
      const res = await callSecured(`${path}${path.includes("?") ? "&" : "?"}other=1`, { headers });
      const { seen } = (await res.json()) as { seen: string[] };
      expect(res.status).toBe(200);
      expect(seen).not.toContain(field);
      expect(seen).toEqual(expect.arrayContaining(["other", "x-fixture-other"]));
    }
  });

  it("no secret value appears in any answer or log line", async () => {
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    }
    const bodies: string[] = [];
    const requests: [string, RequestInit?][] = [
      ...Object.values(SCHEMES).flatMap(
        (s) =>
          [
            [s.path, s.right],
            [s.path, s.wrong],
          ] as [string, RequestInit?][],
      ),
      ["/fixture-secure/misconfigured", SCHEMES.bearer.right],
      ["/fixture-uploads", { ...SCHEMES.bearer.right, method: "POST", body: "{" }],
    ];
    for (const [path, init] of requests) {
      const res = await callSecured(path, init);
      bodies.push(`${[...res.headers].join("\n")}\n${await res.text()}`);
    }
    expect(lines.length).toBeGreaterThan(0); // the misconfigured operation logged
    const secrets = [...Object.values(S), btoa(S.FIXTURE_BASIC_CREDENTIALS)];
    for (const text of [...bodies, ...lines]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});

describe("a secret the contract names but the deployment lacks closes only its own way in (OpenAPI 3.1 §4.8.30)", () => {
  const unset = { headers: { "x-fixture-unset": "fixture-unset-attempt" } };

  it("lets in a request another, configured alternative admits, and logs the missing secret once", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const app = securityApp();
    const call = (init: RequestInit) =>
      app.request("https://fixture.test/fixture-secure/misconfigured", init, env);
    expect((await call(SCHEMES.bearer.right)).status).toBe(200);
    expect((await call(SCHEMES.bearer.right)).status).toBe(200);
    expect(logged).toHaveBeenCalledOnce();
    const line = JSON.parse(String(logged.mock.calls[0]?.[0])) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: "error",
      operationId: "fixtureMisconfigured",
      scheme: "fixtureUnset",
      secret: FIXTURE_UNSET_SECRET,
    });
  });

  it("answers 401 to a request that tries no closed way: missing or wrong configured credentials", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await callSecured("/fixture-secure/misconfigured");
    await expectProblem(res, 401);
    await expectProblem(
      await callSecured("/fixture-secure/misconfigured", SCHEMES.bearer.wrong),
      401,
    );
  });

  it("answers 500 to a request that presents the closed way's credential and nothing configured admits, and logs the refusal", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await callSecured("/fixture-secure/misconfigured", unset);
    const body = await expectProblem(res, 500);
    expect(body.type).toBe("about:blank");
    expect(res.headers.get("www-authenticate")).toBeNull();
    const lines = logged.mock.calls.map((call) => JSON.parse(String(call[0])));
    expect(lines).toContainEqual(
      expect.objectContaining({
        operationId: "fixtureMisconfigured",
        closed: { fixtureUnset: { secret: FIXTURE_UNSET_SECRET } },
        requestId: body.requestId,
      }),
    );
    expect(JSON.stringify(lines)).not.toContain("fixture-unset-attempt");
  });

  it("an empty secret counts as missing, so an empty credential can never pass", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const bindings = { ...env, FIXTURE_PARTNER_KEY: "" };
    const key = (value: string) => ({ headers: { "x-fixture-partner-key": value } });
    await expectProblem(await callSecured("/fixture-secure/header", key(""), bindings), 401);
    await expectProblem(await callSecured("/fixture-secure/header", key("x"), bindings), 500);
  });
});

describe("authentication runs before the body is read", () => {
  it("a request without credentials is 401 whatever its body: malformed, oversized or of another type", async () => {
    const bodies: RequestInit[] = [
      { method: "POST", headers: { "content-type": "application/json" }, body: "{" },
      { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(10_000) },
      { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" },
    ];
    for (const init of bodies)
      await expectProblem(await callSecured("/fixture-uploads", init), 401);
  });

  it("the body is left unread when the credentials are refused", async () => {
    const request = new Request("https://fixture.test/fixture-uploads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ note: "fixture" }),
    });
    await expectProblem(await securityApp().request(request, undefined, env), 401);
    expect(request.bodyUsed).toBe(false);
  });
});

describe("a secret-compared scheme with several secrets (rotation without downtime)", () => {
  const { FIXTURE_ROTATED_KEY: CURRENT, FIXTURE_ROTATED_KEY_NEXT: NEXT } = FIXTURE_ROTATED_SECRETS;
  const remove = (key: string) =>
    callVocabulary("/fixture-pets/p1", withKey(key, { method: "DELETE" }));

  it("accepts each configured secret, and nothing else", async () => {
    expect((await remove(CURRENT)).status).toBe(204);
    expect((await remove(NEXT)).status).toBe(204);
    await expectProblem(await remove(`${CURRENT}x`), 401);
  });

  it("still works while only one of the secrets is set (before and after a rotation)", async () => {
    const res = await callVocabulary("/fixture-pets/p1", withKey(CURRENT, { method: "DELETE" }), {
      FIXTURE_ROTATED_KEY_NEXT: "",
    });
    expect(res.status).toBe(204);
  });

  it("fails closed when none of them is set", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await callVocabulary("/fixture-pets/p1", withKey(CURRENT, { method: "DELETE" }), {
      FIXTURE_ROTATED_KEY: "",
      FIXTURE_ROTATED_KEY_NEXT: "",
    });
    await expectProblem(res, 500);
  });
});
