/**
 * Bearer JWTs of OAuth 2, OpenID Connect and JWT bearer schemes, verified in the Worker
 * (RFC 7519, RFC 8725, RFC 9068, RFC 6750), against the FIXTURE vocabulary app inside
 * workerd. Keys are generated here, for this run, and never committed; the key set is
 * served through a mocked `fetch`, each test at its own URL so no test sees another's
 * cached keys, by a host that answers, refuses, resets, hangs, answers garbage, rotates
 * its keys and comes back (the cache's own rules: test/engine/authentication/key-set-cache.test.ts).
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { JwtVerifier } from "../../../src/engine/authentication/verify-jwt";
import { JWT_VERIFIER } from "../../../src/engine/authentication/verify-jwt";
import { FIXTURE_JWT_VARS, FIXTURE_VOCABULARY_CONTRACT } from "../../fixtures/vocabulary";
import { expectProblem } from "../../support/assertions";
import { callVocabulary, vocabularyApp } from "../../support/vocabulary-app";

const ISSUER = FIXTURE_JWT_VARS.FIXTURE_JWT_ISSUER;
const AUDIENCE = FIXTURE_JWT_VARS.FIXTURE_JWT_AUDIENCE;

type Keys = { privateKey: CryptoKey; publicKey: CryptoKey; jwk: Record<string, unknown> };
let keyA: Keys;
let keyB: Keys;

async function keys(kid: string): Promise<Keys> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return {
    privateKey,
    publicKey,
    jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" },
  };
}

beforeAll(async () => {
  [keyA, keyB] = await Promise.all([keys("fixture-a"), keys("fixture-b")]);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/**
 * What the key-set host does when asked: the keys (a JWK Set with `headers`), an answer
 * of its own, a rejected fetch (workerd rejects a refused, reset or unresolved connection
 * and an untrusted certificate alike), or no answer at all.
 */
type Served = unknown[] | Response | Error | "hang" | Promise<Response>;

let urls = 0;
/** A key-set URL no other test uses, served by a mocked fetch; `served` may change between calls. */
function jwksAt(served: () => Served, headers: HeadersInit = {}) {
  const url = `https://fixture-idp.test/jwks-${++urls}.json`;
  const fetched = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const requested = input instanceof Request ? input.url : String(input);
    if (requested !== url) throw new TypeError(`unexpected fetch of ${requested}`);
    const given = served();
    if (given === "hang") return new Promise<Response>(() => {});
    if (given instanceof Error) throw given;
    if (given instanceof Response || given instanceof Promise) return given;
    return Response.json({ keys: given }, { headers });
  });
  return { bindings: { FIXTURE_JWKS_URL: url }, fetched };
}

const REFUSED = () => new TypeError("fixture: connection refused");

async function token(
  key: Keys,
  claims: JWTPayload = {},
  options: {
    issuer?: string;
    audience?: string;
    /** `null`: no `exp` at all. */
    expires?: string | number | null;
    notBefore?: string | number;
    /** `null`: no `iat` at all. */
    issuedAt?: number | null;
    /** `null`: no `sub` at all. */
    subject?: string | null;
    /** The `typ` header (RFC 8725 §3.11); none when absent. */
    typ?: string;
  } = {},
): Promise<string> {
  const jwt = new SignJWT({ scope: "pets:read pets:write", ...claims })
    .setProtectedHeader({
      alg: "ES256",
      kid: key.jwk.kid as string,
      ...(options.typ === undefined ? {} : { typ: options.typ }),
    })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE);
  if (options.subject !== null) jwt.setSubject(options.subject ?? "fixture-user-7");
  if (options.issuedAt !== null) jwt.setIssuedAt(options.issuedAt);
  if (options.expires !== null) jwt.setExpirationTime(options.expires ?? "5m");
  if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
  return jwt.sign(key.privateKey);
}

/** An access token as RFC 9068 §2 shapes one, with `claims` changed (`undefined`: left out). */
function accessToken(
  key: Keys,
  claims: JWTPayload = {},
  options: Parameters<typeof token>[2] = {},
): Promise<string> {
  return token(
    key,
    { client_id: "fixture-client", jti: crypto.randomUUID(), ...claims },
    { typ: "at+jwt", ...options },
  );
}

