/**
 * The deployment's side of a JWT scheme: its key set, issuer and audience, read from the
 * Worker vars (or secrets) the scheme names. Kept apart from the verifier (./jwt.ts), so
 * that reading vars at each request does not bring jose into a Worker.
 *
 * The key set is either an `https:` URL (RFC 8414's `jwks_uri`), or the JWK Set itself
 * (RFC 7517 §5), written as JSON: a deployment that pins its keys, or the local issuer
 * `npm run dev` makes for development. A plain `http:` URL is never accepted: keys fetched
 * without TLS could be anyone's.
 */
import type { JwtVerification } from "../../contract-language/contract";
import type { JwtSettings, KeySetSource } from "./verify-jwt";

/** The key set a var holds, or why it cannot be used. */
function keySetOf(name: string, value: string): KeySetSource | string {
  if (value.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return `var ${name} holds neither an https: URL nor a JSON JWK Set`;
    }
    const keys = (parsed as { keys?: unknown } | null)?.keys;
    if (
      !Array.isArray(keys) ||
      keys.length === 0 ||
      !keys.every((key) => key !== null && typeof key === "object" && !Array.isArray(key))
    )
      return `var ${name} is not a JWK Set with keys (RFC 7517 §5)`;
    return { keys };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `var ${name} is not a URL`;
  }
  return url.protocol === "https:" ? { url } : `var ${name} is not an https: URL`;
}

/** The deployment's values for the vars a scheme names; a reason when they cannot be used. */
export function jwtSettings(
  verification: JwtVerification,
  env: Readonly<Record<string, unknown>>,
): JwtSettings | string {
  const read = (name: string) => {
    const value = env[name];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const [source, issuer, audience] = [
    read(verification.jwksUrl),
    read(verification.issuer),
    read(verification.audience),
  ];
  if (!source || !issuer || !audience) {
    const missing = ["jwksUrl", "issuer", "audience"] as const;
    return `var ${missing
      .filter((field) => !read(verification[field]))
      .map((field) => verification[field])
      .join(", ")} is not set`;
  }
  const keySet = keySetOf(verification.jwksUrl, source);
  return typeof keySet === "string" ? keySet : { keySet, issuer, audience };
}
