/**
 * Bearer JWTs verified in the Worker with `jose` (WebCrypto): the signature against the
 * deployment's key set, an explicit list of asymmetric algorithms (RFC 8725 §3.1: never
 * `none`, never an HMAC key), the issuer and audience from Worker vars, and `exp`/`nbf`
 * with a small clock skew (RFC 7519 §4.1.4-5). The key set is fetched once per isolate and
 * cached; a token with a key id it does not hold makes it refetch (at most every 30 s,
 * jose's cooldown). A key set that cannot be fetched, or vars that are not set, fail closed.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, type JSONWebKeySet, jwtVerify } from "jose";
import type { JwtAlgorithm, JwtVerification } from "../../domain/contract";
import type { JwtOutcome, JwtSettings, JwtVerifier, KeySetSource } from "../../platform/engine";

/** RFC 8725 §2.1: asymmetric algorithms only, unless the contract narrows them. */
const DEFAULT_ALGORITHMS: readonly JwtAlgorithm[] = ["RS256", "ES256"];
/** Seconds of clock skew accepted on `exp` and `nbf`. */
export const CLOCK_TOLERANCE_SECONDS = 30;

type KeyResolver = ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>;

/** One key set per source, kept for the isolate's life so a remote one's cache is shared. */
const keySets = new Map<string, KeyResolver>();

function keySet(source: KeySetSource): KeyResolver {
  const id = "url" in source ? source.url.href : JSON.stringify(source.keys);
  let set = keySets.get(id);
  if (!set) {
    set =
      "url" in source
        ? createRemoteJWKSet(source.url, { timeoutDuration: 5000, cooldownDuration: 30_000 })
        : createLocalJWKSet({ keys: source.keys } as unknown as JSONWebKeySet);
    keySets.set(id, set);
  }
  return set;
}

/** The granted scopes: RFC 9068 §2.2.3 `scope` (space-separated), or an `scp` list. */
function scopesOf(payload: Record<string, unknown>): readonly string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (typeof payload.scp === "string") return payload.scp.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp))
    return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
}

/** Errors that say the key set, not the token, is at fault. */
function isKeySetFailure(error: unknown): boolean {
  return (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    // fetch itself failed (DNS, connection, TLS) or answered something that is not JSON.
    error instanceof TypeError ||
    error instanceof SyntaxError ||
    (error instanceof errors.JOSEError && error.code === "ERR_JOSE_GENERIC")
  );
}

/**
 * The verifier a contract with JWT schemes passes to `createApp` as `jwt` (src/engine/jwt.ts).
 */
export const verifyJwt: JwtVerifier = async function verifyJwt(
  token: string,
  verification: JwtVerification,
  settings: JwtSettings,
): Promise<JwtOutcome> {
  try {
    const { payload } = await jwtVerify(token, keySet(settings.keySet), {
      algorithms: [...(verification.algorithms ?? DEFAULT_ALGORITHMS)],
      issuer: settings.issuer,
      audience: settings.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    return {
      kind: "valid",
      issuer: settings.issuer,
      subject: payload.sub,
      scopes: scopesOf(payload),
    };
  } catch (error) {
    if (isKeySetFailure(error))
      return {
        kind: "unavailable",
        reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      };
    return { kind: "invalid" };
  }
};
