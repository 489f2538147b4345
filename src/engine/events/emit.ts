/**
 * Emitting: what a handler's `emit` calls become. Each payload is checked against its
 * event's schema under `RESPONSE_VALIDATION` (as answers are), wrapped in the Standard
 * Webhooks envelope (`type`, `timestamp`, `data`) under one message id, and queued once per
 * configured destination on the `EVENTS` queue. The queueing is awaited before the answer
 * goes out, so an accepted request's events are durable; their delivery is the consumer's
 * (deliver.ts) and never delays the answer.
 */
import { type Contract, resolveSchema } from "../../contract-language/contract";
import { log } from "../../platform/log";
import { jsonPointer } from "../zod/issues";
import { parseWith } from "../zod/parse";
import type { ResponseValidationMode } from "../zod/response-mode";
import { type Destinations, destinationsOf, readDestinations } from "./destinations";

/** The producer binding of the events queue, and of its dead-letter queue. */
export const EVENTS_QUEUE = "EVENTS";
export const DEAD_LETTER_QUEUE = "EVENTS_DEAD_LETTER";

/** One delivery to make: the envelope and where it goes. */
export interface EventMessage {
  /** `webhook-id`: the same for every destination and every retry of this event. */
  readonly id: string;
  readonly type: string;
  /** When the event happened (ISO 8601), as the envelope carries it. */
  readonly timestamp: string;
  readonly data: unknown;
  /** The payload is the whole body (part 6's `envelope: "payload"`), not the envelope's data. */
  readonly bare?: true;
  /** Seconds after `timestamp` past which no delivery is attempted (part 6's `retryFor`). */
  readonly retryFor?: number;
  readonly url: string;
  /** The Worker secret that holds the destination's signing key(s): a name, never a value. */
  readonly secret: string;
}

export interface Emission {
  readonly event: string;
  readonly payload: unknown;
}

interface Producer {
  sendBatch(messages: readonly { body: EventMessage }[]): Promise<unknown>;
}

type EnqueueOutcome = "queued" | "invalid" | "unavailable";

/**
 * Queues what one request emitted. `invalid`: a payload broke its schema under `enforce`
 * (nothing is queued; the answer is a 500, as for an answer that breaks its declaration).
 * `unavailable`: the queue binding is missing or refused a batch (fails closed: the client
 * is told, and may send the request again; a receiver drops a repeated `webhook-id`).
 */
const reported = new WeakSet<Destinations>();

export async function enqueueEvents(
  contract: Contract,
  emissions: readonly Emission[],
  env: Readonly<Record<string, unknown>>,
  mode: ResponseValidationMode,
  context: { readonly requestId: string; readonly operationId: string },
): Promise<EnqueueOutcome> {
  const destinations = readDestinations(env);
  // Once per isolate and list, not at every request that emits.
  if (!reported.has(destinations)) {
    reported.add(destinations);
    for (const { index, reason } of destinations.refused)
      log("error", "webhook destination refused", { ...context, destination: index, reason });
  }
  const messages: { body: EventMessage }[] = [];
  for (const { event, payload } of emissions) {
    const declared = contract.events[event];
    let data = payload;
    if (declared && mode !== "off") {
      const parsed = await parseWith(resolveSchema(declared.payload), payload);
      if (parsed.success) data = parsed.data;
      else {
        // Where and what kind of mismatch, never the payload's values.
        const issues = parsed.error.issues.map((i) => `${jsonPointer(i.path)} ${i.code}`);
        log(mode === "enforce" ? "error" : "warn", "event payload does not match its schema", {
          ...context,
          event,
          issues,
        });
        if (mode === "enforce") return "invalid";
      }
    }
    const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
    const timestamp = new Date().toISOString();
    const to = destinationsOf(destinations, event);
    if (to.length === 0)
      log("info", "event has no destination: not sent", { ...context, event, messageId: id });
    const bare = {
      ...(declared?.envelope === "payload" ? ({ bare: true } as const) : {}),
      ...(declared?.retryFor !== undefined ? { retryFor: declared.retryFor } : {}),
    };
    for (const { url, secret } of to)
      messages.push({ body: { id, type: event, timestamp, data, ...bare, url, secret } });
  }
  if (messages.length === 0) return "queued";
  const queue = env[EVENTS_QUEUE] as Producer | undefined;
  if (typeof queue?.sendBatch !== "function") {
    log("error", `the ${EVENTS_QUEUE} queue binding is missing: events not queued`, context);
    return "unavailable";
  }
  try {
    // A Queue batch holds at most 100 messages.
    for (let i = 0; i < messages.length; i += 100)
      await queue.sendBatch(messages.slice(i, i + 100));
  } catch (error) {
    log("error", "events could not be queued", {
      ...context,
      reason: error instanceof Error ? error.message : String(error),
    });
    return "unavailable";
  }
  for (const { body } of messages)
    log("info", "event queued", {
      ...context,
      event: body.type,
      messageId: body.id,
      // The origin only: a path or query may carry a receiver's token.
      destination: new URL(body.url).origin,
    });
  return "queued";
}