/** Resolves a promise once the test says so (a host that answers later). */
function later<T>() {
  let release: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => (release = resolve));
  return { promise, release };
}

const bearer = (jwt: string): RequestInit => ({ headers: { authorization: `Bearer ${jwt}` } });
const GET_PET = "/fixture-pets/p7";
const base64url = (value: string | Uint8Array) =>
  btoa(typeof value === "string" ? value : String.fromCharCode(...value))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

/** RFC 6750 §3.1: a refused token gets the 401 a missing one gets, byte for byte but the id. */
async function expectRefusedLikeMissing(
  jwt: string,
  bindings: Readonly<Record<string, unknown>>,
  app?: ReturnType<typeof vocabularyApp>,
): Promise<void> {
  const refused = await callVocabulary(GET_PET, bearer(jwt), bindings, { app });
  const missing = await callVocabulary(GET_PET, undefined, bindings, { app });
  const body = await expectProblem(refused, 401);
  expect(refused.headers.get("www-authenticate")).toBe(missing.headers.get("www-authenticate"));
  const other = (await missing.json()) as Record<string, unknown>;
  expect({ ...body, requestId: "" }).toEqual({ ...other, requestId: "" });
}

describe("a valid token", () => {
  it("is accepted, and the handler receives the verified subject and scopes, never the token", async () => {
    const { bindings, fetched } = jwksAt(() => [keyA.jwk]);
    const res = await callVocabulary(GET_PET, bearer(await token(keyA)), bindings);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "p7", name: "fixture-user-7" });
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it("is verified against the cached key set: one fetch for many requests", async () => {
    const { bindings, fetched } = jwksAt(() => [keyA.jwk]);
    for (let i = 0; i < 3; i++)
      expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(1);
  });
});

describe("tokens that are refused with the same 401 as a missing one (RFC 6750 §3.1: no error code)", () => {
  const cases: [string, () => Promise<string>][] = [
    ["expired", () => token(keyA, {}, { expires: Math.floor(Date.now() / 1000) - 120 })],
    ["not yet valid", () => token(keyA, {}, { notBefore: Math.floor(Date.now() / 1000) + 300 })],
    ["from another issuer", () => token(keyA, {}, { issuer: "https://elsewhere.test/" })],
    ["for another audience", () => token(keyA, {}, { audience: "another-api" })],
    ["signed by a key not in the set", () => token(keyB)],
    [
      'with alg "none" (RFC 8725 §2.1)',
      async () => {
        const header = base64url(JSON.stringify({ alg: "none", kid: "fixture-a" }));
        const payload = base64url(
          JSON.stringify({
            sub: "fixture-user-7",
            iss: ISSUER,
            aud: AUDIENCE,
            exp: Math.floor(Date.now() / 1000) + 300,
          }),
        );
        return `${header}.${payload}.`;
      },
    ],
    [
      "HS256, keyed with the public key (RFC 8725 §2.1: algorithm confusion)",
      async () => {
        const publicBytes = new TextEncoder().encode(JSON.stringify(keyA.jwk));
        return new SignJWT({ sub: "fixture-user-7" })
          .setProtectedHeader({ alg: "HS256", kid: "fixture-a" })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime("5m")
          .sign(publicBytes);
      },
    ],
    ["garbage", async () => "not.a.jwt"],
    ["without exp (RFC 8725 §3.10, RFC 9068 §2.2)", () => token(keyA, {}, { expires: null })],
    [
      "issued in the future, beyond the 30 s of skew (iat, RFC 7519 §4.1.6)",
      () => token(keyA, {}, { issuedAt: Math.floor(Date.now() / 1000) + 60 }),
    ],
    [
      "not valid before a time beyond the 30 s of skew (nbf, RFC 7519 §4.1.5)",
      () => token(keyA, {}, { notBefore: Math.floor(Date.now() / 1000) + 60 }),
    ],
    [
      'typed as another kind of JWT, "secevent+jwt" (RFC 8725 §3.11)',
      () => token(keyA, {}, { typ: "secevent+jwt" }),
    ],
    [
      'typed "application/logout+jwt" (RFC 8725 §3.11)',
      () => token(keyA, {}, { typ: "application/logout+jwt" }),
    ],
  ];

  it.each(cases)("%s", async (_label, make) => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    await expectRefusedLikeMissing(await make(), bindings);
  });

  it("accepts exp, nbf and iat within 30 s of clock skew, and no more", async () => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const now = Math.floor(Date.now() / 1000);
    const status = async (options: Parameters<typeof token>[2]) =>
      (await callVocabulary(GET_PET, bearer(await token(keyA, {}, options)), bindings)).status;
    expect(await status({ expires: now - 10 })).toBe(200);
    expect(await status({ expires: now - 60 })).toBe(401);
    expect(await status({ notBefore: now + 10 })).toBe(200);
    expect(await status({ notBefore: now + 60 })).toBe(401);
    expect(await status({ issuedAt: now + 10 })).toBe(200);
    expect(await status({ issuedAt: now + 60 })).toBe(401);
  });

  it.each([
    ["absent", undefined],
    ["JWT", "JWT"],
    ["jwt (case-insensitive)", "jwt"],
    ["at+jwt (RFC 9068 §2.1)", "at+jwt"],
    ["application/at+jwt", "application/at+jwt"],
  ])("by default accepts typ %s: many issuers still send typ JWT", async (_label, typ) => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const jwt = await token(keyA, {}, typ === undefined ? {} : { typ });
    expect((await callVocabulary(GET_PET, bearer(jwt), bindings)).status).toBe(200);
  });
});

