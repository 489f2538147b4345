/**
 * The sandbox's records, as the Worker reaches them: one Durable Object with SQLite storage
 * per sandbox (durable-object.ts), named from the caller's credential and the sandbox id
 * it sends, so each caller's data is kept apart. A Durable Object runs one request at a
 * time, each of its methods without an `await` in between, so each call below is atomic;
 * a read-modify-write across calls is made safe by a conditional write on the record's
 * version (`write(…, expected)`), retried by `updateRecord`.
 */

import { MALFORMED_REQUEST } from "../../contract-language/problem-catalogue";
import type { Refusal } from "../../engine/refusal";
import { statusProblem, typedProblem } from "../../platform/problem";

/** The Durable Object binding, and its class, a deployment declares for the sandbox. */
export const SANDBOX_BINDING = "SANDBOX";
export const SANDBOX_CLASS = "SandboxStore";
/**
 * The request header that names a sandbox within a credential's (lower case, as Fetch's
 * Headers give it). Without one, the credential's default sandbox.
 */
const SANDBOX_HEADER = "sandbox-id";
const SANDBOX_ID = /^[A-Za-z0-9._~-]{1,64}$/;

/** One stored item. */
export interface StoredRecord {
  readonly id: string;
  /** The concrete path of the collection it was created in (`/owners/7/pets`). */
  readonly scope: string;
  readonly body: Readonly<Record<string, unknown>>;
  /** Part 3 states of machines that name no field of the resource, by machine. */
  readonly states: Readonly<Record<string, string>>;
  /** Raised by every write: what a conditional write compares. */
  readonly version: number;
}

/** What a write stores; `scope` and `states` undefined keep the stored ones (or "" and none). */
export interface Draft {
  readonly scope?: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly states?: Readonly<Record<string, string>>;
}

export interface ListQuery {
  /** Only the items of this collection; every item of the resource without one. */
  readonly scope?: string;
  /** Members equal to these values (JSON scalars). */
  readonly where?: readonly (readonly [string, string | number | boolean])[];
  readonly offset: number;
  readonly limit: number;
}

/**
 * What a write expects of the stored record: its version (a conditional write), that there
 * is none (`new`), or anything (`any`: created or replaced).
 */
export type Expected = number | "new" | "any";

/** A write refused because the sandbox would hold more than a quota lets it (durable-object.ts). */
export interface Quota {
  readonly quota: "items" | "bytes";
  readonly limit: number;
}

/** The sandbox's records: the Durable Object's methods, as its stub offers them. */
export interface SandboxRecords {
  read(resource: string, id: string): Promise<StoredRecord | null>;
  list(
    resource: string,
    query: ListQuery,
  ): Promise<{ readonly records: StoredRecord[]; readonly total: number }>;
  /**
   * The next number of the resource's sequence (1, 2, …), never one a record of it holds as
   * its id: what a numbered id, and the values made for a new item, are drawn from.
   */
  sequence(resource: string): Promise<number>;
  /** Stores a new record; "exists" when one has its id. */
  insert(resource: string, id: string, draft: Draft): Promise<StoredRecord | "exists" | Quota>;
  write(
    resource: string,
    id: string,
    draft: Draft,
    expected: Expected,
  ): Promise<StoredRecord | "missing" | "conflict" | "exists" | Quota>;
  /** Deletes the record; the record deleted, or null when there was none. */
  remove(resource: string, id: string): Promise<StoredRecord | null>;
  /** Deletes everything the sandbox holds. */
  reset(): Promise<void>;
}

/** Thrown where the sandbox refuses a request: the handler step answers the refusal. */
export class SandboxRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super("the sandbox refused the request");
  }
}

const QUOTA_SETTINGS = { items: "SANDBOX_MAX_ITEMS", bytes: "SANDBOX_MAX_BYTES" } as const;

/**
 * A write's result, where a quota refused it thrown as the sandbox's 507 (RFC 4918 §11.5,
 * Insufficient Storage): the problem names the quota and the setting that sets it.
 */
