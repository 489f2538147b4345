/**
 * A JWT scheme's key set (a JWK Set, RFC 7517 §5) fetched from its `https:` URL and kept
 * for the isolate's life, one cache per URL: a token is verified against the cached keys,
 * so the key-set host is asked only when they go stale, and its outages cost as little as
 * they can. Plain data only (no jose), so the rules are tested on their own
 * (test/engine/authentication/key-set-cache.test.ts). Freshness (RFC 9111 §4.2.1, within
 * {@link KEY_SET_LIMITS}), refresh ahead of expiry, stale use (§4.2.4), shared fetches and
 * backoff: src/engine/authentication/README.md, "The key-set cache".
 */
import { log } from "../../platform/log";

/**
 * The cache's bounds, in milliseconds. Why these: the lifetime bounds keep a host's
 * `no-store` (or a typo of `max-age=1`) from making every request depend on it, and a
 * year-long `max-age` from keeping a revoked key for a year; 10 min is jose's default and
 * what most providers' rotation overlap allows; 24 h of staleness rides out a long outage
 * of the provider while bounding how long a key it has since withdrawn is still trusted.
 */
export const KEY_SET_LIMITS = {
  /** The shortest time a fetched set is fresh, whatever the host says (`no-store` too). */
  minFresh: 60_000,
  /** The longest time a fetched set is fresh, whatever the host says. */
  maxFresh: 86_400_000,
  /** How long a set is fresh when the host sends no caching headers. */
  defaultFresh: 600_000,
  /** The share of its lifetime after which a fresh set is refreshed in the background. */
  refreshAhead: 0.8,
  /** How long past expiry a set is still used while its host cannot be reached. */
  maxStale: 86_400_000,
  /** The first wait after a failed fetch; it doubles with each failure in a row. */
  firstBackoff: 1_000,
  /** The longest wait between fetches of a host that keeps failing. */
  maxBackoff: 300_000,
  /** A token with a key id the set lacks refetches it at most this often. */
  unknownKeyInterval: 30_000,
  /** A fetch, body included, that takes longer has failed. */
  timeout: 5_000,
} as const;

/** A JWK Set as fetched: its `keys`, every one an object (RFC 7517 §5). */
export interface JwkSet {
  readonly keys: readonly Readonly<Record<string, unknown>>[];
}

/** What a request may verify against. */
export type KeySetLookup =
  /** `keySet` is the same object until the set is refetched, so its imported keys can be kept. */
  | { readonly kind: "keys"; readonly keySet: JwkSet }
  /** No usable set: why (for the log) and after how many seconds the host is asked again. */
  | { readonly kind: "unavailable"; readonly reason: string; readonly retryAfter: number };

/** Runs work past the answer (`ExecutionContext.waitUntil`); without it, the work just runs. */
export type Background = (work: Promise<unknown>) => void;

interface Cached {
  readonly keySet: JwkSet;
  readonly refreshAt: number;
  readonly expiresAt: number;
}

/** A failed fetch: what to log, never the body or anything of a token. */
class KeySetFetchError extends Error {}

/** Parses the `Cache-Control` directives (RFC 9111 §5.2) into lower-cased names and values. */
function directives(header: string | null): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", value = ""] = part.split("=", 2).map((s) => s.trim());
    if (name) found.set(name.toLowerCase(), value.replace(/^"|"$/g, ""));
  }
  return found;
}

/** Delta-seconds (RFC 9111 §1.2.2) in milliseconds; undefined when not a number of seconds. */
function seconds(value: string | null | undefined): number | undefined {
  return value !== null && value !== undefined && /^\d+$/.test(value)
    ? Number(value) * 1000
    : undefined;
}

/** How long a response stays fresh (RFC 9111 §4.2.1, §4.2.3), within the cache's bounds. */
export function freshnessOf(headers: Headers): number {
  const control = directives(headers.get("cache-control"));
  let lifetime: number;
  if (control.has("no-store") || control.has("no-cache")) lifetime = 0;
  else {
    const maxAge = seconds(control.get("s-maxage")) ?? seconds(control.get("max-age"));
    const expires = headers.get("expires");
    if (maxAge !== undefined) lifetime = maxAge;
    else if (expires !== null) {
      // §5.3: an Expires that is not a date means "already expired".
      const date = Date.parse(headers.get("date") ?? "");
      const at = Date.parse(expires);
      lifetime = Number.isNaN(at) ? 0 : at - (Number.isNaN(date) ? Date.now() : date);
    } else lifetime = KEY_SET_LIMITS.defaultFresh;
    lifetime -= seconds(headers.get("age")) ?? 0;
  }
  return Math.min(KEY_SET_LIMITS.maxFresh, Math.max(KEY_SET_LIMITS.minFresh, lifetime));
}

