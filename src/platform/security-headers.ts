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

/**
 * Every platform header of an API answer (JSON, problems), as a fresh object an answer is
 * built with. Written as one object literal on purpose: workerd turns such an object into
 * response headers far faster than a list of pairs or later `headers.set` calls (measured
 * with the benchmark's in-process loops). Callers add their own headers to it.
 */
export function apiHeaders(requestId: string): Record<string, string> {
  return {
    // OWASP: stop browsers from guessing a media type other than the declared one.
    "x-content-type-options": "nosniff",
    // OWASP: legacy framing protection, for browsers without CSP frame-ancestors.
    "x-frame-options": "DENY",
    // OWASP: URLs of this service never leak to other origins through Referer.
    "referrer-policy": "no-referrer",
    // RFC 6797: HTTPS only, for two years, subdomains included.
    "strict-transport-security": "max-age=63072000; includeSubDomains",
    "content-security-policy": API_CSP,
    // OWASP Secure Headers: no other origin's page shares a browsing context group with
    // these answers (COOP), and no other origin may embed them (CORP, against Spectre-style
    // reads through no-cors requests).
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    // OWASP Secure Headers: the answers use no powerful browser feature. Only those that
    // reach a person's devices or data are listed: each byte is paid on every answer, and
    // CSP already forbids any script that could ask for the rest.
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    // OWASP Secure Headers: no Flash or PDF cross-domain policy file is honoured.
    "x-permitted-cross-domain-policies": "none",
    [REQUEST_ID_HEADER]: requestId,
  };
}

const COMPLETE = new WeakSet<Response>();

/**
 * Marks an answer built with `apiHeaders`, so the platform middleware knows it has nothing
 * to add without reading the answer's headers back (each read crosses into the runtime).
 */
export function complete(response: Response): Response {
  COMPLETE.add(response);
  return response;
}

/** Whether `response` was built with every platform header (see `complete`). */
export function isComplete(response: Response): boolean {
  return COMPLETE.has(response);
}

/** The headers every answer carries whatever its kind (an HTML page sets its own CSP). */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = Object.entries(
  apiHeaders(""),
).filter(([name]) => name !== "content-security-policy" && name !== REQUEST_ID_HEADER);