export function within<T>(result: T | Quota): T {
  if (typeof result !== "object" || result === null || !("quota" in result)) return result as T;
  const { quota, limit } = result as Quota;
  throw new SandboxRefusal({
    kind: undefined,
    problem: statusProblem(
      507,
      `This sandbox holds as much as it may (${limit} ${quota === "items" ? "items" : "bytes of items"}, the deployment's ${QUOTA_SETTINGS[quota]}); nothing was stored. Delete items, or reset the sandbox.`,
    ),
  });
}

const BAD_SANDBOX_ID: Refusal = {
  kind: "malformed-request",
  problem: typedProblem(
    MALFORMED_REQUEST,
    "The Sandbox-Id header must be 1 to 64 letters, digits, '.', '_', '~' or '-'.",
  ),
};

const hex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The name of the caller's sandbox: a SHA-256 of the credential's key (the same digest
 * per-credential rate limits count by, never the credential) and the `Sandbox-Id` it sent.
 */
export async function sandboxName(
  credential: string | undefined,
  headers: Headers,
): Promise<string> {
  const id = headers.get(SANDBOX_HEADER);
  if (id !== null && !SANDBOX_ID.test(id)) throw new SandboxRefusal(BAD_SANDBOX_ID);
  return digestOf(`${credential ?? ""}\n${id ?? ""}`);
}

/** A store's name from `text`: its SHA-256, in hex. */
export async function digestOf(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** What the sandbox uses of a Durable Object namespace binding. */
interface Namespace {
  idFromName(name: string): unknown;
  get(id: unknown): unknown;
}

/** The binding's namespace; a deployment without it fails closed (an error, so a 500). */
function namespaceOf(env: Readonly<Record<string, unknown>>): Namespace {
  const namespace = env[SANDBOX_BINDING] as Namespace | undefined;
  if (!namespace || typeof namespace.idFromName !== "function")
    throw new Error(
      `the ${SANDBOX_BINDING} Durable Object binding is missing: run npm run contract:deployment`,
    );
  return namespace;
}

/** The records of the sandbox named `name`. */
export function sandboxRecords(
  env: Readonly<Record<string, unknown>>,
  name: string,
): SandboxRecords {
  const namespace = namespaceOf(env);
  return namespace.get(namespace.idFromName(name)) as unknown as SandboxRecords;
}

/** Most tries of a conditional write before the sandbox gives up: each lost to another write. */
const WRITE_ATTEMPTS = 32;

/**
 * RFC 9110 §15.6.4: every try lost to another write of the same item; nothing was changed,
 * and the caller may try again in a second. Never a 500: contention is no fault.
 */
const CONTENDED: Refusal = {
  kind: "service-unavailable",
  problem: statusProblem(
    503,
    "The item changed under every try to write it (many writes at once); nothing was changed. Try again.",
  ),
  headers: { "retry-after": "1" },
};

/** A short pause before the next try, longer and jittered each time, so tries spread out. */
const backOff = (attempt: number) =>
  new Promise<void>((done) => setTimeout(done, Math.random() * Math.min(50, 2 ** attempt)));

/**
 * Reads the record, lets `change` make its next draft, and writes it only if nobody wrote
 * in between (its version), else tries again from a fresh read: no write is lost. `change`
 * returning undefined leaves it as it is. Null when there is no such record.
 */
export async function updateRecord(
  records: SandboxRecords,
  resource: string,
  id: string,
  change: (current: StoredRecord) => Draft | undefined | Promise<Draft | undefined>,
): Promise<StoredRecord | null> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt += 1) {
    const current = await records.read(resource, id);
    if (!current) return null;
    const draft = await change(current);
    if (!draft) return current;
    const written = within(await records.write(resource, id, draft, current.version));
    if (written === "missing") return null;
    if (typeof written === "object") return written;
    await backOff(attempt);
  }
  throw new SandboxRefusal(CONTENDED);
}
