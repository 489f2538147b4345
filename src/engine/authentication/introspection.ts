/**
 * Opaque bearer tokens, verified by OAuth 2.0 Token Introspection (RFC 7662): the Worker
 * asks the deployment's authorization server whether a token is active, authenticating as
 * its client (§2.1, HTTP Basic), and reads the answer's `active`, `exp`, `nbf`, `aud`,
 * `scope`, `sub` and `iss` (§2.2). An answer is kept for the isolate's life, within the
 * token's own lifetime and at most 5 minutes, so a revoked token is refused within that
 * time; a refusal is kept 30 seconds; concurrent requests with one token ask once. A server
 * that cannot be asked, or answers something else, makes the token unverifiable (503), never
 * valid. The token itself is never logged nor kept: only its SHA-256.
 *
 * A deployment may pin its tokens instead (and local development does): the endpoint's
 * setting is then a JSON object of known tokens by their SHA-256, each with its answer.
 */
import type { TokenIntrospection } from "../../contract-language/contract";
import { stringClaims } from "./credentials";
import type { JwtOutcome } from "./verify-jwt";

/** An authorization server to ask, as the Worker's client of it. */
interface Endpoint {
  readonly endpoint: URL;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly audience: string | undefined;
}

/** The deployment's side of an introspection scheme, read from the secrets it names. */
export type IntrospectionSettings =
  | Endpoint
  | {
      readonly tokens: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
      readonly audience: string | undefined;
    };

