/**
 * Response headers every answer carries, after the OWASP REST Security and HTTP Headers
 * cheat sheets. Built once at module load; the request path only copies them.
 */
import { REQUEST_ID_HEADER } from "./request-id";

/** For API answers (JSON, problems): nothing may load, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * For the platform's HTML pages: only the same-origin stylesheet may load; no script,
 * no inline style, no framing, no forms, no <base> rewriting.
 */
export const HTML_CSP =
  "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  // OWASP: stop browsers from guessing a media type other than the declared one.
  ["x-content-type-options", "nosniff"],
  // OWASP: legacy framing protection, for browsers without CSP frame-ancestors.
  ["x-frame-options", "DENY"],
  // OWASP: URLs of this service never leak to other origins through Referer.
  ["referrer-policy", "no-referrer"],
  // RFC 6797: HTTPS only, for two years, subdomains included.
  ["strict-transport-security", "max-age=63072000; includeSubDomains"],
];

const STATIC_API_HEADERS: readonly [string, string][] = [
  ...SECURITY_HEADERS.map(([name, value]): [string, string] => [name, value]),
  ["content-security-policy", API_CSP],
];

/**
 * Every platform header of an API answer (JSON, problems), as pairs for a Response's init.
 * An answer built with them in one call costs less than setting them one by one afterwards
 * (each `headers.set` is a call into the runtime); the platform middleware then leaves it be.
 * `before`: the answer's own headers, put first.
 */
export function apiHeaders(
  requestId: string,
  before: readonly [string, string][] = [],
): [string, string][] {
  return [...before, ...STATIC_API_HEADERS, [REQUEST_ID_HEADER, requestId]];
}
