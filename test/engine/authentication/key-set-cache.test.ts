/**
 * The key-set cache alone (src/engine/authentication/key-set-cache.ts), inside workerd: a
 * key-set host served by a mocked `fetch` that refuses, resets, hangs, answers garbage,
 * rotates its keys and comes back, with fake timers wherever time matters. Its freshness
 * follows RFC 9111 within the stated bounds; a failure is "unavailable", never a key set.
 * The keys are FIXTURE JWKs: the cache never verifies anything with them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  freshnessOf,
  KEY_SET_LIMITS,
  KeySetCache,
  type KeySetLookup,
} from "../../../src/engine/authentication/key-set-cache";

const KEY_A = { kty: "EC", crv: "P-256", x: "fixture-x-a", y: "fixture-y-a", kid: "fixture-a" };
const KEY_B = { kty: "EC", crv: "P-256", x: "fixture-x-b", y: "fixture-y-b", kid: "fixture-b" };
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

type Answer = Response | (() => Promise<Response>) | Error;

let urls = 0;
/** A cache of its own URL, whose host gives `answer()` each time it is asked. */
function hostWith(answer: () => Answer) {
  const url = new URL(`https://fixture-idp.test/unit-jwks-${++urls}.json`);
  const inits: (RequestInit | undefined)[] = [];
  const fetched = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const requested = input instanceof Request ? input.url : String(input);
    if (requested !== url.href) throw new TypeError(`unexpected fetch of ${requested}`);
    inits.push(init);
    const given = answer();
    if (given instanceof Error) throw given;
    return typeof given === "function" ? given() : given;
  });
  return { cache: new KeySetCache(url), fetched, inits };
}

const keySet = (keys: unknown[], headers: HeadersInit = {}) => Response.json({ keys }, { headers });
const never = () => new Promise<Response>(() => {});

function keysOf(found: KeySetLookup | "unchanged") {
  if (found === "unchanged" || found.kind !== "keys")
    throw new Error(`expected keys, got ${JSON.stringify(found)}`);
  return found.keySet.keys;
}

function unavailable(found: KeySetLookup | "unchanged") {
  if (found === "unchanged" || found.kind !== "unavailable")
    throw new Error(`expected unavailable, got ${JSON.stringify(found)}`);
  return found;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-03-01T00:00:00Z"));
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a key set from a host that answers", () => {
  it("is fetched once and then served from the cache while fresh", async () => {
    const { cache, fetched } = hostWith(() => keySet([KEY_A]));
    const first = keysOf(await cache.keys());
    expect(first).toEqual([KEY_A]);
    vi.advanceTimersByTime(7 * MINUTE);
    // The same object, so the verifier keeps the keys it imported from it.
    expect(keysOf(await cache.keys())).toBe(first);
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it("is kept 10 min when the host says nothing (RFC 9111 §4.2.2: no heuristic beyond that)", async () => {
    const { cache, fetched } = hostWith(() => keySet([KEY_A]));
    await cache.keys();
    vi.advanceTimersByTime(10 * MINUTE - 1);
    // Within the refresh-ahead window: answered at once, refreshed behind it.
    const background: Promise<unknown>[] = [];
    await cache.keys((work) => background.push(work));
    await Promise.all(background);
    expect(fetched).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10 * MINUTE);
    await cache.keys();
    expect(fetched).toHaveBeenCalledTimes(3);
  });

  it("honours max-age (RFC 9111 §5.2.2.1): not asked again before it ends, asked after", async () => {
    const { cache, fetched } = hostWith(() => keySet([KEY_A], { "cache-control": "max-age=3600" }));
    await cache.keys();
    vi.advanceTimersByTime(47 * MINUTE); // before the last fifth of its lifetime
    await cache.keys();
    expect(fetched).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(14 * MINUTE); // past its expiry
    await cache.keys();
    expect(fetched).toHaveBeenCalledTimes(2);
  });

  it("uses the rotated keys once it is fetched again", async () => {
    let served = [KEY_A];
    const { cache } = hostWith(() => keySet(served, { "cache-control": "max-age=60" }));
    expect(keysOf(await cache.keys())).toEqual([KEY_A]);
    served = [KEY_B];
    vi.advanceTimersByTime(61 * SECOND);
    expect(keysOf(await cache.keys())).toEqual([KEY_B]);
  });

  it("keeps only the public signing keys of a set (RFC 7517 §4.2, RFC 7518 §6)", async () => {
    const { cache } = hostWith(() =>
      keySet([
        KEY_A,
        { kty: "oct", k: "fixture-shared-secret", kid: "fixture-hmac" },
        { ...KEY_B, d: "fixture-private-part" },
        { ...KEY_B, kid: "fixture-enc", use: "enc" },
      ]),
    );
    expect(keysOf(await cache.keys())).toEqual([KEY_A]);
  });
});

