/**
 * What every answer of the platform promises, checked from outside: the OWASP headers and
 * the request id, RFC 9457 problem documents with `no-store` for errors, `Allow` on 405,
 * an empty body for HEAD, no stack trace, file path or echoed input in any body, and CORS
 * headers exactly as the deployment's setting (its status report) says.
 */
import { PERMISSIONS_POLICY_FEATURES } from "../../../src/platform/security-headers";

export interface Expectation {
  /** The status; 0 with `notStatus` when any answer but those (and no 5xx) will do. */
  readonly status: number;
  readonly notStatus?: readonly number[];
  /** Headers the answer must carry with exactly these values; null: must not carry. */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** The media type the answer must have (for problems it is always application/problem+json). */
  readonly mediaType?: string;
  /** The problem's `type`; `about:blank` is expected for a status with no type of its own. */
  readonly type?: string;
  /** Extension members the problem must carry, compared as JSON. */
  readonly members?: Readonly<Record<string, unknown>>;
  /** Methods `Allow` must list (RFC 9110 §10.2.1); HEAD follows GET. */
  readonly allow?: readonly string[];
  readonly noStore?: boolean;
  readonly wwwAuthenticate?: boolean;
  /** A 422 problem lists its violations. */
  readonly errors?: boolean;
  /**
   * The failure is answered as an error type's own body in this media type (part 7), not
   * as an RFC 9457 problem document: its status and media type are checked, not its shape.
   */
  readonly ownBody?: string;
  /** An HTML page: its CSP must allow the stylesheet and nothing else. */
  readonly html?: boolean;
  /**
   * Any status will do here: the caller holds the answer to what the document documents
   * for the operation (./documented.ts); a problem must still be a well-formed one.
   */
  readonly documentedOnly?: boolean;
  /** The CORS grant the answer must carry; none when absent. */
  readonly cors?: CorsGrant;
}

/** A deployment's CORS setting, as its status report states it. */
export interface CorsSetting {
  readonly enabled: boolean;
  readonly origins: readonly string[];
  readonly credentials?: boolean;
  readonly maxAgeSeconds?: number;
}

/** What a deployment whose report says nothing of CORS is held to: off. */
export const CORS_OFF: CorsSetting = { enabled: false, origins: [] };

/**
 * What CORS grants an answer (the Fetch Standard's CORS protocol): nothing, an actual
 * answer's grant, or a preflight's.
 */
export type CorsGrant =
  | { readonly kind: "none" }
  | { readonly kind: "actual"; readonly allowOrigin: string; readonly credentials: boolean }
  | {
      readonly kind: "preflight";
      readonly allowOrigin: string;
      readonly credentials: boolean;
      readonly method: string;
      readonly headers: readonly string[];
      readonly maxAge: number;
    };

export interface Probe {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | FormData | Uint8Array<ArrayBuffer>;
  /** Signs the request before it is sent, where its credential is made per request. */
  readonly sign?: (request: Request) => Promise<Request>;
  readonly expect: Expectation;
  /** What the served document says of this answer, where the probe is of an operation. */
  readonly documented?: (response: Response, text: string) => string[];
}

