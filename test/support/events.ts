/**
 * Queues for the events tests: in-memory stand-ins for a Queue producer binding and for the
 * messages the runtime hands a consumer (the `Queue.sendBatch`/`send` and `Message`
 * surface the engine uses), a signing key made per test, and a log collector.
 */
import { vi } from "vitest";
import type { EventMessage } from "../../src/engine/events/emit";

export class FixtureQueue {
  readonly sent: unknown[] = [];
  failing = false;
  async send(body: unknown): Promise<void> {
    if (this.failing) throw new Error("FIXTURE queue refused the message");
    this.sent.push(body);
  }
  async sendBatch(messages: readonly { body: unknown }[]): Promise<void> {
    if (this.failing) throw new Error("FIXTURE queue refused the batch");
    for (const { body } of messages) this.sent.push(body);
  }
}

export interface FixtureMessage {
  readonly id: string;
  readonly body: unknown;
  readonly attempts: number;
  acked: boolean;
  retried: { delaySeconds?: number } | undefined;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

export function message(body: unknown, attempts = 1): FixtureMessage {
  return {
    id: crypto.randomUUID(),
    body,
    attempts,
    acked: false,
    retried: undefined,
    ack() {
      this.acked = true;
    },
    retry(options) {
      this.retried = options ?? {};
    },
  };
}

/** A `whsec_` key made for one test. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

export function eventMessage(overrides: Partial<EventMessage> = {}): EventMessage {
  return {
    id: "msg_fixture1",
    type: "fixtureParcelShipped",
    timestamp: "2026-11-22T00:00:00.000Z",
    data: { id: "p1", weight: 1 },
    url: "https://receiver.fixture.test/hooks",
    secret: "FIXTURE_WEBHOOK_SECRET",
    ...overrides,
  };
}

/** Every line the platform logs while `run` runs, as written. */
export async function logsOf(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const spies = (["info", "warn", "error", "log"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line))),
  );
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines;
}