/**
 * Whether a JWK could verify a signature here: a public key of an asymmetric type (RFC 7518
 * §6, RFC 8037), not marked for encryption only (RFC 7517 §4.2). A private or symmetric key
 * in a published set is never used.
 */
function isUsable(key: Readonly<Record<string, unknown>>): boolean {
  return (
    ["RSA", "EC", "OKP"].includes(String(key.kty)) &&
    !("d" in key) &&
    (key.use === undefined || key.use === "sig")
  );
}

/** The JWK Set of a response body, or why it is none. */
function keySetOf(body: string): JwkSet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new KeySetFetchError("the key set's host answered something that is not JSON");
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (
    !Array.isArray(keys) ||
    !keys.every((key) => key !== null && typeof key === "object" && !Array.isArray(key))
  )
    throw new KeySetFetchError("the key set's host answered JSON that is not a JWK Set");
  const usable = (keys as Readonly<Record<string, unknown>>[]).filter(isUsable);
  if (usable.length === 0)
    throw new KeySetFetchError("the key set holds no public signing key (RFC 7517 §5)");
  return { keys: usable };
}

/** Rejects after `ms`, and aborts `controller` then. */
function deadline(
  ms: number,
  controller?: AbortController,
): { promise: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller?.abort();
      reject(new KeySetFetchError(`the key set's host did not answer within ${ms / 1000} s`));
    }, ms);
  });
  return { promise, clear: () => (timer === undefined ? undefined : clearTimeout(timer)) };
}

/**
 * GETs the key set, with its body, within the timeout. Its own timer rather than
 * `AbortSignal.timeout`, so that a host which ignores the abort still cannot hold a request,
 * and so the timeout can be tested with fake timers.
 */
