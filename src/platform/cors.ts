/**
 * CORS (the Fetch Standard's "CORS protocol") as a deployment setting, never part of
 * the service's interface: which origins a browser may call from, whether with credentials,
 * and how long a preflight may be reused. The three Worker vars are read from the request's
 * env and parsed once per isolate while they stay the same. Empty (the default), CORS is off:
 * no CORS header and no `Vary: Origin` is sent, and a request pays one property read.
 *
 * What a resource allows is derived, never configured: the methods of its path, the request
 * headers its operations declare or the platform reads, and the answer headers a script may
 * read (`CorsResource`, from the contract by the engine).
 */
import { log } from "./log";
import { REQUEST_ID_HEADER } from "./request-id";

/** The Worker vars of the setting (wrangler.toml `[vars]`, generated block). */
export const CORS_VARS = {
  origins: "CORS_ALLOWED_ORIGINS",
  credentials: "CORS_ALLOW_CREDENTIALS",
  maxAge: "CORS_MAX_AGE",
} as const;

/** The setting as the Worker's env holds it; any var may be missing. */
export interface CorsEnv {
  readonly CORS_ALLOWED_ORIGINS?: unknown;
  readonly CORS_ALLOW_CREDENTIALS?: unknown;
  readonly CORS_MAX_AGE?: unknown;
}

/**
 * A preflight's answer may be reused this long when the setting names no max age: ten
 * minutes, so a changed setting reaches every browser within that.
 */
export const DEFAULT_MAX_AGE = 600;
/**
 * The longest max age accepted: Chromium caps it at two hours (Firefox at a day), so a
 * longer one would only look longer.
 */
export const MAX_MAX_AGE = 7200;

/** What the deployment allows, parsed. */
interface CorsPolicy {
  /** The exact origins allowed, or `"*"`: any origin, without credentials. */
  readonly origins: ReadonlySet<string> | "*";
  readonly credentials: boolean;
  /** Seconds a browser may reuse a preflight's answer (`Access-Control-Max-Age`). */
  readonly maxAge: number;
}

/** The setting: off (the default), refused (then off, fail-closed, with a log line), or on. */
export type CorsSetting =
  | { readonly state: "off" }
  | { readonly state: "refused"; readonly reason: string }
  | { readonly state: "on"; readonly policy: CorsPolicy };

const OFF: CorsSetting = { state: "off" };

const text = (value: unknown): string =>
  value === undefined || value === null ? "" : String(value).trim();

/** One entry of the origins list: an exact serialised origin (RFC 6454 §6.2), http or https. */
function originError(entry: string): string | undefined {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `${JSON.stringify(entry)} is not an origin (scheme://host[:port])`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `${JSON.stringify(entry)} is not an http or https origin`;
  if (url.origin !== entry)
    return `${JSON.stringify(entry)} is not written as an origin: ${url.origin}`;
  return undefined;
}

/**
 * Parses the three vars. Anything unclear is refused as a whole rather than half applied:
 * a wrong setting then blocks cross-origin calls (fail-closed) instead of opening them.
 */
export function parseCors(origins: unknown, credentials: unknown, maxAge: unknown): CorsSetting {
  const list = text(origins)
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (list.length === 0) return OFF;
  const refuse = (reason: string): CorsSetting => ({ state: "refused", reason });

  const allowCredentials = text(credentials).toLowerCase();
  if (allowCredentials !== "" && allowCredentials !== "true" && allowCredentials !== "false")
    return refuse(`${CORS_VARS.credentials} must be "true" or "false"`);
  const withCredentials = allowCredentials === "true";

  const age = text(maxAge);
  if (age !== "" && !(/^\d{1,5}$/.test(age) && Number(age) <= MAX_MAX_AGE))
    return refuse(`${CORS_VARS.maxAge} must be a whole number of seconds from 0 to ${MAX_MAX_AGE}`);
  const seconds = age === "" ? DEFAULT_MAX_AGE : Number(age);

  if (list.includes("*")) {
    if (list.length > 1) return refuse(`${CORS_VARS.origins}: "*" stands alone or not at all`);
    // Fetch Standard, "CORS protocol and credentials": `*` does not match a request with
    // credentials; the origin
    // itself must be named, so "any origin, with credentials" is refused, not widened.
    if (withCredentials)
      return refuse(
        `${CORS_VARS.origins} "*" with ${CORS_VARS.credentials} "true": the Fetch Standard does not allow credentials with any origin; list the origins`,
      );
    return { state: "on", policy: { origins: "*", credentials: false, maxAge: seconds } };
  }
  for (const entry of list) {
    const error = originError(entry);
    if (error) return refuse(`${CORS_VARS.origins}: ${error}`);
  }
  return {
    state: "on",
    policy: { origins: new Set(list), credentials: withCredentials, maxAge: seconds },
  };
}