type VocabularyContract = typeof FIXTURE_VOCABULARY_CONTRACT;
type JwtSchemeName = "fixtureOAuth" | "fixtureOidc" | "fixtureJwt";

/** The vocabulary contract with the tokens of the schemes `names` held to RFC 9068's profile. */
function withRfc9068(...names: JwtSchemeName[]): VocabularyContract {
  const schemes: Record<string, unknown> = { ...FIXTURE_VOCABULARY_CONTRACT.securitySchemes };
  for (const name of names) {
    const scheme = FIXTURE_VOCABULARY_CONTRACT.securitySchemes[name];
    schemes[name] = { ...scheme, jwt: { ...scheme.jwt, profile: "rfc9068" } };
  }
  return { ...FIXTURE_VOCABULARY_CONTRACT, securitySchemes: schemes } as VocabularyContract;
}

const RFC9068_APP = vocabularyApp(withRfc9068("fixtureOAuth", "fixtureOidc", "fixtureJwt"));

describe('schemes whose tokens follow RFC 9068 (profile: "rfc9068")', () => {
  it.each([
    ["typ at+jwt", () => accessToken(keyA)],
    ["typ application/at+jwt", () => accessToken(keyA, {}, { typ: "application/at+jwt" })],
  ])("accept an access token with %s and the §2.2 claims", async (_label, make) => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const res = await callVocabulary(GET_PET, bearer(await make()), bindings, {
      app: RFC9068_APP,
    });
    expect(res.status).toBe(200);
  });

  it.each<[string, () => Promise<string>]>([
    ['typed "JWT" (§2.1: at+jwt)', () => accessToken(keyA, {}, { typ: "JWT" })],
    ["not typed (§2.1)", () => token(keyA, { client_id: "fixture-client", jti: "fixture-jti" })],
    ["without sub (§2.2)", () => accessToken(keyA, {}, { subject: null })],
    ["without client_id (§2.2)", () => accessToken(keyA, { client_id: undefined })],
    ["without jti (§2.2)", () => accessToken(keyA, { jti: undefined })],
    ["without iat (§2.2)", () => accessToken(keyA, {}, { issuedAt: null })],
    ["without exp (§2.2)", () => accessToken(keyA, {}, { expires: null })],
    ["with a client_id that is not a string (§2.2)", () => accessToken(keyA, { client_id: 7 })],
  ])("refuse one %s with the same 401 as a missing token", async (_label, make) => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    await expectRefusedLikeMissing(await make(), bindings, RFC9068_APP);
  });
});

