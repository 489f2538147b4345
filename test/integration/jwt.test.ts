/**
 * Bearer JWTs of OAuth 2, OpenID Connect and JWT bearer schemes, verified in the Worker
 * (RFC 7519, RFC 8725, RFC 6750), against the FIXTURE vocabulary app inside workerd. Keys
 * are generated here, for this run, and never committed; the key set is served through a
 * mocked `fetch`, each test at its own URL so no test sees another's cached keys.
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURE_JWT_VARS } from "../fixtures/vocabulary";
import { expectProblem } from "../support/assertions";
import { callVocabulary } from "../support/vocabulary-app";

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

let urls = 0;
/** A key-set URL no other test uses, served by a mocked fetch; `served` may change between calls. */
function jwksAt(served: () => unknown[] | "down") {
  const url = `https://fixture-idp.test/jwks-${++urls}.json`;
  const fetched = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const requested = input instanceof Request ? input.url : String(input);
    if (requested !== url) throw new TypeError(`unexpected fetch of ${requested}`);
    const keys = served();
    if (keys === "down") throw new TypeError("fixture: connection refused");
    return Response.json({ keys });
  });
  return { bindings: { FIXTURE_JWKS_URL: url }, fetched };
}

async function token(
  key: Keys,
  claims: JWTPayload = {},
  options: {
    issuer?: string;
    audience?: string;
    expires?: string | number;
    notBefore?: string | number;
  } = {},
): Promise<string> {
  const jwt = new SignJWT({ scope: "pets:read pets:write", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: key.jwk.kid as string })
    .setSubject("fixture-user-7")
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expires ?? "5m");
  if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
  return jwt.sign(key.privateKey);
}

const bearer = (jwt: string): RequestInit => ({ headers: { authorization: `Bearer ${jwt}` } });
const GET_PET = "/fixture-pets/p7";
const base64url = (value: string | Uint8Array) =>
  btoa(typeof value === "string" ? value : String.fromCharCode(...value))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

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
  ];

  it.each(cases)("%s", async (_label, make) => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const refused = await callVocabulary(GET_PET, bearer(await make()), bindings);
    const missing = await callVocabulary(GET_PET, undefined, bindings);
    const body = await expectProblem(refused, 401);
    expect(refused.headers.get("www-authenticate")).toBe(missing.headers.get("www-authenticate"));
    const other = (await missing.json()) as Record<string, unknown>;
    expect({ ...body, requestId: "" }).toEqual({ ...other, requestId: "" });
  });

  it("accepts exp and nbf within 30 s of clock skew, and no more", async () => {
    const { bindings } = jwksAt(() => [keyA.jwk]);
    const now = Math.floor(Date.now() / 1000);
    const lately = await token(keyA, {}, { expires: now - 10 });
    expect((await callVocabulary(GET_PET, bearer(lately), bindings)).status).toBe(200);
    const tooLate = await token(keyA, {}, { expires: now - 60 });
    expect((await callVocabulary(GET_PET, bearer(tooLate), bindings)).status).toBe(401);
  });
});

describe("key rotation at the identity provider", () => {
  it("a token with an unknown key id makes the Worker fetch the key set again, at most every 30 s", async () => {
    let served = [keyA.jwk];
    const { bindings, fetched } = jwksAt(() => served);
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await callVocabulary(GET_PET, bearer(await token(keyA)), bindings)).status).toBe(200);
    served = [keyA.jwk, keyB.jwk];
    // Within jose's 30 s cooldown an unknown kid does not refetch (the provider is spared).
    expect((await callVocabulary(GET_PET, bearer(await token(keyB)), bindings)).status).toBe(401);
    expect(fetched).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 31_000);
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

describe("fails closed, never open", () => {
  it("a key set that cannot be fetched is a 503 and a log line, not a 401 and never a 200", async () => {
    const { bindings } = jwksAt(() => "down");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const jwt = await token(keyA);
    const res = await callVocabulary(GET_PET, bearer(jwt), bindings);
    await expectProblem(res, 503);
    expect(res.headers.get("retry-after")).toBe("30");
    const lines = logged.mock.calls.map((call) => String(call[0]));
    expect(lines.join("\n")).toContain("key set of a JWT scheme could not be fetched");
    expect(lines.join("\n")).not.toContain(jwt);
  });

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