let cached:
  | {
      readonly origins: unknown;
      readonly credentials: unknown;
      readonly maxAge: unknown;
      readonly setting: CorsSetting;
    }
  | undefined;

/**
 * The deployment's setting, parsed once per isolate while its vars stay the same (the same
 * object is returned, so a caller may cache by it). A refused setting is logged once, when
 * it is parsed.
 */
export function corsSetting(env: CorsEnv | undefined): CorsSetting {
  const origins = env?.CORS_ALLOWED_ORIGINS;
  const credentials = env?.CORS_ALLOW_CREDENTIALS;
  const maxAge = env?.CORS_MAX_AGE;
  if (
    cached !== undefined &&
    cached.origins === origins &&
    cached.credentials === credentials &&
    cached.maxAge === maxAge
  )
    return cached.setting;
  const setting = parseCors(origins, credentials, maxAge);
  if (setting.state === "refused")
    log("error", "CORS setting refused: no CORS header is sent", { reason: setting.reason });
  cached = { origins, credentials, maxAge, setting };
  return setting;
}

/** One request while CORS is on: what the answer must carry. */
export interface CorsExchange {
  readonly policy: CorsPolicy;
  /** The request's `Origin` when the policy allows it; undefined when absent or not allowed. */
  readonly origin: string | undefined;
  /** `Access-Control-Expose-Headers`: set by the resource that answers. */
  exposed: string;
  /** A preflight its resource answered in full: nothing is added to it. */
  answered: boolean;
}

/** Exposed by every answer outside a resource (part 4's 501, a 404): its request id. */
const DEFAULT_EXPOSED = REQUEST_ID_HEADER;

/**
 * The CORS state of a request; undefined while CORS is off or refused, which costs one
 * property read when the setting is empty.
 */
export function corsExchange(env: CorsEnv | undefined, request: Request): CorsExchange | undefined {
  if (!env?.CORS_ALLOWED_ORIGINS) return undefined;
  const setting = corsSetting(env);
  if (setting.state !== "on") return undefined;
  const { policy } = setting;
  const origin = request.headers.get("origin");
  const allowed =
    origin !== null && (policy.origins === "*" || policy.origins.has(origin)) ? origin : undefined;
  return { policy, origin: allowed, exposed: DEFAULT_EXPOSED, answered: false };
}

/**
 * Adds CORS to an actual answer (Fetch Standard, the CORS protocol's "HTTP responses"),
 * problems included. `Vary: Origin` on every answer while CORS is on, since the answer
 * depends on the request's Origin (Fetch Standard, "CORS protocol and HTTP caches";
 * RFC 9110 §12.5.5); the grant only for an allowed origin: the
 * origin itself when credentials are allowed (`*` never matches them), the answer headers
 * a script may read, and `Access-Control-Allow-Credentials` when the setting allows them.
 */
export function addCors(response: Response, exchange: CorsExchange): void {
  if (exchange.answered) return;
  const headers = response.headers;
  headers.append("vary", "Origin");
  const origin = exchange.origin;
  if (origin === undefined) return;
  const { policy } = exchange;
  headers.set("access-control-allow-origin", policy.origins === "*" ? "*" : origin);
  if (policy.credentials) headers.set("access-control-allow-credentials", "true");
  headers.set("access-control-expose-headers", exchange.exposed);
}

/** What a resource reads and answers with, for CORS; names in lower case. */
export interface CorsResource {
  /** Request headers it reads: those a preflight may ask for. */
  readonly requestHeaders: readonly string[];
  /** Answer headers a script may read beyond the CORS-safelisted ones. */
  readonly exposedHeaders: readonly string[];
}

/**
 * A resource of the platform: it reads `Accept` and the client's request id (and
 * `Content-Type` where a body is sent), and any answer may carry the request id and, on a
 * 405, `Allow` (RFC 9110 §15.5.6).
 */
