/**
 * Part 6's deliveries (src/engine/events/deliver.ts), inside workerd, outbound fetch
 * replaced by a function each test gives: Standard Webhooks headers and signature, the
 * retry schedule, Retry-After on 429/503, timeouts, 410, the dead-letter queue, refused
 * destinations, missing keys, rotation, and log lines that carry neither payload nor key.
 */
import { describe, expect, it } from "vitest";
import {
  DELIVERY_TIMEOUT_MS,
  deliverBatch,
  RETRY_SCHEDULE,
} from "../../../src/engine/events/deliver";
import { verifyWebhook } from "../../../src/engine/events/signature";
import {
  eventMessage,
  type FixtureMessage,
  FixtureQueue,
  logsOf,
  message,
  newWebhookSecret,
} from "../../support/events";

interface Sent {
  readonly url: string;
  readonly init: RequestInit;
}

function receiver(answer: (n: number) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetcher = async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return answer(sent.length);
  };
  return { sent, fetcher };
}

function bindings(secret = newWebhookSecret()) {
  const deadLetters = new FixtureQueue();
  return {
    secret,
    deadLetters,
    env: { FIXTURE_WEBHOOK_SECRET: secret, EVENTS_DEAD_LETTER: deadLetters } as Record<
      string,
      unknown
    >,
  };
}

async function deliver(
  m: FixtureMessage,
  env: Record<string, unknown>,
  fetcher: ReturnType<typeof receiver>["fetcher"],
) {
  await deliverBatch({ messages: [m] }, env, fetcher);
}

describe("a payload that already is an envelope (part 6's envelope: payload)", () => {
  it("is the whole body, not wrapped again, and still signed with the Standard Webhooks headers", async () => {
    const { env, secret } = bindings();
    const { sent, fetcher } = receiver(() => new Response(null, { status: 204 }));
    const data = {
      type: "fixture.parcel.shipped",
      created_at: "2026-11-22T00:00:00Z",
      data: { id: "p1" },
    };
    const m = message(eventMessage({ data, bare: true }));
    await deliver(m, env, fetcher);
    const body = String(sent[0]?.init.body);
    expect(JSON.parse(body)).toEqual(data);
    const headers = new Headers(sent[0]?.init.headers);
    expect(await verifyWebhook(secret, headers, body)).toMatchObject({
      ok: true,
      id: "msg_fixture1",
    });
  });
});