/** The settings a scheme's secrets hold; a reason when they cannot be used. */
function introspectionSettings(
  introspection: TokenIntrospection,
  env: Readonly<Record<string, unknown>>,
): IntrospectionSettings | string {
  const read = (name: string | undefined) => {
    const value = name === undefined ? undefined : env[name];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const endpoint = read(introspection.endpoint);
  const audience = read(introspection.audience);
  if (introspection.audience !== undefined && audience === undefined)
    return `var ${introspection.audience} is not set`;
  if (!endpoint) return `var ${introspection.endpoint} is not set`;
  if (endpoint.startsWith("{")) {
    try {
      const tokens = (JSON.parse(endpoint) as { tokens?: unknown }).tokens;
      if (tokens !== null && typeof tokens === "object" && !Array.isArray(tokens))
        return { tokens: tokens as Record<string, Record<string, unknown>>, audience };
    } catch {}
    return `var ${introspection.endpoint} holds neither an https: URL nor a JSON object of tokens`;
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `var ${introspection.endpoint} is not a URL`;
  }
  if (url.protocol !== "https:") return `var ${introspection.endpoint} is not an https: URL`;
  const [clientId, clientSecret] = [read(introspection.clientId), read(introspection.clientSecret)];
  if (!clientId || !clientSecret)
    return `var ${[
      !clientId ? introspection.clientId : undefined,
      !clientSecret ? introspection.clientSecret : undefined,
    ]
      .filter(Boolean)
      .join(", ")} is not set`;
  return { endpoint: url, clientId, clientSecret, audience };
}

/** How long an answer is kept: an active token's, and a refusal's. */
const MAX_ACTIVE_SECONDS = 300;
const INACTIVE_SECONDS = 30;
const TIMEOUT_MS = 5000;

interface Kept {
  readonly outcome: JwtOutcome;
  readonly until: number;
}

/**
 * An endpoint that failed is not asked again before its backoff has passed (1 s, doubling
 * to 60 s, reset by an answer): an outage neither hammers the authorization server nor holds
 * every request for the timeout. Tokens whose answer is kept still work meanwhile.
 */
const backoff = new Map<string, { readonly until: number; readonly seconds: number }>();
const MAX_BACKOFF_SECONDS = 60;

/** Answers by endpoint and token digest, and the questions in flight. */
const kept = new Map<string, Kept>();
const asking = new Map<string, Promise<JwtOutcome>>();
/** An isolate keeps at most this many answers; the oldest go first. */
const MAX_KEPT = 10_000;

const hex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** RFC 7662 §2.2: an answer about an active token, held to its times and audience. */
function outcomeOf(answer: Record<string, unknown>, audience: string | undefined): JwtOutcome {
  const now = Date.now() / 1000;
  if (answer.active !== true) return { kind: "invalid" };
  if (typeof answer.exp === "number" && answer.exp <= now) return { kind: "invalid" };
  if (typeof answer.nbf === "number" && answer.nbf > now + 30) return { kind: "invalid" };
  if (audience !== undefined) {
    const aud = Array.isArray(answer.aud) ? answer.aud : [answer.aud];
    if (!aud.includes(audience)) return { kind: "invalid" };
  }
  return {
    kind: "valid",
    issuer: typeof answer.iss === "string" ? answer.iss : "introspection",
    subject: typeof answer.sub === "string" ? answer.sub : undefined,
    scopes: typeof answer.scope === "string" ? answer.scope.split(" ").filter(Boolean) : [],
    claims: stringClaims(answer),
  };
}

async function ask(
  token: string,
  settings: Endpoint,
): Promise<JwtOutcome & { readonly exp?: number }> {
  const authorization = `Basic ${btoa(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`)}`;
  let response: Response;
  try {
    response = await fetch(settings.endpoint, {
      method: "POST",
      headers: {
        authorization,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }),
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return {
      kind: "unavailable",
      reason: `the introspection endpoint could not be reached (${error instanceof Error ? error.name : "error"})`,
    } as const;
  }
  if (!response.ok)
    return {
      kind: "unavailable",
      reason: `the introspection endpoint answered ${response.status}`,
    } as const;
  try {
    const answer = (await response.json()) as unknown;
    if (
      answer === null ||
      typeof answer !== "object" ||
      typeof (answer as { active?: unknown }).active !== "boolean"
    )
      return {
        kind: "unavailable",
        reason: "the introspection endpoint's answer has no active member",
      } as const;
    const exp = (answer as { exp?: unknown }).exp;
    return {
      ...outcomeOf(answer as Record<string, unknown>, settings.audience),
      ...(typeof exp === "number" ? { exp } : {}),
    };
  } catch {
    return {
      kind: "unavailable",
      reason: "the introspection endpoint's answer is not JSON",
    } as const;
  }
}

/** Whether `token` is active, as the deployment's authorization server (or pinned tokens) says. */
async function introspect(token: string, settings: IntrospectionSettings): Promise<JwtOutcome> {
  const digest = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  if ("tokens" in settings) {
    const answer = Object.hasOwn(settings.tokens, digest) ? settings.tokens[digest] : undefined;
    return answer ? outcomeOf(answer, settings.audience) : { kind: "invalid" };
  }
  const key = `${settings.endpoint.href}\n${digest}`;
  const known = kept.get(key);
  if (known && known.until > Date.now()) return known.outcome;
  const pending = asking.get(key);
  if (pending) return pending;
  const failing = backoff.get(settings.endpoint.href);
  if (failing && failing.until > Date.now())
    return {
      kind: "unavailable",
      reason: "the introspection endpoint failed lately and is not asked again yet",
      retryAfter: Math.ceil((failing.until - Date.now()) / 1000),
    };
  const question = ask(token, settings).then((outcome): JwtOutcome => {
    asking.delete(key);
    if (outcome.kind === "unavailable") {
      const seconds = Math.min(failing ? failing.seconds * 2 : 1, MAX_BACKOFF_SECONDS);
      backoff.set(settings.endpoint.href, { until: Date.now() + seconds * 1000, seconds });
      return { ...outcome, retryAfter: seconds };
    }
    backoff.delete(settings.endpoint.href);
    {
      // Kept within the token's own lifetime (its exp), and never longer than the bound.
      const seconds = outcome.kind === "valid" ? MAX_ACTIVE_SECONDS : INACTIVE_SECONDS;
      const until = Math.min(
        Date.now() + seconds * 1000,
        outcome.exp === undefined ? Number.POSITIVE_INFINITY : outcome.exp * 1000,
      );
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(key, { outcome, until });
    }
    const { exp: _exp, ...answer } = outcome;
    return answer;
  });
  asking.set(key, question);
  return question;
}

/**
 * Part 5's token introspection as the serving engine uses it (src/engine/features.ts): in a
 * Worker only when a scheme of part 5 introspects its tokens, so a Worker whose schemes do
 * not ships none of this module.
 */
export const INTROSPECTION_FEATURE = { settings: introspectionSettings, introspect } as const;

export type IntrospectionFeature = typeof INTROSPECTION_FEATURE;
