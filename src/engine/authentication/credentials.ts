/**
 * Where each kind of security scheme finds the credential a request presents. Anything
 * that is not exactly one well-formed credential counts as none: a request is never
 * answered differently for a malformed credential than for a missing or wrong one.
 */
import { parse as parseCookies } from "hono/utils/cookie";
import { type SecurityScheme, verifiedField } from "../../contract-language/contract";

const encoder = new TextEncoder();
// RFC 9110 §11.2: token68.
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The credentials after an auth-scheme in `Authorization`, matched case-insensitively (RFC 9110 §11.1). */
function authorization(request: Request, authScheme: string): string | undefined {
  const value = request.headers.get("authorization");
  if (value === null) return undefined;
  const space = value.indexOf(" ");
  if (space <= 0 || value.slice(0, space).toLowerCase() !== authScheme) return undefined;
  const credentials = value.slice(space + 1).trim();
  return TOKEN68.test(credentials) ? credentials : undefined;
}

/** RFC 7617 §2: base64 of `user-id:password`, compared as the bytes it decodes to. */
function basicCredentials(token: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(token), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The bearer token in `Authorization` (RFC 6750 §2.1); undefined when there is none. */
export function presentedToken(request: Request): string | undefined {
  return authorization(request, "bearer");
}

/** The credential the request presents for a scheme, as bytes; undefined when it presents none. */
export function presentedCredential(
  scheme: SecurityScheme,
  request: Request,
): Uint8Array | undefined {
  if (scheme.type === "verified") {
    const field = verifiedField(scheme);
    return field ? fieldValue(request, field.in, field.name) : undefined;
  }
  if (scheme.type !== "apiKey") {
    const basic = scheme.type === "http" && scheme.scheme === "basic";
    const credentials = authorization(request, basic ? "basic" : "bearer");
    if (credentials === undefined) return undefined;
    return basic ? basicCredentials(credentials) : encoder.encode(credentials);
  }
  return fieldValue(request, scheme.in, scheme.name);
}

/** The one value of a header, query parameter or cookie, as bytes; undefined when there is none. */
function fieldValue(
  request: Request,
  place: "header" | "query" | "cookie",
  name: string,
): Uint8Array | undefined {
  let value: string | undefined;
  if (place === "header") {
    value = request.headers.get(name) ?? undefined;
  } else if (place === "query") {
    const values = new URL(request.url).searchParams.getAll(name);
    value = values.length === 1 ? values[0] : undefined;
  } else {
    value = parseCookies(request.headers.get("cookie") ?? "", name)[name];
  }
  return value ? encoder.encode(value) : undefined;
}

/** A verified token's (or introspection answer's) claims whose values are strings. */
export function stringClaims(payload: Readonly<Record<string, unknown>>): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload))
    if (typeof value === "string") claims[name] = value;
  return claims;
}
