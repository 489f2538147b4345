/**
 * Delivering: the Worker's `queue()` handler. Each message is one event for one
 * destination, POSTed with the Standard Webhooks headers (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`). A 2xx within 15 s is success. Anything else
 * is retried on the Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h),
 * or after `Retry-After` on 429 and 503 (RFC 9110 §10.2.3) when that is later; `410 Gone`
 * stops deliveries of the message to that destination. After the last attempt the message
 * goes to the dead-letter queue, so nothing is dropped without a trace. One log line per
 * outcome, never the payload or a secret.
 */
import { log } from "../../platform/log";
import { loopbackAllowed, refusal } from "./destinations";
import { DEAD_LETTER_QUEUE, type EventMessage } from "./emit";
import { signWebhook } from "./signature";

/** Seconds to wait before each retry: the schedule Standard Webhooks suggests, attempt by attempt. */
export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
/** A Queue's longest delay (Cloudflare Queues limits): 12 hours. */
const MAX_DELAY_SECONDS = 43_200;
export const DELIVERY_TIMEOUT_MS = 15_000;

interface QueueMessage {
  readonly id: string;
  readonly body: unknown;
  /** 1 on the first delivery. */
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

interface Batch {
  readonly messages: readonly QueueMessage[];
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

function isEventMessage(body: unknown): body is EventMessage {
  const m = body as Partial<EventMessage> | null;
  return (
    typeof m?.id === "string" &&
    typeof m.type === "string" &&
    typeof m.timestamp === "string" &&
    typeof m.url === "string" &&
    typeof m.secret === "string"
  );
}

/**
 * The seconds left to retry in: until part 6's `retryFor` after the event (the last attempt is
 * made at that bound, none after it), unbounded where the event declares none.
 */
function secondsLeft(body: EventMessage, now: number): number {
  if (body.retryFor === undefined) return Number.POSITIVE_INFINITY;
  const at = Date.parse(body.timestamp);
  if (Number.isNaN(at)) return 0;
  return Math.floor((at + body.retryFor * 1000 - now) / 1000);
}

/** `Retry-After` in seconds (a delay or an HTTP date), or undefined. */
function retryAfter(response: Response, now: number): number | undefined {
  const value = response.headers.get("retry-after");
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

type Outcome =
  | { readonly kind: "delivered"; readonly status: number }
  | { readonly kind: "gone" }
  | { readonly kind: "failed"; readonly reason: string; readonly retryAfter?: number };

async function attempt(message: EventMessage, secrets: readonly string[], fetcher: Fetch) {
  // Standard Webhooks' envelope, unless the event's payload is one already (part 6).
  const body = JSON.stringify(
    message.bare
      ? message.data
      : { type: message.type, timestamp: message.timestamp, data: message.data },
  );
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = await signWebhook(secrets, message.id, timestamp, body);
  let response: Response;
  try {
    response = await fetcher(message.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": message.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signature,
      },
      body,
      // A redirect is a failure: following one could lead anywhere (OWASP SSRF).
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return { kind: "failed", reason: timedOut ? "timeout" : "network error" } as Outcome;
  }
  // The receiver's body is not needed; reading it frees the connection.
  await response.body?.cancel();
  if (response.status >= 200 && response.status < 300)
    return { kind: "delivered", status: response.status } as Outcome;
  if (response.status === 410) return { kind: "gone" } as Outcome;
  const after =
    response.status === 429 || response.status === 503
      ? retryAfter(response, Date.now())
      : undefined;
  return {
    kind: "failed",
    reason: `status ${response.status}`,
    ...(after === undefined ? {} : { retryAfter: after }),
  } as Outcome;
}

/** The queue consumer. `fetcher` is the runtime's `fetch` unless a test gives its own. */
export async function deliverBatch(
  batch: Batch,
  env: Readonly<Record<string, unknown>>,
  fetcher: Fetch = (input, init) => fetch(input, init),
): Promise<void> {
  await Promise.all(batch.messages.map((message) => deliverOne(message, env, fetcher)));
}

async function deadLetter(
  message: QueueMessage,
  env: Readonly<Record<string, unknown>>,
  fields: Record<string, unknown>,
  reason: string,
) {
  const queue = env[DEAD_LETTER_QUEUE] as { send(body: unknown): Promise<unknown> } | undefined;
  try {
    if (typeof queue?.send !== "function") throw new Error(`no ${DEAD_LETTER_QUEUE} binding`);
    await queue.send(message.body);
    message.ack();
    log("error", "webhook dead-lettered", { ...fields, reason });
  } catch (error) {
    // Not acknowledged: the Queue keeps it, and its own dead-letter queue takes it after
    // max_retries (wrangler.toml), so it is never dropped.
    message.retry({ delaySeconds: MAX_DELAY_SECONDS });
    log("error", "webhook could not be dead-lettered; kept on the queue", {
      ...fields,
      reason,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

async function deliverOne(
  message: QueueMessage,
  env: Readonly<Record<string, unknown>>,
  fetcher: Fetch,
): Promise<void> {
  const body = message.body;
  if (!isEventMessage(body)) {
    await deadLetter(message, env, { queueMessageId: message.id }, "not an event message");
    return;
  }
  const fields = {
    messageId: body.id,
    event: body.type,
    destination: URL.canParse(body.url) ? new URL(body.url).origin : "invalid",
    attempt: message.attempts,
  };
  // Checked again: configuration may have changed since the event was queued.
  const refused = refusal(body.url, loopbackAllowed(env));
  if (refused) {
    await deadLetter(message, env, fields, `destination refused: ${refused}`);
    return;
  }
  const secretValue = env[body.secret];
  const secrets = typeof secretValue === "string" ? secretValue.split(/\s+/).filter(Boolean) : [];
  let outcome: Outcome;
  try {
    if (secrets.length === 0) throw new Error(`the secret ${body.secret} is not set`);
    outcome = await attempt(body, secrets, fetcher);
  } catch (error) {
    // A missing or malformed key fails closed: nothing unsigned is ever sent.
    outcome = { kind: "failed", reason: error instanceof Error ? error.message : "signing failed" };
  }
  if (outcome.kind === "delivered") {
    message.ack();
    log("info", "webhook delivered", { ...fields, status: outcome.status });
    return;
  }
  if (outcome.kind === "gone") {
    message.ack();
    log("warn", "webhook destination gone (410): deliveries of this message stopped", fields);
    return;
  }
  const scheduled = RETRY_SCHEDULE[message.attempts - 1];
  const left = secondsLeft(body, Date.now());
  if (scheduled === undefined || left <= 0) {
    await deadLetter(message, env, fields, `retries exhausted; last: ${outcome.reason}`);
    return;
  }
  const delaySeconds = Math.min(
    MAX_DELAY_SECONDS,
    left,
    Math.max(scheduled, outcome.retryAfter ?? 0),
  );
  message.retry({ delaySeconds });
  log("warn", "webhook delivery failed; retried", {
    ...fields,
    reason: outcome.reason,
    delaySeconds,
  });
}