describe("how long a key set is fresh (RFC 9111 §4.2.1), within the stated bounds", () => {
  const date = "Sun, 01 Mar 2026 00:00:00 GMT";
  it.each<[string, Record<string, string>, number]>([
    ["no caching headers: the default", {}, 10 * MINUTE],
    ["max-age", { "cache-control": "public, max-age=900" }, 15 * MINUTE],
    [
      "s-maxage before max-age (§5.2.2.10)",
      { "cache-control": "max-age=900, s-maxage=300" },
      5 * MINUTE,
    ],
    ["max-age less Age (§4.2.3)", { "cache-control": "max-age=900", age: "300" }, 10 * MINUTE],
    ["Expires minus Date (§5.3)", { expires: "Sun, 01 Mar 2026 02:00:00 GMT", date }, 2 * HOUR],
    [
      "max-age before Expires",
      { "cache-control": "max-age=120", expires: "Mon, 02 Mar 2026 00:00:00 GMT", date },
      2 * MINUTE,
    ],
    ["an Expires that is not a date: expired, so the minimum", { expires: "0" }, MINUTE],
    ["no-store: the minimum, not every request", { "cache-control": "no-store" }, MINUTE],
    ["no-cache: the minimum", { "cache-control": "no-cache" }, MINUTE],
    ["max-age below the minimum", { "cache-control": "max-age=5" }, MINUTE],
    ["max-age above the maximum", { "cache-control": "max-age=31536000" }, 24 * HOUR],
  ])("%s", (_label, headers, expected) => {
    expect(freshnessOf(new Headers(headers))).toBe(expected);
  });

  it("states its bounds: 60 s to 24 h, 10 min by default, 24 h stale, backoff 1 s to 5 min", () => {
    expect(KEY_SET_LIMITS).toMatchObject({
      minFresh: MINUTE,
      maxFresh: 24 * HOUR,
      defaultFresh: 10 * MINUTE,
      maxStale: 24 * HOUR,
      firstBackoff: SECOND,
      maxBackoff: 5 * MINUTE,
      unknownKeyInterval: 30 * SECOND,
      timeout: 5 * SECOND,
    });
  });
});

