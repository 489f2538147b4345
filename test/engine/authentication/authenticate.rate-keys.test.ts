/**
 * Per-credential rate limits count by the credential, never by the scheme's name: a digest
 * of a compared secret, or a verified JWT's issuer and subject. Two callers with two keys
 * of one scheme are two counts; one caller is one count whichever request it sends.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { authenticate } from "../../../src/engine/authentication/authenticate";
import { planSecurity } from "../../../src/engine/authentication/plan";
import { JWT_VERIFIER } from "../../../src/engine/authentication/verify-jwt";
import {
  FIXTURE_JWT_VARS,
  FIXTURE_ROTATED_SECRETS,
  FIXTURE_VOCABULARY_CONTRACT,
} from "../../fixtures/vocabulary";

const { operations } = FIXTURE_VOCABULARY_CONTRACT;
const plan = planSecurity(
  FIXTURE_VOCABULARY_CONTRACT,
  "fixtureLegacyPet",
  operations.fixtureLegacyPet,
  JWT_VERIFIER,
);

async function rateKey(key: string): Promise<string> {
  if (!plan) throw new Error("the FIXTURE operation requires credentials");
  const request = new Request("https://fixture.test/fixture-pets/p1", {
    method: "DELETE",
    headers: { "x-fixture-rotated-key": key },
  });
  const outcome = await authenticate(
    plan,
    request,
    env as unknown as Record<string, unknown>,
    "fixture-id",
  );
  if (!outcome.ok || outcome.rateKey === undefined) throw new Error("the FIXTURE key was refused");
  return outcome.rateKey;
}

describe("the per-credential rate-limit key", () => {
  it("differs for two secrets of one scheme, and is the same for one secret each time", async () => {
    const current = await rateKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY);
    const next = await rateKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY_NEXT);
    expect(current).not.toBe(next);
    expect(await rateKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY)).toBe(current);
  });

  it("is a digest: neither the credential nor the scheme's name", async () => {
    const key = await rateKey(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain(FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY);
  });
});

describe("the per-credential rate-limit key of a JWT", () => {
  it("is the verified issuer and subject: the same for two tokens of one subject, another for another subject", async () => {
    const { exportJWK, generateKeyPair, SignJWT } = await import("jose");
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: "fixture-rate", alg: "ES256" };
    const url = "https://fixture-idp.test/rate-keys.json";
    const fetched = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation(async () => Response.json({ keys: [jwk] }));
    const jwtPlan = planSecurity(
      FIXTURE_VOCABULARY_CONTRACT,
      "fixtureGetPet",
      operations.fixtureGetPet,
      JWT_VERIFIER,
    );
    const bindings = { ...(env as unknown as Record<string, unknown>), FIXTURE_JWKS_URL: url };
    const outcomeOf = async (subject: string, id: string) => {
      const token = await new SignJWT({ jti: id, tenant: "fixture-acme", seats: 3 })
        .setProtectedHeader({ alg: "ES256", kid: "fixture-rate" })
        .setSubject(subject)
        .setIssuer(FIXTURE_JWT_VARS.FIXTURE_JWT_ISSUER)
        .setAudience(FIXTURE_JWT_VARS.FIXTURE_JWT_AUDIENCE)
        .setExpirationTime("5m")
        .sign(privateKey);
      const request = new Request("https://fixture.test/fixture-pets/p1", {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!jwtPlan) throw new Error("the FIXTURE operation requires credentials");
      const outcome = await authenticate(jwtPlan, request, bindings, "fixture-id");
      if (!outcome.ok) throw new Error("the FIXTURE token was refused");
      return outcome;
    };
    const keyOf = async (subject: string, id: string) => (await outcomeOf(subject, id)).rateKey;
    // Its string claims name the caller's store where STORE_TENANCY is claim:<name>.
    const { identity } = await outcomeOf("fixture-a", "0");
    expect(identity.claims).toMatchObject({ tenant: "fixture-acme", sub: "fixture-a", jti: "0" });
    expect(identity.claims).not.toHaveProperty("seats");
    expect(Object.keys(identity.schemes)).toEqual(["fixtureOidc"]);
    expect(await keyOf("fixture-a", "1")).toBe(await keyOf("fixture-a", "2"));
    expect(await keyOf("fixture-a", "3")).not.toBe(await keyOf("fixture-b", "4"));
    expect(fetched).toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