describe("a webhook delivery (Standard Webhooks)", () => {
  it("POSTs the envelope with webhook-id, webhook-timestamp and a signature the receiver verifies, then acknowledges", async () => {
    const { env, secret } = bindings();
    const { sent, fetcher } = receiver(() => new Response(null, { status: 204 }));
    const m = message(eventMessage());
    await deliver(m, env, fetcher);
    expect(m.acked).toBe(true);
    expect(m.retried).toBeUndefined();
    const [call] = sent;
    expect(call?.url).toBe("https://receiver.fixture.test/hooks");
    expect(call?.init.method).toBe("POST");
    // OWASP SSRF: a redirect is never followed; and no delivery waits longer than 15 s.
    expect(call?.init.redirect).toBe("manual");
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
    const headers = new Headers(call?.init.headers);
    expect(headers.get("webhook-id")).toBe("msg_fixture1");
    expect(headers.get("content-type")).toBe("application/json");
    const body = String(call?.init.body);
    expect(JSON.parse(body)).toEqual({
      type: "fixtureParcelShipped",
      timestamp: "2026-11-22T00:00:00.000Z",
      data: { id: "p1", weight: 1 },
    });
    expect(await verifyWebhook(secret, headers, body)).toMatchObject({
      ok: true,
      id: "msg_fixture1",
    });
    expect(await verifyWebhook(newWebhookSecret(), headers, body)).toMatchObject({ ok: false });
  });

  it("signs with every key of the secret while one is rotated", async () => {
    const [before, after] = [newWebhookSecret(), newWebhookSecret()];
    const { env } = bindings(`${before} ${after}`);
    const { sent, fetcher } = receiver(() => new Response("ok"));
    await deliver(message(eventMessage()), env, fetcher);
    const headers = new Headers(sent[0]?.init.headers);
    expect(headers.get("webhook-signature")?.split(" ")).toHaveLength(2);
    const body = String(sent[0]?.init.body);
    expect((await verifyWebhook(before, headers, body)).ok).toBe(true);
    expect((await verifyWebhook(after, headers, body)).ok).toBe(true);
  });

  it("retries a 500 on the Standard Webhooks schedule, attempt by attempt, and dead-letters after the last", async () => {
    const { env, deadLetters } = bindings();
    const { fetcher } = receiver(() => new Response("no", { status: 500 }));
    for (const [i, delay] of RETRY_SCHEDULE.entries()) {
      const m = message(eventMessage(), i + 1);
      await deliver(m, env, fetcher);
      expect([m.acked, m.retried]).toEqual([false, { delaySeconds: delay }]);
    }
    expect(RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    const last = message(eventMessage(), RETRY_SCHEDULE.length + 1);
    await deliver(last, env, fetcher);
    expect([last.acked, last.retried]).toEqual([true, undefined]);
    expect(deadLetters.sent).toEqual([eventMessage()]);
  });

  it("retries within part 6's bound only: the last attempt at the bound (24 h of the spec), none after it", async () => {
    const { env, deadLetters } = bindings();
    const { fetcher } = receiver(() => new Response("no", { status: 500 }));
    const day = 86_400;
    // The seventh failure, 17.6 h after the event: the schedule's 10 h would pass the bound.
    const elapsed = RETRY_SCHEDULE.slice(0, 6).reduce((a, b) => a + b, 0);
    const timestamp = new Date(Date.now() - elapsed * 1000).toISOString();
    const bounded = message(eventMessage({ timestamp, retryFor: day }), 7);
    await deliver(bounded, env, fetcher);
    const delay = bounded.retried?.delaySeconds ?? 0;
    expect(delay).toBeLessThan(RETRY_SCHEDULE[6]);
    expect(Math.abs(delay - (day - elapsed))).toBeLessThanOrEqual(2);
    // At the bound, any failure is the last (the third here): dead-lettered, not retried.
    const past = new Date(Date.now() - day * 1000).toISOString();
    const last = message(eventMessage({ timestamp: past, retryFor: day }), 3);
    await deliver(last, env, fetcher);
    expect([last.acked, last.retried]).toEqual([true, undefined]);
    expect(deadLetters.sent).toHaveLength(1);
  });

  it("waits as long as Retry-After says on 429 and 503 (seconds or a date), never less than the schedule", async () => {
    const { env } = bindings();
    const cases: [Response, number][] = [
      [new Response(null, { status: 429, headers: { "retry-after": "120" } }), 120],
      [new Response(null, { status: 429, headers: { "retry-after": "1" } }), 5],
      [
        new Response(null, {
          status: 503,
          headers: { "retry-after": new Date(Date.now() + 600_000).toUTCString() },
        }),
        600,
      ],
      // Only 429 and 503 carry a Retry-After the sender honours.
      [new Response(null, { status: 500, headers: { "retry-after": "900" } }), 5],
      // A Queue delays at most 12 hours.
      [new Response(null, { status: 429, headers: { "retry-after": "999999" } }), 43200],
    ];
    for (const [answer, expected] of cases) {
      const m = message(eventMessage());
      await deliver(m, env, receiver(() => answer).fetcher);
      expect(m.retried?.delaySeconds, String(answer.status)).toBeGreaterThanOrEqual(expected - 1);
      expect(m.retried?.delaySeconds, String(answer.status)).toBeLessThanOrEqual(expected);
    }
  });

  it("retries a delivery that times out (15 s) or cannot connect", async () => {
    const { env } = bindings();
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
    for (const error of [
      new DOMException("timed out", "TimeoutError"),
      new TypeError("connect failed"),
    ]) {
      const m = message(eventMessage(), 2);
      const lines = await logsOf(() =>
        deliver(m, env, async () => {
          throw error;
        }),
      );
      expect(m.retried).toEqual({ delaySeconds: 300 });
      expect(lines.join("\n")).toContain(
        error.name === "TimeoutError" ? "timeout" : "network error",
      );
    }
  });

  it("treats a redirect as a failure, not a place to go", async () => {
    const { env } = bindings();
    const m = message(eventMessage());
    await deliver(
      m,
      env,
      receiver(
        () => new Response(null, { status: 302, headers: { location: "http://127.0.0.1/" } }),
      ).fetcher,
    );
    expect(m.retried).toEqual({ delaySeconds: 5 });
  });

  it("stops delivering the message to a destination that answers 410 Gone", async () => {
    const { env, deadLetters } = bindings();
    const m = message(eventMessage(), 3);
    const lines = await logsOf(() =>
      deliver(m, env, receiver(() => new Response(null, { status: 410 })).fetcher),
    );
    expect([m.acked, m.retried, deadLetters.sent.length]).toEqual([true, undefined, 0]);
    expect(lines.join("\n")).toContain("gone (410)");
  });

  it("keeps the message on the queue when the dead-letter queue is missing: nothing is dropped", async () => {
    const { env } = bindings();
    delete env.EVENTS_DEAD_LETTER;
    const m = message(eventMessage(), RETRY_SCHEDULE.length + 1);
    await deliver(m, env, receiver(() => new Response(null, { status: 500 })).fetcher);
    expect(m.acked).toBe(false);
    expect(m.retried).toEqual({ delaySeconds: 43200 });
  });

  it("sends nothing unsigned: a missing key is retried, never sent", async () => {
    const { env } = bindings();
    delete env.FIXTURE_WEBHOOK_SECRET;
    const { sent, fetcher } = receiver(() => new Response("ok"));
    const m = message(eventMessage());
    await deliver(m, env, fetcher);
    expect(sent).toEqual([]);
    expect(m.retried).toEqual({ delaySeconds: 5 });
  });

  it("refuses, again at delivery, a destination that is not public https (OWASP SSRF), and dead-letters it", async () => {
    for (const url of [
      "http://receiver.fixture.test/",
      "https://127.0.0.1/",
      "https://10.1.2.3/",
      "https://[::1]/",
      "https://169.254.169.254/latest",
    ]) {
      const { env, deadLetters } = bindings();
      const { sent, fetcher } = receiver(() => new Response("ok"));
      const m = message(eventMessage({ url }));
      await deliver(m, env, fetcher);
      expect(sent, url).toEqual([]);
      expect(deadLetters.sent, url).toHaveLength(1);
    }
  });

  it("logs one line per outcome, with neither the payload nor a key", async () => {
    const { env, secret } = bindings();
    const marker = "payload-marker-7c1f";
    const outcomes = [200, 500, 410];
    const lines: string[] = [];
    for (const status of outcomes)
      lines.push(
        ...(await logsOf(() =>
          deliver(
            message(
              eventMessage({
                data: { id: marker, weight: 1 },
                url: "https://receiver.fixture.test/hooks?token=query-marker",
              }),
            ),
            env,
            receiver(() => new Response(null, { status })).fetcher,
          ),
        )),
      );
    expect(lines).toHaveLength(outcomes.length);
    for (const line of lines) {
      expect(() => JSON.parse(line)).not.toThrow();
      expect(line).not.toContain(marker);
      expect(line).not.toContain(secret.slice(6));
      expect(line).not.toContain("query-marker");
    }
  });
});