describe("a host that fails: unavailable, with the reason and when to retry", () => {
  it.each<[string, () => Answer, RegExp]>([
    [
      "refuses the connection",
      () => new TypeError("fixture: connection refused"),
      /connection refused/,
    ],
    // workerd rejects a reset, an unresolved name or an untrusted certificate with a plain Error.
    ["resets it", () => new Error("Network connection lost."), /Network connection lost/],
    [
      "has an untrusted certificate",
      () => new Error("fixture: TLS peer's certificate is not trusted"),
      /not trusted/,
    ],
    ["answers a 500", () => new Response("fixture: oops", { status: 500 }), /answered 500/],
    [
      "redirects (it could lead off https:)",
      () => new Response(null, { status: 302, headers: { location: "http://fixture-idp.test/" } }),
      /answered 302/,
    ],
    [
      "answers HTML",
      () => new Response("<html>fixture</html>", { headers: { "content-type": "text/html" } }),
      /not JSON/,
    ],
    ["answers JSON that is not a JWK Set", () => Response.json({ fixture: true }), /not a JWK Set/],
    [
      "answers keys that are not objects",
      () => Response.json({ keys: ["fixture"] }),
      /not a JWK Set/,
    ],
    [
      "answers no usable key",
      () => keySet([{ kty: "oct", k: "fixture" }]),
      /no public signing key/,
    ],
    ["answers an empty set", () => keySet([]), /no public signing key/],
  ])("one that %s", async (_label, answer, reason) => {
    const { cache } = hostWith(answer);
    const found = unavailable(await cache.keys());
    expect(found.reason).toMatch(reason);
    expect(found.retryAfter).toBe(1);
  });

  it("a redirect is not followed: the fetch asks for it as it is (a 3xx is a failure above)", async () => {
    const { cache, inits } = hostWith(() => keySet([KEY_A]));
    await cache.keys();
    expect(inits[0]?.redirect).toBe("manual");
  });

  it("one that hangs: the fetch is aborted after 5 s, and the request goes on", async () => {
    const { cache, inits } = hostWith(() => never);
    let settled: KeySetLookup | undefined;
    const pending = cache.keys().then((found) => {
      settled = found;
    });
    await vi.advanceTimersByTimeAsync(KEY_SET_LIMITS.timeout - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(unavailable(settled ?? "unchanged").reason).toMatch(/did not answer within 5 s/);
    expect(inits[0]?.signal?.aborted).toBe(true);
  });
});

describe("one fetch at a time per isolate", () => {
  it("N concurrent requests share one fetch", async () => {
    let release: (response: Response) => void = () => {};
    const { cache, fetched } = hostWith(
      () => () => new Promise<Response>((resolve) => (release = resolve)),
    );
    const all = Promise.all(Array.from({ length: 10 }, () => cache.keys()));
    await vi.advanceTimersByTimeAsync(0);
    release(keySet([KEY_A]));
    for (const found of await all) expect(keysOf(found)).toEqual([KEY_A]);
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it("a fetch its request abandoned strands no one: the others give up on it and fetch anew", async () => {
    const { cache, fetched } = hostWith(() => never);
    void cache.keys();
    await vi.advanceTimersByTimeAsync(0);
    // The first request is cancelled: its timers never fire. (Clearing them resets the
    // fake clock too, so it is set back.)
    const now = Date.now();
    vi.clearAllTimers();
    vi.setSystemTime(now);
    const second = cache.keys();
    await vi.advanceTimersByTimeAsync(KEY_SET_LIMITS.timeout + SECOND);
    expect(unavailable(await second).reason).toMatch(/abandoned/);
    expect(fetched).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SECOND);
    void cache.keys();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetched).toHaveBeenCalledTimes(2);
  });
});

describe("backoff after failures", () => {
  it("stops hammering: no request asks the host before the wait ends, 1 s doubling to 5 min", async () => {
    const { cache, fetched } = hostWith(() => new TypeError("fixture: connection refused"));
    const waits: number[] = [];
    for (let failure = 1; failure <= 12; failure++) {
      const found = unavailable(await cache.keys());
      waits.push(found.retryAfter);
      for (let i = 0; i < 5; i++) await cache.keys();
      expect(fetched).toHaveBeenCalledTimes(failure);
      vi.advanceTimersByTime(found.retryAfter * SECOND);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]);
  });

  it("a host that comes back is used again, and its next outage starts at 1 s", async () => {
    let down = true;
    const { cache, fetched } = hostWith(() =>
      down
        ? new Error("Network connection lost.")
        : keySet([KEY_A], { "cache-control": "max-age=60" }),
    );
    expect(unavailable(await cache.keys()).retryAfter).toBe(1);
    vi.advanceTimersByTime(SECOND);
    expect(unavailable(await cache.keys()).retryAfter).toBe(2);
    down = false;
    vi.advanceTimersByTime(2 * SECOND);
    expect(keysOf(await cache.keys())).toEqual([KEY_A]);
    expect(fetched).toHaveBeenCalledTimes(3);
    down = true;
    vi.advanceTimersByTime(24 * HOUR + 2 * MINUTE); // past the stale bound: nothing to serve
    expect(unavailable(await cache.keys()).retryAfter).toBe(1);
  });
});

