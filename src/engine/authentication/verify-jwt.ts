/**
 * Bearer JWTs verified in the Worker with `jose` (WebCrypto): the signature against the
 * deployment's key set, an explicit list of asymmetric algorithms (RFC 8725 §3.1: never
 * `none`, never an HMAC key), the issuer and audience from Worker vars, `exp` required
 * (RFC 8725 §3.10, RFC 9068 §2.2), `exp`, `nbf` and `iat` held to the clock with a small
 * skew (RFC 7519 §4.1.4-6), and the token's type (RFC 8725 §3.11). A fetched key set is
 * kept by ./key-set-cache.ts; a token with a key id it does not hold makes it refetch (at
 * most every 30 s). A key set that cannot be had, or vars that are not set, fail closed.
 */
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import type { JwtAlgorithm, JwtVerification } from "../../contract-language/contract";
import { stringClaims } from "./credentials";
import { type Background, type JwkSet, keySetCache } from "./key-set-cache";

/** What verifying a bearer JWT concluded. */
export type JwtOutcome =
  | {
      readonly kind: "valid";
      readonly issuer: string;
      readonly subject: string | undefined;
      readonly scopes: readonly string[];
      /** The token's string claims (STORE_TENANCY's `claim:<name>` reads one). */
      readonly claims: Readonly<Record<string, string>>;
    }
  /** Not a token this deployment accepts: the same 401 as a missing one. */
  | { readonly kind: "invalid" }
  /**
   * The key set could not be fetched or read: nothing can be said of the token. `reason` is
   * for the log; `retryAfter` (seconds) is when the key set's host will be asked again.
   */
  | { readonly kind: "unavailable"; readonly reason: string; readonly retryAfter?: number }
  /** The vars the scheme names are not set, or not usable. */
  | { readonly kind: "misconfigured"; readonly reason: string };

/**
 * Where a JWT scheme's keys come from: a key set fetched from an `https:` URL, or the key
 * set itself (a JWK Set, RFC 7517 §5) given in the deployment's configuration, which is how
 * a local issuer is trusted in development and how a deployment pins its keys.
 */
export type KeySetSource =
  | { readonly url: URL }
  | { readonly keys: readonly Readonly<Record<string, unknown>>[] };

/** The deployment's key set, issuer and audience for one JWT scheme. */
export interface JwtSettings {
  readonly keySet: KeySetSource;
  readonly issuer: string;
  readonly audience: string;
}

/**
 * Verifies a bearer JWT (`JWT_VERIFIER` below, with jose): the engine's `jwt` feature, given
 * only when part 5 declares a JWT scheme, so a Worker without one does not ship the library. `background`
 * is the request's `ExecutionContext.waitUntil`, so a key set can be refreshed ahead of its
 * expiry without the request waiting for it.
 */
export type JwtVerifier = (
  token: string,
  verification: JwtVerification,
  settings: JwtSettings,
  background?: (work: Promise<unknown>) => void,
) => Promise<JwtOutcome>;

/** RFC 8725 §2.1: asymmetric algorithms only, unless the contract narrows them. */
const DEFAULT_ALGORITHMS: readonly JwtAlgorithm[] = ["RS256", "ES256"];
/** Seconds of clock skew accepted on `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * RFC 8725 §3.11: types that say "a JWT" or "an access token" (RFC 9068 §2.1), compared
 * as jose compares them: case-insensitive, `application/` optional (RFC 7515 §4.1.9). Any
 * other type names some other kind of JWT (a `secevent+jwt`, a `logout+jwt`) that must not
 * be taken for a credential. `JWT`, and no `typ` at all, are accepted by default because
 * many issuers still send `typ: JWT` for their access tokens; a scheme with the RFC 9068
 * profile takes `at+jwt` only.
 */
const ACCEPTED_TYPES = new Set(["jwt", "at+jwt"]);
/** RFC 9068 §2.2: the claims an access token of the profile must carry. */
const RFC9068_CLAIMS = ["iss", "exp", "aud", "sub", "client_id", "iat", "jti"];

type KeyResolver = ReturnType<typeof createLocalJWKSet>;

/** One resolver per inline key set, and per fetched set until it is refetched. */
const inlineSets = new Map<string, KeyResolver>();
const fetchedSets = new WeakMap<JwkSet, KeyResolver>();

function resolverOf(keySet: JwkSet): KeyResolver {
  let resolver = fetchedSets.get(keySet);
  if (!resolver) {
    resolver = createLocalJWKSet(keySet as unknown as JSONWebKeySet);
    fetchedSets.set(keySet, resolver);
  }
  return resolver;
}