describe("schemes that share a key set", () => {
  /** The verifier, counting its calls. */
  function counted() {
    const calls: string[] = [];
    const verifier: JwtVerifier = (token, verification, settings, background) => {
      calls.push(verification.issuer);
      return JWT_VERIFIER(token, verification, settings, background);
    };
    return { calls, verifier };
  }

  it("verify a token once per request (the OAuth and OIDC schemes; the ES256-only one apart)", async () => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const { calls, verifier } = counted();
    const app = vocabularyApp(FIXTURE_VOCABULARY_CONTRACT, verifier);
    const res = await callVocabulary(GET_PET, bearer(await token(keyA)), bindings, { app });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it("but not the RFC 9068 profile are verified apart: a JWT one refuses may be another's", async () => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const { calls, verifier } = counted();
    const app = vocabularyApp(withRfc9068("fixtureOAuth", "fixtureJwt"), verifier);
    const jwt = await token(keyA, {}, { typ: "JWT" });
    expect((await callVocabulary(GET_PET, bearer(jwt), bindings, { app })).status).toBe(200);
    expect(calls).toHaveLength(3);
  });
});

describe("key rotation at the identity provider", () => {
  it("a token with an unknown key id makes the Worker fetch the key set again, at most every 30 s", async () => {
    let served = [keyA.jwk];
    const { bindings, fetched } = jwksAt(() => served);
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
    served = [keyA.jwk, keyB.jwk];
    // Within 30 s an unknown kid does not refetch (the provider is spared).
    expect((await callVocabulary(GET_PET, bearer(await token(keyB)), bindings)).status).toBe(401);
    expect(fetched).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 31_000);
    expect((await callVocabulary(GET_PET, bearer(await token(keyB)), bindings)).status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(2);
  });

  it("a key the provider withdrew is refused once the set's max-age (RFC 9111 §5.2.2.1) has run out, not before", async () => {
    let served = [keyA.jwk];
    const { bindings, fetched } = jwksAt(() => served, { "cache-control": "max-age=120" });
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
    served = [keyB.jwk];
    vi.setSystemTime(Date.now() + 90_000);
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 31_000);
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(401);
    expect((await callVocabulary(GET_PET, bearer(await token(keyB)), bindings)).status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(2);
  });

  it("is picked up ahead of expiry through waitUntil, without the request waiting for the host", async () => {
    const answer = later<Response>();
    let asked = 0;
    const { bindings, fetched } = jwksAt(() => (++asked === 1 ? [keyA.jwk] : answer.promise), {
      "cache-control": "max-age=100",
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
    vi.setSystemTime(Date.now() + 81_000); // the last fifth of its lifetime
    const work: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (promise: Promise<unknown>) => void work.push(promise),
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext;
    const res = await callVocabulary(GET_PET, bearer(await token(keyA)), bindings, { ctx });
    expect(res.status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(2);
    expect(work.length).toBeGreaterThan(0);
    answer.release(Response.json({ keys: [keyA.jwk, keyB.jwk] }));
    await Promise.all(work);
    expect((await callVocabulary(GET_PET, bearer(await token(keyB)), bindings)).status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(2);
  });
});

describe("a key set given in the deployment's configuration (a JWK Set, RFC 7517 §5)", () => {
  const inline = (keys: unknown[]) => ({ FIXTURE_JWKS_URL: JSON.stringify({ keys }) });
  const noFetch = () =>
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      throw new TypeError("fixture: nothing may be fetched for an inline key set");
    });

  it("verifies tokens against its keys without fetching anything", async () => {
    const fetched = noFetch();
    const bindings = inline([keyA.jwk]);
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
    await expectProblem(await callVocabulary(GET_PET, bearer(await token(keyB)), bindings), 401);
    expect(fetched).not.toHaveBeenCalled();
  });

  it.each([
    ["not JSON", "{keys:"],
    ["no keys", JSON.stringify({ keys: [] })],
    ["keys that are not objects", JSON.stringify({ keys: ["fixture"] })],
  ])("one that is %s fails closed: 500 and the var's name in the log", async (_label, value) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    noFetch();
    const res = await callVocabulary(GET_PET, bearer(await token(keyA)), {
      FIXTURE_JWKS_URL: value,
    });
    await expectProblem(res, 500);
    expect(logged.mock.calls.map((call) => String(call[0])).join("\n")).toContain(
      "FIXTURE_JWKS_URL",
    );
  });
});

/** Every line the app writes to the console in `run`, by level. */
async function consoleOf(run: () => Promise<void>) {
  const lines = { error: [] as string[], warn: [] as string[], info: [] as string[] };
  for (const level of ["error", "warn", "info"] as const)
    vi.spyOn(console, level).mockImplementation(
      (...args: unknown[]) => void lines[level].push(args.map(String).join(" ")),
    );
  await run();
  return lines;
}

describe("a key-set host that fails: 503 with Retry-After (RFC 9110 §15.6.4, §10.2.3) and one log line, never 401", () => {
  it.each<[string, () => Served, RegExp]>([
    ["refuses the connection", REFUSED, /connection refused/],
    // workerd's failed fetch rejects with a plain Error, not a TypeError.
    ["resets it", () => new Error("Network connection lost."), /Network connection lost/],
    [
      "has an untrusted certificate",
      () => new Error("fixture: TLS peer's certificate is not trusted"),
      /not trusted/,
    ],
    ["answers a 500", () => new Response("fixture", { status: 500 }), /answered 500/],
    [
      "answers HTML",
      () => new Response("<html>fixture</html>", { headers: { "content-type": "text/html" } }),
      /not JSON/,
    ],
    ["answers JSON that is not a JWK Set", () => Response.json({ fixture: 1 }), /not a JWK Set/],
    ["answers no usable key", () => [{ kty: "oct", k: "fixture" }], /no public signing key/],
  ])("one that %s", async (_label, served, reason) => {
    const { bindings } = jwksAt(served);
    const jwt = await token(keyA);
    let res = new Response();
    const lines = await consoleOf(async () => {
      res = await callVocabulary(GET_PET, bearer(jwt), bindings);
    });
    await expectProblem(res, 503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(lines.error).toHaveLength(1);
    expect(lines.warn).toHaveLength(0);
    expect(lines.error[0]).toContain("key set of a JWT scheme could not be fetched");
    expect(lines.error[0]).toMatch(reason);
    expect(lines.error[0]).not.toContain(jwt.split(".")[1] ?? "∅");
  });

  it("one that hangs: 503 once the 5 s timeout fires", async () => {
    const { bindings, fetched } = jwksAt(() => "hang");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(console, "error").mockImplementation(() => {});
    let res: Response | undefined;
    const pending = callVocabulary(GET_PET, bearer(await token(keyA)), bindings).then((r) => {
      res = r;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(res).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    await expectProblem(res ?? new Response(), 503);
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it("N concurrent requests cause one fetch", async () => {
    const answer = later<Response>();
    const { bindings, fetched } = jwksAt(() => answer.promise);
    const jwt = await token(keyA);
    const all = Promise.all(
      Array.from({ length: 8 }, () => callVocabulary(GET_PET, bearer(jwt), bindings)),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    answer.release(Response.json({ keys: [keyA.jwk] }));
    for (const res of await all) expect(res.status).toBe(200);
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it("backoff stops hammering: no request asks the host again before Retry-After has passed", async () => {
    const { bindings, fetched } = jwksAt(REFUSED);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const jwt = await token(keyA);
    for (let i = 0; i < 5; i++)
      await expectProblem(await callVocabulary(GET_PET, bearer(jwt), bindings), 503);
    expect(fetched).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 1_000);
    const res = await callVocabulary(GET_PET, bearer(jwt), bindings);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(fetched).toHaveBeenCalledTimes(2);
  });

  it("one that comes back after an outage is used again", async () => {
    let down = true;
    const { bindings } = jwksAt(() => (down ? REFUSED() : [keyA.jwk]));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expectProblem(await callVocabulary(GET_PET, bearer(await token(keyA)), bindings), 503);
    down = false;
    vi.setSystemTime(Date.now() + 1_000);
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
  });

  it("stale keys keep valid tokens working for up to 24 h past expiry, with one warning, then 503", async () => {
    let down = false;
    const { bindings } = jwksAt(() => (down ? REFUSED() : [keyA.jwk]), {
      "cache-control": "max-age=60",
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    const status = async () =>
      (await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status;
    const lines = await consoleOf(async () => {
      expect(await status()).toBe(200);
      down = true;
      vi.setSystemTime(Date.now() + 61_000);
      expect(await status()).toBe(200);
      vi.setSystemTime(Date.now() + 23 * 3_600_000);
      expect(await status()).toBe(200);
      vi.setSystemTime(Date.now() + 3_600_000);
      expect(await status()).toBe(503);
    });
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toContain("connection refused");
    expect(lines.error).toHaveLength(1);
  });
});

describe("fails closed, never open", () => {
  it.each(["FIXTURE_JWKS_URL", "FIXTURE_JWT_ISSUER", "FIXTURE_JWT_AUDIENCE"])(
    "a var the scheme names but the deployment lacks (%s) is a 500 naming the var in the log",
    async (name) => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const res = await callVocabulary(GET_PET, bearer(await token(keyA)), { [name]: "" });
      await expectProblem(res, 500);
      expect(String(logged.mock.calls[0]?.[0])).toContain(name);
    },
  );

  it("an http: key set URL is refused as configuration", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await callVocabulary(GET_PET, bearer(await token(keyA)), {
      FIXTURE_JWKS_URL: "http://fixture-idp.test/jwks.json",
    });
    await expectProblem(res, 500);
  });
});

describe("scopes (RFC 6750 §3.1)", () => {
  it("a valid token without the required scope is 403 insufficient_scope, naming the scope", async () => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const jwt = await token(keyA, { scope: "pets:read" });
    const res = await callVocabulary(
      "/fixture-pets",
      {
        method: "POST",
        headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
        body: "{}",
      },
      bindings,
    );
    const body = await expectProblem(res, 403);
    expect(body.type).toBe("/_service/problems/insufficient-scope");
    expect(body.requiredScopes).toEqual(["pets:write"]);
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", scope="pets:write"',
    );
    expect(JSON.stringify(body)).not.toContain(jwt);
  });

  it("scopes may come as an scp list too", async () => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const jwt = await token(keyA, { scope: undefined, scp: ["pets:write"] });
    const res = await callVocabulary(
      "/fixture-pets",
      {
        method: "POST",
        headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Rex" }),
      },
      bindings,
    );
    expect(res.status).toBe(201);
  });
});

describe("nothing of a token or its claims is logged or answered", () => {
  it("across a valid, an invalid and a forbidden request", async () => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const output: string[] = [];
    for (const level of ["log", "info", "warn", "error"] as const)
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void output.push(args.map(String).join(" ")),
      );
    const tokens = [await token(keyA), await token(keyB), await token(keyA, { scope: "" })];
    const answers: string[] = [];
    for (const jwt of tokens) {
      answers.push(
        await (
          await callVocabulary(
            "/fixture-pets/p1",
            { method: "DELETE", headers: { authorization: `Bearer ${jwt}` } },
            bindings,
          )
        ).text(),
      );
      answers.push(
        await (
          await callVocabulary(
            "/fixture-pets",
            { method: "POST", headers: { authorization: `Bearer ${jwt}` } },
            bindings,
          )
        ).text(),
      );
    }
    const everything = [...output, ...answers].join("\n");
    for (const jwt of tokens) {
      expect(everything).not.toContain(jwt);
      expect(everything).not.toContain(jwt.split(".")[1] ?? "∅");
    }
    expect(everything).not.toContain("fixture-user-7");
  });
});