export interface Answer {
  readonly response: Response;
  readonly text: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** A stack frame or a source location: what an error must never show a client. */
const LEAKS = /\n\s+at |\bat \S+ \(|\.(?:ts|js|mjs):\d+|file:\/\/|node_modules|\/src\//;

/** The headers that act only on a document a browser renders (src/platform/security-headers.ts). */
const DOCUMENT_ONLY = [
  "referrer-policy",
  "cross-origin-opener-policy",
  "cross-origin-embedder-policy",
  "permissions-policy",
  "x-permitted-cross-domain-policies",
];

/** OWASP REST Security Cheat Sheet and RFC 6797, plus the request id. */
function headerFailures(response: Response, html: boolean): string[] {
  const h = response.headers;
  const failures: string[] = [];
  const expectHeader = (name: string, ok: (value: string) => boolean) => {
    const value = h.get(name);
    if (value === null || !ok(value)) failures.push(`header ${name} is ${JSON.stringify(value)}`);
  };
  expectHeader("x-content-type-options", (v) => v === "nosniff");
  expectHeader("x-frame-options", (v) => v === "DENY");
  expectHeader("strict-transport-security", (v) => /max-age=\d+/.test(v));
  expectHeader("content-security-policy", (v) => {
    const ok = v.includes("default-src 'none'") && v.includes("frame-ancestors 'none'");
    return ok && !v.includes("unsafe") && (!html || v.includes("style-src 'self'"));
  });
  expectHeader("x-request-id", (v) => REQUEST_ID.test(v));
  // OWASP Secure Headers: no other origin may embed an answer.
  expectHeader("cross-origin-resource-policy", (v) => v === "same-origin");
  // The headers that act only on a document: an HTML page's, no data answer's.
  if (!html) {
    for (const name of DOCUMENT_ONLY)
      if (h.has(name)) failures.push(`header ${name} is on a data answer`);
  } else {
    expectHeader("referrer-policy", (v) => v === "no-referrer");
    expectHeader("cross-origin-opener-policy", (v) => v === "same-origin");
    expectHeader("x-permitted-cross-domain-policies", (v) => v === "none");
    expectHeader("cross-origin-embedder-policy", (v) => v === "require-corp");
    // W3C Permissions Policy: every feature the platform lists denied, none granted.
    expectHeader("permissions-policy", (v) => {
      const entries = v.split(",").map((entry) => entry.trim());
      return (
        entries.every((entry) => /^[a-z-]+=\(\)$/.test(entry)) &&
        PERMISSIONS_POLICY_FEATURES.every((feature) => entries.includes(`${feature}=()`))
      );
    });
  }
  if (h.has("x-powered-by")) failures.push("header x-powered-by is present");
  return failures;
}

const listOf = (value: string | null) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== "");

/**
 * CORS exactly as the setting says: no grant unless the probe expects one (and never for a
 * request without Origin), the expected one otherwise; `Vary: Origin` on every answer while
 * CORS is on and on none while it is off (Fetch Standard, "CORS protocol and HTTP caches").
 */
function corsFailures(probe: Probe, response: Response, setting: CorsSetting): string[] {
  const h = response.headers;
  const failures: string[] = [];
  const varies = listOf(h.get("vary")).includes("origin");
  if (setting.enabled && !varies) failures.push("Vary lacks Origin while CORS is on");
  if (!setting.enabled && varies) failures.push("Vary names Origin while CORS is off");
  const grant = probe.expect.cors ?? { kind: "none" };
  if (grant.kind === "none") {
    const origin = new Headers(probe.headers).get("origin");
    for (const name of h.keys())
      if (name.startsWith("access-control-"))
        failures.push(
          origin === null
            ? `CORS header ${name} is present without an Origin`
            : `CORS header ${name} is present for ${origin}, which the setting does not allow`,
        );
    return failures;
  }
  const exactly = (name: string, value: string | null) => {
    if (h.get(name) !== value)
      failures.push(
        `header ${name} is ${JSON.stringify(h.get(name))}, not ${JSON.stringify(value)}`,
      );
  };
  exactly("access-control-allow-origin", grant.allowOrigin);
  exactly("access-control-allow-credentials", grant.credentials ? "true" : null);
  if (grant.kind === "actual") {
    if (!listOf(h.get("access-control-expose-headers")).includes("x-request-id"))
      failures.push("Access-Control-Expose-Headers lacks X-Request-Id");
    return failures;
  }
  if (!listOf(h.get("access-control-allow-methods")).includes(grant.method.toLowerCase()))
    failures.push(`Access-Control-Allow-Methods lacks ${grant.method}`);
  const allowed = listOf(h.get("access-control-allow-headers"));
  for (const header of grant.headers)
    if (!allowed.includes(header)) failures.push(`Access-Control-Allow-Headers lacks ${header}`);
  exactly("access-control-max-age", String(grant.maxAge));
  const vary = listOf(h.get("vary"));
  for (const name of ["origin", "access-control-request-method", "access-control-request-headers"])
    if (!vary.includes(name)) failures.push(`a preflight's Vary lacks ${name}`);
  return failures;
}

/** RFC 9457 §3.1: the members' types, `status` equal to the HTTP status, plus the request id. */
function problemFailures(answer: Answer, expect: Expectation): string[] {
  const { response, text } = answer;
  const failures: string[] = [];
  if (response.headers.get("content-type") !== "application/problem+json")
    failures.push(
      `content-type is ${response.headers.get("content-type")}, not application/problem+json`,
    );
  if (response.headers.get("cache-control") !== "no-store")
    failures.push(
      `cache-control is ${JSON.stringify(response.headers.get("cache-control"))}, not no-store`,
    );
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return [...failures, "the body is not a JSON object"];
    body = parsed as Record<string, unknown>;
  } catch {
    return [...failures, "the body is not JSON"];
  }
  if (typeof body.type !== "string") failures.push("member type is not a string");
  if (typeof body.title !== "string" || body.title === "")
    failures.push("member title is not a non-empty string");
  if (body.status !== response.status)
    failures.push(`member status ${String(body.status)} differs from the HTTP status`);
  if (body.detail !== undefined && typeof body.detail !== "string")
    failures.push("member detail is not a string");
  if (body.instance !== undefined && typeof body.instance !== "string")
    failures.push("member instance is not a string");
  if (body.requestId !== response.headers.get("x-request-id"))
    failures.push("member requestId differs from X-Request-Id");
  if (expect.type !== undefined && body.type !== expect.type)
    failures.push(`type is ${String(body.type)}, not ${expect.type}`);
  for (const [name, value] of Object.entries(expect.members ?? {})) {
    if (JSON.stringify(body[name]) !== JSON.stringify(value))
      failures.push(
        `member ${name} is ${JSON.stringify(body[name])}, not ${JSON.stringify(value)}`,
      );
  }
  if (expect.errors && (!Array.isArray(body.errors) || body.errors.length === 0))
    failures.push("member errors does not list the violations");
  return failures;
}