function inlineResolver(keys: JwkSet["keys"]): KeyResolver {
  const id = JSON.stringify(keys);
  let resolver = inlineSets.get(id);
  if (!resolver) {
    resolver = createLocalJWKSet({ keys } as unknown as JSONWebKeySet);
    inlineSets.set(id, resolver);
  }
  return resolver;
}

/** The granted scopes: RFC 9068 §2.2.3 `scope` (space-separated), or an `scp` list. */
function scopesOf(payload: Record<string, unknown>): readonly string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (typeof payload.scp === "string") return payload.scp.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp))
    return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
}

/** `application/` dropped and lower-cased, as RFC 7515 §4.1.9 compares media types. */
const normalisedType = (typ: string) => typ.toLowerCase().replace(/^application\//, "");

/**
 * What jose does not check: RFC 8725 §3.11 outside the RFC 9068 profile (jose's `typ`
 * option takes one type); `iat` in the future (jose checks it only with a maximum age,
 * RFC 7519 §4.1.6 says the token was issued then, so a later one is not yet issued);
 * RFC 9068 §2.2's string claims being strings.
 */
function meetsRules(
  header: { readonly typ?: unknown },
  payload: JWTPayload,
  verification: JwtVerification,
): boolean {
  if (header.typ !== undefined) {
    if (typeof header.typ !== "string" || !ACCEPTED_TYPES.has(normalisedType(header.typ)))
      return false;
  }
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.iat === "number" && payload.iat > now + CLOCK_TOLERANCE_SECONDS) return false;
  if (verification.profile === "rfc9068")
    return ["sub", "client_id", "jti"].every(
      (claim) => typeof payload[claim] === "string" && payload[claim] !== "",
    );
  return true;
}

/** Verifies `token` against `resolver`; undefined when it names a key the set lacks. */
async function verifyWith(
  token: string,
  resolver: KeyResolver,
  verification: JwtVerification,
  settings: JwtSettings,
): Promise<JwtOutcome | undefined> {
  const rfc9068 = verification.profile === "rfc9068";
  try {
    const { payload, protectedHeader } = await jwtVerify(token, resolver, {
      algorithms: [...(verification.algorithms ?? DEFAULT_ALGORITHMS)],
      issuer: settings.issuer,
      audience: settings.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: rfc9068 ? RFC9068_CLAIMS : ["exp"],
      ...(rfc9068 ? { typ: "at+jwt" } : {}),
    });
    if (!meetsRules(protectedHeader, payload, verification)) return { kind: "invalid" };
    return {
      kind: "valid",
      issuer: settings.issuer,
      subject: payload.sub,
      scopes: scopesOf(payload),
      claims: stringClaims(payload),
    };
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey) return undefined;
    // The set, not the token, is at fault: a member jose cannot use as a public key, or a
    // key WebCrypto refuses to import. Errors of the token are jose's own.
    if (error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError))
      return {
        kind: "unavailable",
        reason: `the key set holds a key that cannot be used (${
          error instanceof Error ? error.name : typeof error
        })`,
      };
    return { kind: "invalid" };
  }
}

/** A token verified against a fetched key set, refetched once if it names an unknown key. */
async function verifyFetched(
  token: string,
  url: URL,
  verification: JwtVerification,
  settings: JwtSettings,
  background: Background | undefined,
): Promise<JwtOutcome> {
  const cache = keySetCache(url);
  const found = await cache.keys(background);
  if (found.kind === "unavailable") return found;
  const outcome = await verifyWith(token, resolverOf(found.keySet), verification, settings);
  if (outcome) return outcome;
  const again = await cache.refetchForUnknownKey();
  if (again === "unchanged") return { kind: "invalid" };
  if (again.kind === "unavailable") return again;
  return (
    (await verifyWith(token, resolverOf(again.keySet), verification, settings)) ?? {
      kind: "invalid",
    }
  );
}

/**
 * The verifier a contract with JWT schemes passes to `createApp` as `jwt`; its own module, so
 * a Worker without such a scheme does not bundle jose.
 */
export const JWT_VERIFIER: JwtVerifier = async function verifyJwt(
  token: string,
  verification: JwtVerification,
  settings: JwtSettings,
  background?: Background,
): Promise<JwtOutcome> {
  const source = settings.keySet;
  if ("url" in source) return verifyFetched(token, source.url, verification, settings, background);
  return (
    (await verifyWith(token, inlineResolver(source.keys), verification, settings)) ?? {
      kind: "invalid",
    }
  );
};
