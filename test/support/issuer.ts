/**
 * A local issuer of access tokens, for tests and local development only: an ES256 key pair
 * whose public half a deployment's JWT scheme is given inline (a JWK Set, RFC 7517 §5), and
 * whose private half signs tokens shaped as RFC 9068 says (`typ: at+jwt`, `iss`, `aud`,
 * `sub`, `client_id`, `iat`, `exp`, `jti`, `scope`). Runs in Node and workerd (jose,
 * WebCrypto). Never part of the Worker.
 */
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";

export interface LocalIssuer {
  readonly kid: string;
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

/** A new issuer: keys made now, never written to the repository. */
export async function newIssuer(kid = `local-${crypto.randomUUID()}`): Promise<LocalIssuer> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: "ES256" },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" },
  };
}

/** The issuer's public key set, as a scheme's key-set setting holds it inline. */
export const keySetOf = (issuer: LocalIssuer) => JSON.stringify({ keys: [issuer.publicJwk] });

export interface AccessTokenClaims {
  readonly issuer: string;
  readonly audience: string;
  readonly scopes: readonly string[];
  readonly subject?: string;
  readonly ttlSeconds?: number;
}

/** An access token of the issuer, as RFC 9068 §2 shapes one. */
export async function accessToken(issuer: LocalIssuer, claims: AccessTokenClaims): Promise<string> {
  const key = await importJWK(issuer.privateJwk, "ES256");
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: "local-client", scope: claims.scopes.join(" ") })
    .setProtectedHeader({ alg: "ES256", kid: issuer.kid, typ: "at+jwt" })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setSubject(claims.subject ?? "local-user")
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.ttlSeconds ?? 3600))
    .setJti(crypto.randomUUID())
    .sign(key);
}