/**
 * The strings of the served document that look like a leak themselves (a repository URL
 * with /src/ in a description, an example path): text the contract holds is not a leak.
 */
export function contractText(document: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node === "string") {
      if (!LEAKS.test(node)) return;
      found.add(node);
      // A page (the API reference) shows a text's paragraphs apart, and its lines: each is
      // the contract's too.
      for (const part of [...node.split(/\n\s*\n/), ...node.split("\n")])
        if (LEAKS.test(part)) found.add(part.trim());
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(document);
  // Longest first, so a string that holds another is taken out whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/** A page's text as written before it was escaped for HTML (the characters pages escape). */
const unescapeHtml = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&#x0*27;/gi, "'")
    .replace(/&amp;/g, "&");

/**
 * Whether a body shows a stack trace or a source path, apart from the contract's own text
 * (which a page shows escaped for HTML: Bitbucket's "a member of\n  at least one team" in a
 * description with an apostrophe looked like a stack frame).
 */
function leaks(text: string, allowed: readonly string[]): boolean {
  if (!LEAKS.test(text)) return false;
  let rest = unescapeHtml(text);
  for (const known of allowed) {
    rest = rest.replaceAll(known, "");
    // The same text as a JSON string (escaped quotes, slashes, newlines).
    const escaped = JSON.stringify(known).slice(1, -1);
    if (escaped !== known) rest = rest.replaceAll(escaped, "");
  }
  return LEAKS.test(rest);
}

/**
 * Every failure of one answer; empty when it keeps every promise. `allowed`: text of the
 * contract that may look like a leak; `cors`: the deployment's setting, from its report.
 */
export function checkAnswer(
  probe: Probe,
  answer: Answer,
  marker: string,
  allowed: readonly string[] = [],
  cors: CorsSetting = CORS_OFF,
): string[] {
  const { response, text } = answer;
  const { expect } = probe;
  const failures: string[] = [];
  if (expect.documentedOnly) {
    // The status is held to the document by the caller.
  } else if (expect.notStatus) {
    if (expect.notStatus.includes(response.status) || response.status >= 500)
      failures.push(
        `status ${response.status}, expected none of ${expect.notStatus.join(", ")} or 5xx`,
      );
  } else if (response.status !== expect.status)
    failures.push(`status ${response.status}, expected ${expect.status}`);
  for (const [name, value] of Object.entries(expect.headers ?? {}))
    if (response.headers.get(name) !== value)
      failures.push(
        `header ${name} is ${JSON.stringify(response.headers.get(name))}, not ${JSON.stringify(value)}`,
      );
  failures.push(...headerFailures(response, expect.html === true));
  failures.push(...corsFailures(probe, response, cors));
  if (probe.method === "HEAD") {
    if (text !== "") failures.push("a HEAD answer has a body");
  } else if (expect.documentedOnly) {
    if (
      response.status >= 400 &&
      response.headers.get("content-type") === "application/problem+json"
    )
      failures.push(...problemFailures(answer, { status: response.status }));
  } else if (expect.ownBody) {
    const type = response.headers.get("content-type")?.split(";")[0]?.trim();
    if (type !== expect.ownBody) failures.push(`content-type is ${type}, not ${expect.ownBody}`);
    if (response.headers.get("cache-control") !== "no-store")
      failures.push("cache-control is not no-store");
  } else if (expect.status >= 400) {
    failures.push(...problemFailures(answer, expect));
  } else if (expect.mediaType) {
    const type = response.headers.get("content-type")?.split(";")[0]?.trim();
    if (type !== expect.mediaType)
      failures.push(`content-type is ${type}, not ${expect.mediaType}`);
  }
  if (expect.noStore && response.headers.get("cache-control") !== "no-store")
    failures.push("cache-control is not no-store");
  if (expect.allow) {
    const allow = (response.headers.get("allow") ?? "").split(",").map((m) => m.trim());
    const wanted = [...expect.allow, ...(expect.allow.includes("GET") ? ["HEAD"] : [])];
    const missing = wanted.filter((m) => !allow.includes(m));
    if (missing.length > 0) failures.push(`Allow lacks ${missing.join(", ")}`);
    if (allow.includes(probe.method) && response.status === 405)
      failures.push(`Allow lists ${probe.method}, which was refused`);
  }
  if (expect.wwwAuthenticate && !response.headers.get("www-authenticate"))
    failures.push("a 401 without WWW-Authenticate");
  if (leaks(text, allowed)) failures.push("the body shows a stack trace or a source path");
  if (text.includes(marker)) failures.push("the body echoes the request");
  return failures;
}
