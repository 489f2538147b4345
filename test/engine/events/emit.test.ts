/**
 * Part 6 end to end inside workerd, through the FIXTURE events contract: a handler's emits
 * become queued Standard Webhooks messages (one per configured destination) before the
 * answer goes out; payloads are checked under off/log/enforce; a missing queue fails closed;
 * destinations are deployment configuration, refused unless public https (OWASP SSRF);
 * and a few thousand events through a consumer that fails a fraction of the time lose none.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { deliverBatch, RETRY_SCHEDULE } from "../../../src/engine/events/deliver";
import { readDestinations, refusal } from "../../../src/engine/events/destinations";
import type { EventMessage } from "../../../src/engine/events/emit";
import { verifyWebhook } from "../../../src/engine/events/signature";
import { FIXTURE_EVENTS_CONTRACT, FIXTURE_EVENTS_HANDLERS } from "../../fixtures/events";
import { FixtureQueue, logsOf, message, newWebhookSecret } from "../../support/events";

const app = createApp(FIXTURE_EVENTS_CONTRACT, {
  engine: BUILD_ENGINE,
  handlers: FIXTURE_EVENTS_HANDLERS,
  jsonSchema: toJSONSchema,
});

const DESTINATIONS = JSON.stringify([
  {
    url: "https://a.fixture.test/hooks",
    events: ["fixtureParcelShipped"],
    secret: "FIXTURE_WEBHOOK_A",
  },
  {
    url: "https://b.fixture.test/hooks",
    events: ["fixtureParcelShipped", "fixtureParcelWeighed"],
    secret: "FIXTURE_WEBHOOK_B",
  },
]);

function deployment(overrides: Record<string, unknown> = {}) {
  const queue = new FixtureQueue();
  return {
    queue,
    bindings: {
      ...env,
      RESPONSE_VALIDATION: "enforce",
      EVENTS: queue,
      WEBHOOK_DESTINATIONS: DESTINATIONS,
      FIXTURE_WEBHOOK_A: newWebhookSecret(),
      FIXTURE_WEBHOOK_B: newWebhookSecret(),
      ...overrides,
    } as unknown as Env & Record<"FIXTURE_WEBHOOK_A" | "FIXTURE_WEBHOOK_B", string>,
  };
}

const ship = (bindings: Env, body: unknown) =>
  app.request(
    "https://fixture.test/fixture-parcels",
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    bindings,
  );

describe("emitting events", () => {
  it("queues each emitted event once per destination that takes it, in the Standard Webhooks envelope, before answering", async () => {
    const { queue, bindings } = deployment();
    const response = await ship(bindings, { weight: 2 });
    expect(response.status).toBe(201);
    const sent = queue.sent as EventMessage[];
    expect(sent.map((m) => [m.type, m.url])).toEqual([
      ["fixtureParcelShipped", "https://a.fixture.test/hooks"],
      ["fixtureParcelShipped", "https://b.fixture.test/hooks"],
      ["fixtureParcelWeighed", "https://b.fixture.test/hooks"],
    ]);
    // One message id per event, the same for each of its destinations (webhook-id).
    expect(sent[0]?.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(sent[0]?.id).toBe(sent[1]?.id);
    expect(sent[2]?.id).not.toBe(sent[0]?.id);
    expect(sent[0]).toMatchObject({ data: { id: "p1", weight: 2 }, secret: "FIXTURE_WEBHOOK_A" });
    expect(Date.parse(sent[0]?.timestamp ?? "")).not.toBeNaN();
    // Each message carries its event's retry bound, where it declares one.
    expect(sent.map((m) => m.retryFor)).toEqual([86_400, 86_400, undefined]);
    // The secret is named, never carried.
    expect(JSON.stringify(sent)).not.toContain(String(bindings.FIXTURE_WEBHOOK_A));
  });

  it("queues nothing when the request fails: a 4xx changed nothing to tell of", async () => {
    const { queue, bindings } = deployment();
    expect((await ship(bindings, { weight: 2, fail: true })).status).toBe(409);
    expect(queue.sent).toEqual([]);
  });

  it("sends nothing, and says so in the log, when no destination is configured", async () => {
    const { queue, bindings } = deployment({ WEBHOOK_DESTINATIONS: undefined });
    const lines = await logsOf(async () =>
      expect((await ship(bindings, { weight: 2 })).status).toBe(201),
    );
    expect(queue.sent).toEqual([]);
    expect(lines.filter((l) => l.includes("no destination"))).toHaveLength(2);
  });

  it("logs a refused destination once per isolate, not at every request that emits", async () => {
    const refusedOnly = JSON.stringify([
      {
        url: "http://plain.fixture.test/",
        events: ["fixtureParcelShipped"],
        secret: "FIXTURE_KEY",
      },
    ]);
    const { bindings } = deployment({ WEBHOOK_DESTINATIONS: refusedOnly });
    const lines = await logsOf(async () => {
      await ship(bindings, { weight: 2 });
      await ship(bindings, { weight: 3 });
    });
    expect(lines.filter((l) => l.includes("webhook destination refused"))).toHaveLength(1);
  });

  it("checks payloads as answers are: enforce refuses (500, nothing queued), log warns and sends, off sends", async () => {
    // A valid answer, whose second event's payload breaks its schema (grams: 1.5).
    const negative = { weight: 0.0015 };
    const enforce = deployment();
    expect((await ship(enforce.bindings, negative)).status).toBe(500);
    expect(enforce.queue.sent).toEqual([]);
    const log = deployment({ RESPONSE_VALIDATION: "log" });
    const lines = await logsOf(async () =>
      expect((await ship(log.bindings, negative)).status).toBe(201),
    );
    expect(log.queue.sent).toHaveLength(3);
    const warning = lines.find((l) => l.includes("event payload does not match"));
    expect(warning).toContain("#/grams invalid_type");
    const off = deployment({ RESPONSE_VALIDATION: "off" });
    const quiet = await logsOf(async () =>
      expect((await ship(off.bindings, negative)).status).toBe(201),
    );
    expect(off.queue.sent).toHaveLength(3);
    expect(quiet.some((l) => l.includes("does not match"))).toBe(false);
  });

  it("fails closed when the queue is missing or refuses: 503 with Retry-After (RFC 9110 §15.6.4)", async () => {
    for (const queue of [undefined, Object.assign(new FixtureQueue(), { failing: true })]) {
      const { bindings } = deployment({ EVENTS: queue });
      const response = await ship(bindings, { weight: 2 });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("30");
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("refuses, at run time too, an event the operation does not declare (plain JavaScript)", async () => {
    const { queue, bindings } = deployment();
    const lines = await logsOf(async () => {
      const response = await app.request(
        "https://fixture.test/fixture-parcels/quiet",
        {},
        bindings,
      );
      expect(response.status).toBe(500);
    });
    expect(lines.join("\n")).toContain("does not declare that it emits fixtureParcelShipped");
    expect(queue.sent).toEqual([]);
  });

  it("refuses at start-up an operation that emits an undeclared event, and a retry bound of no whole seconds", () => {
    const contract = {
      ...FIXTURE_EVENTS_CONTRACT,
      operations: {
        fixtureQuietParcel: {
          ...FIXTURE_EVENTS_CONTRACT.operations.fixtureQuietParcel,
          emits: ["fixtureNoSuchEvent"],
        },
      },
    };
    expect(() => createApp(contract, { engine: BUILD_ENGINE, jsonSchema: toJSONSchema })).toThrow(
      /emits fixtureNoSuchEvent, which part 6 does not declare/,
    );
    const unbounded = {
      ...FIXTURE_EVENTS_CONTRACT,
      events: {
        ...FIXTURE_EVENTS_CONTRACT.events,
        fixtureParcelShipped: {
          ...FIXTURE_EVENTS_CONTRACT.events.fixtureParcelShipped,
          retryFor: 0.5,
        },
      },
    };
    expect(() => createApp(unbounded, { engine: BUILD_ENGINE, jsonSchema: toJSONSchema })).toThrow(
      /event fixtureParcelShipped: retryFor must be a whole number of seconds, at least 5/,
    );
  });

  it("exports a queue() consumer once part 6 declares events, and none otherwise", () => {
    expect(app.queue).toBeTypeOf("function");
    const noEvents = createApp(
      { ...FIXTURE_EVENTS_CONTRACT, events: {}, operations: {} } as never,
      {
        engine: BUILD_ENGINE,
        jsonSchema: toJSONSchema,
      } as never,
    );
    expect(noEvents.queue).toBeUndefined();
  });
});

describe("the status report and the interface page", () => {
  it("list each event and how many destinations this deployment sends it to", async () => {
    const configured = createApp(FIXTURE_EVENTS_CONTRACT, {
      engine: BUILD_ENGINE,
      handlers: FIXTURE_EVENTS_HANDLERS,
      jsonSchema: toJSONSchema,
    });
    const report = await configured.request("/_service/interface", {}, deployment().bindings);
    expect(((await report.json()) as { events: unknown }).events).toEqual([
      { name: "fixtureParcelShipped", summary: "FIXTURE: a parcel left", destinations: 2 },
      { name: "fixtureParcelWeighed", destinations: 1 },
    ]);
    const bare = createApp(FIXTURE_EVENTS_CONTRACT, {
      engine: BUILD_ENGINE,
      jsonSchema: toJSONSchema,
    });
    const page = await bare.request(
      "/_service/interface",
      { headers: { accept: "text/html" } },
      deployment({ WEBHOOK_DESTINATIONS: undefined }).bindings,
    );
    const html = await page.text();
    expect(html).toContain("Events (part 6)");
    expect(html.match(/not sent: no destination configured/g)).toHaveLength(2);
  });
});

describe("webhook destinations (deployment configuration; OWASP SSRF Prevention)", () => {
  it("accept public https only", () => {
    expect(refusal("https://hooks.fixture.test/a?b=c")).toBeUndefined();
    expect(refusal("https://203.0.113.9/")).toBeUndefined();
    const refused = [
      "http://hooks.fixture.test/",
      "ftp://hooks.fixture.test/",
      "https://user:pass@hooks.fixture.test/",
      "https://localhost/",
      "https://api.localhost/",
      "https://printer.local/",
      "https://metadata.google.internal/",
      "https://intranet/",
      "https://127.0.0.1/",
      "https://127.1.2.3:8443/",
      "https://0.0.0.0/",
      "https://10.0.0.1/",
      "https://172.16.0.1/",
      "https://172.31.255.255/",
      "https://192.168.1.1/",
      "https://169.254.169.254/",
      "https://100.64.0.1/",
      "https://224.0.0.1/",
      "https://[::1]/",
      "https://[::]/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://2130706433/",
      "https://0x7f000001/",
      "not a url",
    ];
    for (const url of refused) expect(refusal(url), url).toBeDefined();
  });

  it("accept loopback too under npm run dev (WEBHOOK_LOCAL_DELIVERY = loopback), and nothing else more", () => {
    const loopback = [
      "http://localhost:9000/hooks",
      "http://127.0.0.1:9000/hooks",
      "https://127.1.2.3:8443/",
      "http://[::1]:9000/",
    ];
    for (const url of loopback) {
      expect(refusal(url), url).toBeDefined();
      expect(refusal(url, true), url).toBeUndefined();
    }
    const still = [
      "http://hooks.fixture.test/",
      "http://10.0.0.1/",
      "http://192.168.1.1/",
      "http://169.254.169.254/",
      "http://api.localhost/",
      "http://user:pass@localhost/",
      "ftp://localhost/",
    ];
    for (const url of still) expect(refusal(url, true), url).toBeDefined();
    const entry = JSON.stringify([
      { url: "http://localhost:9000/", events: ["a"], secret: "FIXTURE_OK" },
    ]);
    expect(readDestinations({ WEBHOOK_DESTINATIONS: entry }).accepted).toHaveLength(0);
    expect(
      readDestinations({ WEBHOOK_DESTINATIONS: entry, WEBHOOK_LOCAL_DELIVERY: "loopback" })
        .accepted,
    ).toHaveLength(1);
  });

  it("refuse malformed entries, never guess, and never invent one", () => {
    expect(readDestinations({})).toEqual({ accepted: [], refused: [] });
    expect(readDestinations({ WEBHOOK_DESTINATIONS: "{" }).refused).toHaveLength(1);
    const read = readDestinations({
      WEBHOOK_DESTINATIONS: JSON.stringify([
        { url: "https://ok.fixture.test/", events: ["a"], secret: "FIXTURE_OK" },
        { url: "https://ok.fixture.test/", events: "a", secret: "FIXTURE_OK" },
        { url: "https://ok.fixture.test/", events: ["a"], secret: "not a binding" },
        { url: "http://ok.fixture.test/", events: ["a"], secret: "FIXTURE_OK" },
      ]),
    });
    expect(read.accepted).toHaveLength(1);
    expect(read.refused.map((r) => r.index)).toEqual([1, 2, 3]);
  });

  it("are read once while the var is unchanged, and again when it changes", () => {
    const one = JSON.stringify([
      { url: "https://one.fixture.test/", events: ["a"], secret: "FIXTURE_ONE" },
    ]);
    const first = readDestinations({ WEBHOOK_DESTINATIONS: one });
    expect(readDestinations({ WEBHOOK_DESTINATIONS: one })).toBe(first);
    const other = readDestinations({ WEBHOOK_DESTINATIONS: one.replace("one.", "two.") });
    expect(other).not.toBe(first);
    expect(other.accepted[0]?.url).toBe("https://two.fixture.test/");
  });
});

describe("at least once, under load", () => {
  it("a few thousand events, a consumer that fails a fraction of the time: each is delivered or dead-lettered, none lost", async () => {
    const { queue, bindings } = deployment({ RESPONSE_VALIDATION: "off" });
    const requests = 1000;
    await logsOf(async () => {
      for (let i = 0; i < requests; i += 1)
        expect((await ship(bindings, { weight: i })).status).toBe(201);
    });
    const queued = queue.sent as EventMessage[];
    expect(queued).toHaveLength(requests * 3);

    // The receiver: fails about 30% of deliveries (500, 429, timeouts), and one
    // destination path answers 410 for some messages; a seeded generator keeps it repeatable.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const delivered = new Set<string>();
    const gone = new Set<string>();
    const fetcher = async (url: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      const key = `${headers.get("webhook-id")} ${url}`;
      const secret = String(
        url.includes("//a.") ? bindings.FIXTURE_WEBHOOK_A : bindings.FIXTURE_WEBHOOK_B,
      );
      expect((await verifyWebhook(secret, headers, String(init.body))).ok).toBe(true);
      // One receiver is down for good for every 50th parcel: those exhaust their retries.
      const { data } = JSON.parse(String(init.body)) as { data: { weight?: number } };
      if (url.includes("//a.") && (data.weight ?? 1) % 50 === 0)
        return new Response(null, { status: 500 });
      const roll = random();
      if (roll < 0.1) throw new DOMException("timed out", "TimeoutError");
      if (roll < 0.2) return new Response(null, { status: 500 });
      if (roll < 0.3) return new Response(null, { status: 429, headers: { "retry-after": "1" } });
      if (roll < 0.31) {
        gone.add(key);
        return new Response(null, { status: 410 });
      }
      delivered.add(key);
      return new Response(null, { status: 200 });
    };
    const deadLetters = new FixtureQueue();
    const consumerEnv = { ...bindings, EVENTS_DEAD_LETTER: deadLetters } as unknown as Record<
      string,
      unknown
    >;
    // The Queue, simulated: batches of 100; a retried message comes back with one more attempt.
    let pending = queued.map((body) => message(body));
    let batches = 0;
    const lines = await logsOf(async () => {
      while (pending.length > 0) {
        const batch = pending.slice(0, 100);
        pending = pending.slice(100);
        await deliverBatch({ messages: batch }, consumerEnv, fetcher);
        batches += 1;
        for (const m of batch) {
          expect(
            m.acked !== (m.retried !== undefined),
            "each message is either acknowledged or retried",
          ).toBe(true);
          if (m.retried) pending.push(message(m.body, m.attempts + 1));
        }
      }
    });
    // One line per outcome: each dead letter is logged, once.
    expect(lines.filter((l) => l.includes('"webhook dead-lettered"'))).toHaveLength(requests / 50);
    const dead = (deadLetters.sent as EventMessage[]).map((m) => `${m.id} ${m.url}`);
    const accounted = new Set([...delivered, ...gone, ...dead]);
    expect(dead.length).toBe(requests / 50);
    expect(delivered.size + gone.size + dead.length).toBe(queued.length);
    expect(accounted.size).toBe(queued.length);
    expect(delivered.size).toBeGreaterThan(queued.length * 0.9);
    expect(batches).toBeGreaterThan(queued.length / 100);
    expect(RETRY_SCHEDULE.length).toBe(7);
  });
});
