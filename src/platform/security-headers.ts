/**
 * Response headers every answer carries, after the OWASP REST Security and HTTP Headers
 * cheat sheets. Built once at module load; the request path only copies them.
 */
import { REQUEST_ID_HEADER } from "./request-id";

/**
 * The features `Permissions-Policy` denies: every one the answers do not use, which is all
 * of them (no answer runs script: CSP `default-src 'none'`). The list is the union of the
 * W3C Permissions Policy registry (webappsec-permissions-policy, features.md: its
 * standardized and proposed features) and the OWASP Secure Headers Project's recommended
 * value, so it has a stated source rather than one browser's changing inventory. Left out,
 * each for a reason:
 * - `ambient-light-sensor`, `battery`, `document-domain`, `execution-while-not-rendered`,
 *   `execution-while-out-of-viewport`, `navigation-override`: no shipping browser knows
 *   them as policy features (Chromium reports each as unrecognised, which the browser
 *   check counts as a failure); `interest-cohort`: FLoC was withdrawn;
 * - Client Hints (`ch-*`): not a capability, they delegate hints to third-party
 *   subresources, and these answers load none;
 * - the registry's `identity-credential-get` is listed as browsers ship it,
 *   `identity-credentials-get`; OWASP's `sync-xhr=(self)` is denied outright (no script).
 * `web-share` stays although Chromium for Linux lacks Web Share (test/tools/browser.ts
 * accepts that one warning): Chrome elsewhere and Safari implement it.
 */
export const PERMISSIONS_POLICY_FEATURES = [
  "accelerometer",
  "autoplay",
  "camera",
  "clipboard-read",
  "clipboard-write",
  "cross-origin-isolated",
  "display-capture",
  "encrypted-media",
  "fullscreen",
  "gamepad",
  "geolocation",
  "gyroscope",
  "hid",
  "identity-credentials-get",
  "idle-detection",
  "keyboard-map",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "picture-in-picture",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "speaker-selection",
  "sync-xhr",
  "unload",
  "usb",
  "web-share",
  "xr-spatial-tracking",
] as const;

/** `feature=()` for each: an empty allowlist, so no origin may use it (W3C Permissions Policy). */
const PERMISSIONS_POLICY = PERMISSIONS_POLICY_FEATURES.map((feature) => `${feature}=()`).join(", ");

/** For API answers (JSON, problems): nothing may load, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * For the platform's HTML pages: only the same-origin stylesheet may load; no script,
 * no inline style, no framing, no forms, no <base> rewriting.
 */
export const HTML_CSP =
  "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Every platform header of a data answer (JSON, XML, text, bytes, problems), as a fresh
 * object an answer is built with: the set the OWASP REST Security Cheat Sheet lists for
 * APIs ("Security Headers": CSP `frame-ancestors 'none'`, HSTS, `X-Content-Type-Options`,
 * `X-Frame-Options`; `Cache-Control` is each answer's own) and CORP. The headers that act
 * only on a document a browser renders are the HTML pages' (DOCUMENT_HEADERS). Written as
 * one object literal on purpose: workerd turns such an object into response headers far
 * faster than a list of pairs or later `headers.set` calls (measured with the benchmark's
 * in-process loops). Callers add their own headers to it; an answer of a kind known in
 * advance is cheaper still through `platformAnswer`.
 */
export function apiHeaders(requestId: string): Record<string, string> {
  return {
    // OWASP: stop browsers from guessing a media type other than the declared one.
    "x-content-type-options": "nosniff",
    // OWASP: legacy framing protection, for browsers without CSP frame-ancestors.
    "x-frame-options": "DENY",
    // RFC 6797: HTTPS only, for two years, subdomains included.
    "strict-transport-security": "max-age=63072000; includeSubDomains",
    "content-security-policy": API_CSP,
    // OWASP Secure Headers: no other origin may embed these answers (against Spectre-style
    // reads through no-cors requests).
    "cross-origin-resource-policy": "same-origin",
    [REQUEST_ID_HEADER]: requestId,
  };
}

/**
 * What the platform's HTML pages carry besides (and their own full CSP): the headers of the
 * OWASP HTTP Headers Cheat Sheet and Secure Headers Project that act only on a document,
 * its navigations and what it loads, so a data answer has no use for them.
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  // OWASP: URLs of this service never leak to other origins through Referer.
  "referrer-policy": "no-referrer",
  // OWASP Secure Headers: no other origin's page shares a browsing context group (COOP);
  // with COEP the pages are cross-origin isolated, and they embed only their same-origin
  // stylesheet, so nothing they load is refused.
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
  // OWASP Secure Headers / W3C Permissions Policy: every feature of the registry and of
  // OWASP's recommendation is denied, since no page uses any (PERMISSIONS_POLICY).
  "permissions-policy": PERMISSIONS_POLICY,
  // OWASP Secure Headers: no Flash or PDF cross-domain policy file is honoured.
  "x-permitted-cross-domain-policies": "none",
};

/** What an answer adds to the platform's headers: its media type, caching and Vary. */
export interface AnswerKind {
  readonly contentType?: string | undefined;
  readonly cacheControl?: string | undefined;
  readonly vary?: string | undefined;
}

/**
 * The platform headers less the request id, with an answer kind's own, built once per kind.
 * The kinds are few (the contract's media types, two caching policies, Vary or not), so the
 * map stays small; the runtime copies a `Headers` given to `new Response`, so no answer
 * shares or changes these.
 */
const PREBUILT = new Map<string, Headers>();

function prebuilt(kind: AnswerKind): Headers {
  const key = `${kind.contentType ?? ""}\n${kind.cacheControl ?? ""}\n${kind.vary ?? ""}`;
  let headers = PREBUILT.get(key);
  if (!headers) {
    const all: Record<string, string> = apiHeaders("");
    delete all[REQUEST_ID_HEADER];
    if (kind.contentType !== undefined) all["content-type"] = kind.contentType;
    if (kind.cacheControl !== undefined) all["cache-control"] = kind.cacheControl;
    if (kind.vary !== undefined) all.vary = kind.vary;
    headers = new Headers(all);
    PREBUILT.set(key, headers);
  }
  return headers;
}

/**
 * An answer with every platform header (`apiHeaders`) and those of its kind, marked
 * complete. The same headers as `apiHeaders` gives, made more cheaply: the headers shared
 * by every answer of a kind are a `Headers` object built once, which workerd copies into
 * the answer natively, and only the request id is set per answer, where `apiHeaders`'
 * object literal has each of its names and values converted on every answer. Measured A/B inside
 * workerd (test/tools/bench/README.md): 0.95× the validated POST's CPU, 0.90× the
 * placeholder's and health's.
 */
export function platformAnswer(
  body: BodyInit | null,
  status: number,
  requestId: string,
  kind: AnswerKind,
): Response {
  const response = new Response(body, { status, headers: prebuilt(kind) });
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return complete(response);
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