describe("stale keys while the host is down (RFC 9111 §4.2.4: only when it cannot be reached)", () => {
  it("are used for up to 24 h past expiry, with one warning per outage, then unavailable", async () => {
    let down = false;
    const { cache, fetched } = hostWith(() =>
      down
        ? new TypeError("fixture: connection refused")
        : keySet([KEY_A], { "cache-control": "max-age=60" }),
    );
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const fresh = keysOf(await cache.keys());
    down = true;
    vi.advanceTimersByTime(61 * SECOND);
    expect(keysOf(await cache.keys())).toBe(fresh);
    for (let hour = 1; hour < 24; hour++) {
      vi.advanceTimersByTime(HOUR);
      expect(keysOf(await cache.keys())).toBe(fresh);
    }
    expect(warned).toHaveBeenCalledTimes(1);
    expect(String(warned.mock.calls[0]?.[0])).toContain("connection refused");
    vi.advanceTimersByTime(HOUR);
    const found = unavailable(await cache.keys());
    expect(found.reason).toMatch(/past the time it may be used stale/);
    // Asked once per request here (each came after the backoff ended), never more.
    expect(fetched).toHaveBeenCalledTimes(26);
  });

  it("are not used while the host answers: an expired set waits for the fetch", async () => {
    let served = [KEY_A];
    const { cache } = hostWith(() => keySet(served, { "cache-control": "max-age=60" }));
    await cache.keys();
    served = [KEY_B];
    vi.advanceTimersByTime(2 * MINUTE);
    expect(keysOf(await cache.keys())).toEqual([KEY_B]);
  });

  it("a new outage warns again once the host came back in between", async () => {
    let down = false;
    const { cache } = hostWith(() =>
      down
        ? new TypeError("fixture: connection refused")
        : keySet([KEY_A], { "cache-control": "max-age=60" }),
    );
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const told = vi.spyOn(console, "info").mockImplementation(() => {});
    await cache.keys();
    for (const _outage of [1, 2]) {
      down = true;
      vi.advanceTimersByTime(2 * MINUTE);
      await cache.keys();
      down = false;
      vi.advanceTimersByTime(2 * SECOND);
      await cache.keys();
    }
    expect(warned).toHaveBeenCalledTimes(2);
    expect(told).toHaveBeenCalledTimes(2);
  });
});

describe("refreshed ahead of expiry, behind the answer", () => {
  it("in the last fifth of its lifetime a request is answered at once and the set refreshed through `background`", async () => {
    let served = [KEY_A];
    let hold = false;
    let release: (response: Response) => void = () => {};
    const { cache, fetched } = hostWith(() =>
      hold
        ? () => new Promise<Response>((resolve) => (release = resolve))
        : keySet(served, { "cache-control": "max-age=100" }),
    );
    await cache.keys();
    vi.advanceTimersByTime(79 * SECOND);
    const background: Promise<unknown>[] = [];
    await cache.keys((work) => background.push(work));
    expect(background).toHaveLength(0);
    vi.advanceTimersByTime(2 * SECOND); // 81 s: within the window
    hold = true;
    served = [KEY_B];
    // Answered with the cached set while the host has not answered yet.
    expect(keysOf(await cache.keys((work) => background.push(work)))).toEqual([KEY_A]);
    expect(background).toHaveLength(1);
    expect(fetched).toHaveBeenCalledTimes(2);
    release(keySet(served, { "cache-control": "max-age=100" }));
    await background[0];
    expect(keysOf(await cache.keys())).toEqual([KEY_B]);
    expect(fetched).toHaveBeenCalledTimes(2);
  });

  it("a failed refresh keeps the fresh set and backs off", async () => {
    let down = false;
    const { cache, fetched } = hostWith(() =>
      down
        ? new Error("Network connection lost.")
        : keySet([KEY_A], { "cache-control": "max-age=100" }),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await cache.keys();
    down = true;
    vi.advanceTimersByTime(90 * SECOND);
    const background: Promise<unknown>[] = [];
    await cache.keys((work) => background.push(work));
    await Promise.all(background);
    expect(keysOf(await cache.keys())).toEqual([KEY_A]);
    expect(fetched).toHaveBeenCalledTimes(2);
  });
});

describe("a key id the set does not hold (rotation)", () => {
  it("refetches at most once per 30 s", async () => {
    let served = [KEY_A];
    const { cache, fetched } = hostWith(() => keySet(served));
    await cache.keys();
    served = [KEY_A, KEY_B];
    expect(await cache.refetchForUnknownKey()).toBe("unchanged");
    vi.advanceTimersByTime(29 * SECOND);
    expect(await cache.refetchForUnknownKey()).toBe("unchanged");
    expect(fetched).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(SECOND);
    expect(keysOf(await cache.refetchForUnknownKey())).toEqual([KEY_A, KEY_B]);
    expect(await cache.refetchForUnknownKey()).toBe("unchanged");
    expect(fetched).toHaveBeenCalledTimes(2);
  });

  it("while the host fails is unavailable (the key may be a new one), without asking it during backoff", async () => {
    let down = false;
    const { cache, fetched } = hostWith(() =>
      down ? new TypeError("fixture: connection refused") : keySet([KEY_A]),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await cache.keys();
    down = true;
    vi.advanceTimersByTime(31 * SECOND);
    expect(unavailable(await cache.refetchForUnknownKey()).reason).toMatch(/connection refused/);
    expect(unavailable(await cache.refetchForUnknownKey()).retryAfter).toBe(1);
    expect(fetched).toHaveBeenCalledTimes(2);
  });
});