async function fetchKeySet(url: URL): Promise<{ keySet: JwkSet; fresh: number }> {
  const controller = new AbortController();
  const timeout = deadline(KEY_SET_LIMITS.timeout, controller);
  const attempt = (async () => {
    let response: Response;
    try {
      // A redirect is refused as jose refuses it: it could lead off `https:`.
      response = await fetch(url, {
        headers: { accept: "application/jwk-set+json, application/json" },
        redirect: "manual",
        signal: controller.signal,
      });
    } catch (error) {
      // workerd rejects a refused, reset or unresolved connection, or an untrusted
      // certificate, with a plain Error: each is the host's failure, whatever its type.
      const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new KeySetFetchError(`the key set could not be fetched (${why})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new KeySetFetchError(`the key set's host answered ${response.status}`);
    }
    return { keySet: keySetOf(await response.text()), fresh: freshnessOf(response.headers) };
  })();
  try {
    return await Promise.race([attempt, timeout.promise]);
  } finally {
    timeout.clear();
    attempt.catch(() => {});
  }
}

/** The cached key set of one URL, with its fetch, its backoff and its outage's warning. */
export class KeySetCache {
  private cached: Cached | undefined;
  private inFlight: { readonly done: Promise<void>; readonly startedAt: number } | undefined;
  private lastFetch = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private retryAt = 0;
  private lastFailure = "";
  private warned = false;

  constructor(private readonly url: URL) {}

  /** The keys to verify a token against, fetching them first when none are fresh. */
  async keys(background?: Background): Promise<KeySetLookup> {
    const now = Date.now();
    const cached = this.cached;
    if (cached && now < cached.expiresAt) {
      if (now >= cached.refreshAt && this.mayFetch(now)) {
        const refresh = this.join();
        (background ?? ((work) => void work))(refresh);
      }
      return { kind: "keys", keySet: cached.keySet };
    }
    if (this.mayFetch(now)) await this.join();
    return this.lookup();
  }

  /**
   * The set again, refetched if it may be: a token names a key id the set lacks (the host
   * may have rotated). `unchanged` when it may not (fetched within the interval): the key
   * is unknown. While the host is failing, `unavailable`: the key may be a new one.
   */
  async refetchForUnknownKey(): Promise<KeySetLookup | "unchanged"> {
    const now = Date.now();
    if (!this.inFlight || this.isStranded(now)) {
      if (now < this.retryAt) return this.unavailable(now);
      if (now - this.lastFetch < KEY_SET_LIMITS.unknownKeyInterval) return "unchanged";
    }
    await this.join();
    const after = Date.now();
    return this.failures > 0 ? this.unavailable(after) : this.lookup();
  }

  /** Whether a fetch may start (or be joined) now: not while backing off. */
  private mayFetch(now: number): boolean {
    return (this.inFlight !== undefined && !this.isStranded(now)) || now >= this.retryAt;
  }

  /** A fetch whose request was cancelled never settles: past its deadline, it is given up. */
  private isStranded(now: number): boolean {
    return (
      this.inFlight !== undefined && now >= this.inFlight.startedAt + KEY_SET_LIMITS.timeout + 1000
    );
  }

  /** The fetch under way, or a new one; waits for it no longer than its deadline. */
  private async join(): Promise<void> {
    const now = Date.now();
    if (!this.inFlight || this.isStranded(now)) {
      const done = this.fetchOnce();
      const started = { done, startedAt: now };
      this.inFlight = started;
      done.finally(() => {
        if (this.inFlight === started) this.inFlight = undefined;
      });
    }
    const flight = this.inFlight;
    const wait = deadline(flight.startedAt + KEY_SET_LIMITS.timeout + 1000 - now);
    try {
      await Promise.race([flight.done, wait.promise]);
    } catch {
      // Its request was cancelled, so the fetch never settles: the next request fetches
      // anew, and this one goes on with what the cache holds.
      if (this.inFlight === flight) {
        this.inFlight = undefined;
        this.failed("a fetch of the key set was abandoned by its request");
      }
    } finally {
      wait.clear();
    }
  }

  /** One fetch; never rejects. */
  private async fetchOnce(): Promise<void> {
    this.lastFetch = Date.now();
    try {
      const { keySet, fresh } = await fetchKeySet(this.url);
      const now = Date.now();
      this.cached = {
        keySet,
        refreshAt: now + fresh * KEY_SET_LIMITS.refreshAhead,
        expiresAt: now + fresh,
      };
      if (this.warned)
        log("info", "the key set of a JWT scheme could be fetched again", {
          keySetUrl: this.url.href,
          failures: this.failures,
        });
      this.failures = 0;
      this.retryAt = 0;
      this.warned = false;
    } catch (error) {
      this.failed(
        error instanceof KeySetFetchError
          ? error.message
          : `the key set could not be fetched (${String(error)})`,
      );
    }
  }

  /** A failed fetch: the next waits twice as long as the last, up to the bound. */
  private failed(reason: string): void {
    this.failures += 1;
    this.lastFailure = reason;
    this.retryAt =
      Date.now() +
      Math.min(KEY_SET_LIMITS.maxBackoff, KEY_SET_LIMITS.firstBackoff * 2 ** (this.failures - 1));
    this.warnOnce();
  }

  /** Once per outage, while a cached set is still used: the operator should know. */
  private warnOnce(): void {
    const cached = this.cached;
    if (this.warned || !cached || Date.now() >= cached.expiresAt + KEY_SET_LIMITS.maxStale) return;
    this.warned = true;
    log("warn", "the key set of a JWT scheme could not be refreshed; the cached keys are used", {
      keySetUrl: this.url.href,
      reason: this.lastFailure,
      freshUntil: new Date(cached.expiresAt).toISOString(),
      usedUntil: new Date(cached.expiresAt + KEY_SET_LIMITS.maxStale).toISOString(),
    });
  }

  /** What the cache holds now: a fresh set, a stale one within the bound, or nothing. */
  private lookup(): KeySetLookup {
    const now = Date.now();
    const cached = this.cached;
    if (cached && now < cached.expiresAt + (this.failures > 0 ? KEY_SET_LIMITS.maxStale : 0))
      return { kind: "keys", keySet: cached.keySet };
    return this.unavailable(now);
  }

  private unavailable(now: number): KeySetLookup {
    const stale = this.cached && now >= this.cached.expiresAt + KEY_SET_LIMITS.maxStale;
    return {
      kind: "unavailable",
      reason: [
        this.lastFailure || "the key set has not been fetched",
        `${this.failures} failed fetch${this.failures === 1 ? "" : "es"} in a row`,
        ...(stale ? ["the cached set is past the time it may be used stale"] : []),
      ].join("; "),
      retryAfter: Math.max(1, Math.ceil((this.retryAt - now) / 1000)),
    };
  }
}

/** One cache per key-set URL, for the isolate's life. */
const caches = new Map<string, KeySetCache>();

/** The isolate's cache of the key set at `url`. */
export function keySetCache(url: URL): KeySetCache {
  let cache = caches.get(url.href);
  if (!cache) {
    cache = new KeySetCache(url);
    caches.set(url.href, cache);
  }
  return cache;
}