export const PLATFORM_CORS: CorsResource = {
  requestHeaders: ["accept", "content-type", REQUEST_ID_HEADER],
  exposedHeaders: [REQUEST_ID_HEADER, "allow"],
};

/** A resource's CORS answers, built once, on the first request that needs them. */
export interface ResourceCors {
  readonly methods: ReadonlySet<string>;
  /** `Access-Control-Allow-Methods`: the methods of the path, as `Allow` lists them. */
  readonly allowMethods: string;
  readonly requestHeaders: ReadonlySet<string>;
  readonly allowHeaders: string;
  readonly exposed: string;
}

/** `allow`: the resource's `Allow` value (RFC 9110 §10.2.1). */
export function resourceCors(allow: string, resource: CorsResource): ResourceCors {
  const requestHeaders = [...new Set(resource.requestHeaders.map((h) => h.toLowerCase()))].sort();
  const exposed = [...new Set(resource.exposedHeaders.map((h) => h.toLowerCase()))].sort();
  return {
    methods: new Set(allow.split(", ")),
    allowMethods: allow,
    requestHeaders: new Set(requestHeaders),
    allowHeaders: requestHeaders.join(", "),
    exposed: exposed.join(", "),
  };
}

/** A preflight's answer depends on these (Fetch Standard, "CORS protocol and HTTP caches"). */
const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

/** Whether every header a preflight asks for is one the resource reads. */
function headersAllowed(asked: string | null, allowed: ReadonlySet<string>): boolean {
  if (asked === null) return true;
  for (const name of asked.split(",")) {
    const header = name.trim().toLowerCase();
    if (header !== "" && !allowed.has(header)) return false;
  }
  return true;
}

/**
 * The answer to a CORS-preflight request (Fetch Standard, "CORS-preflight fetch": an
 * OPTIONS with `Access-Control-Request-Method`); undefined for a plain OPTIONS. Always the 204 with
 * `Allow` (RFC 9110 §9.3.7) and `no-store`: an OPTIONS answer is not for HTTP caches, and
 * the browser keeps a preflight by `Access-Control-Max-Age` alone. The grant (the
 * `Access-Control-Allow-*` headers and the max age) only when the origin is allowed, the
 * method is one of the path's and every header asked for is one the resource reads;
 * otherwise there is none, and the browser does not send the request.
 */
export function preflightAnswer(
  exchange: CorsExchange,
  request: Request,
  resource: ResourceCors,
): Response | undefined {
  const method = request.headers.get("access-control-request-method");
  if (method === null) return undefined;
  exchange.answered = true;
  const headers: Record<string, string> = {
    allow: resource.allowMethods,
    "cache-control": "no-store",
    vary: PREFLIGHT_VARY,
  };
  const { origin, policy } = exchange;
  if (
    origin !== undefined &&
    resource.methods.has(method) &&
    headersAllowed(request.headers.get("access-control-request-headers"), resource.requestHeaders)
  ) {
    headers["access-control-allow-origin"] = policy.origins === "*" ? "*" : origin;
    if (policy.credentials) headers["access-control-allow-credentials"] = "true";
    headers["access-control-allow-methods"] = resource.allowMethods;
    if (resource.allowHeaders !== "")
      headers["access-control-allow-headers"] = resource.allowHeaders;
    headers["access-control-max-age"] = String(policy.maxAge);
  }
  return new Response(null, { status: 204, headers });
}

/** How the status report shows the setting: not a secret. */
export interface CorsStatus {
  readonly enabled: boolean;
  /** The origins allowed; `["*"]` for any. Empty while CORS is off. */
  readonly origins: readonly string[];
  /** While enabled: whether credentials are allowed, and the preflight max age. */
  readonly credentials?: boolean;
  readonly maxAgeSeconds?: number;
  /** Why the deployment's setting was refused; CORS is then off. */
  readonly refused?: string;
}

/** The status report's view of a setting. */
export function corsStatus(setting: CorsSetting): CorsStatus {
  if (setting.state === "off") return { enabled: false, origins: [] };
  if (setting.state === "refused") return { enabled: false, origins: [], refused: setting.reason };
  const { origins, credentials, maxAge } = setting.policy;
  return {
    enabled: true,
    origins: origins === "*" ? ["*"] : [...origins],
    credentials,
    maxAgeSeconds: maxAge,
  };
}
