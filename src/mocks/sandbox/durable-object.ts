/**
 * One sandbox's records: a Durable Object with SQLite storage (wrangler.toml's
 * `new_sqlite_classes` migration), one per caller's sandbox (records.ts names it). It knows
 * nothing of the contract: it keeps JSON records by resource and id, in the order they were
 * made, with a version each write raises and a counter per resource for numbered ids.
 *
 * Consistency: a Durable Object handles one call at a time, and no method here awaits
 * anything, so each call is atomic and sees every earlier one (ctx.storage.sql is
 * synchronous; its writes are committed together when the call returns). A change that
 * spans calls (read, then write) is a conditional write on the version (`write`).
 * `wrangler dev` keeps the database under .wrangler/state, so it survives a restart.
 */
import { DurableObject } from "cloudflare:workers";
import type { Draft, Expected, ListQuery, Quota, SandboxRecords, StoredRecord } from "./records";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  resource TEXT NOT NULL,
  id TEXT NOT NULL,
  scope TEXT NOT NULL,
  body TEXT NOT NULL,
  states TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (resource, id)
);
CREATE TABLE IF NOT EXISTS counters (resource TEXT PRIMARY KEY, last INTEGER NOT NULL);`;

type Row = {
  id: string;
  scope: string;
  body: string;
  states: string;
  version: number;
} & Record<string, SqlStorageValue>;

const COLUMNS = "id, scope, body, states, version";
const NUMBERED = /^(0|[1-9][0-9]{0,14})$/;

function recordOf(row: Row): StoredRecord {
  return {
    id: row.id,
    scope: row.scope,
    body: JSON.parse(row.body) as Record<string, unknown>,
    states: JSON.parse(row.states) as Record<string, string>,
    version: row.version,
  };
}

/** A deployment setting: a positive whole number, else its default. */
function setting(env: unknown, name: string, fallback: number): number {
  const value = Number((env as Record<string, unknown> | undefined)?.[name]);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

/** What one sandbox may hold, and how long it is kept: deployment settings, with defaults. */
const SANDBOX_QUOTAS = {
  items: { setting: "SANDBOX_MAX_ITEMS", fallback: 10_000 },
  bytes: { setting: "SANDBOX_MAX_BYTES", fallback: 10 * 1024 * 1024 },
  days: { setting: "SANDBOX_MAX_AGE_DAYS", fallback: 30 },
} as const;

const DAY = 24 * 60 * 60 * 1000;

export class SandboxStore extends DurableObject implements SandboxRecords {
  private readonly quotas: { items: number; bytes: number; days: number };

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    ctx.storage.sql.exec(SCHEMA);
    const { items, bytes, days } = SANDBOX_QUOTAS;
    this.quotas = {
      items: setting(env, items.setting, items.fallback),
      bytes: setting(env, bytes.setting, bytes.fallback),
      days: setting(env, days.setting, days.fallback),
    };
  }

  /**
   * The quota a write of `body` would pass (a new record, or one of `before`'s size), or
   * undefined. Counted over what is stored, so a sandbox never holds more than its quota.
   */
  private over(body: string, before: Row | undefined): Quota | undefined {
    const { count, size } = this.sql
      .exec<{ count: number; size: number }>(
        "SELECT count(*) AS count, coalesce(sum(length(body)), 0) AS size FROM records",
      )
      .one();
    if (!before && count >= this.quotas.items) return { quota: "items", limit: this.quotas.items };
    const after = size - (before?.body.length ?? 0) + body.length;
    return after > this.quotas.bytes ? { quota: "bytes", limit: this.quotas.bytes } : undefined;
  }

  /** The sandbox is deleted whole once it is older than its age quota (an alarm, set on first write). */
  private async keepUntil(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(Date.now() + this.quotas.days * DAY);
  }

  override async alarm(): Promise<void> {
    // Everything goes, the tables stay: this instance may serve the next request.
    await this.reset();
  }

  private get sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  private row(resource: string, id: string): Row | undefined {
    return this.sql
      .exec<Row>(`SELECT ${COLUMNS} FROM records WHERE resource = ? AND id = ?`, resource, id)
      .toArray()[0];
  }

  /** Numbered ids given by a caller move the counter past them, so none is made twice. */
  private counted(resource: string, id: string): void {
    if (!NUMBERED.test(id)) return;
    this.sql.exec(
      "INSERT INTO counters (resource, last) VALUES (?, ?) ON CONFLICT (resource) DO UPDATE SET last = max(last, excluded.last)",
      resource,
      Number(id),
    );
  }

  private next(resource: string): number {
    for (;;) {
      const { last } = this.sql
        .exec<{ last: number }>(
          "INSERT INTO counters (resource, last) VALUES (?, 1) ON CONFLICT (resource) DO UPDATE SET last = last + 1 RETURNING last",
          resource,
        )
        .one();
      if (!this.row(resource, String(last))) return last;
    }
  }

  private put(
    resource: string,
    id: string,
    draft: Draft,
    before: Row | undefined,
  ): StoredRecord | Quota {
    const full = this.over(JSON.stringify(draft.body), before);
    if (full) return full;
    const scope = draft.scope ?? before?.scope ?? "";
    const states = JSON.stringify(draft.states ?? (before ? JSON.parse(before.states) : {}));
    const version = (before?.version ?? 0) + 1;
    this.sql.exec(
      "INSERT INTO records (resource, id, scope, body, states, version) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (resource, id) DO UPDATE SET scope = excluded.scope, body = excluded.body, states = excluded.states, version = excluded.version",
      resource,
      id,
      scope,
      JSON.stringify(draft.body),
      states,
      version,
    );
    this.counted(resource, id);
    return recordOf({ id, scope, body: JSON.stringify(draft.body), states, version });
  }

  async read(resource: string, id: string): Promise<StoredRecord | null> {
    const row = this.row(resource, id);
    return row ? recordOf(row) : null;
  }

  async list(resource: string, query: ListQuery) {
    const where = ["resource = ?"];
    const values: SqlStorageValue[] = [resource];
    if (query.scope !== undefined) {
      where.push("scope = ?");
      values.push(query.scope);
    }
    for (const [member, value] of query.where ?? []) {
      // JSON's true and false are 1 and 0 to SQLite's json_extract.
      where.push("json_extract(body, ?) = ?");
      values.push(
        `$."${member.replaceAll('"', '""')}"`,
        typeof value === "boolean" ? Number(value) : value,
      );
    }
    const condition = where.join(" AND ");
    const { total } = this.sql
      .exec<{ total: number }>(
        `SELECT count(*) AS total FROM records WHERE ${condition}`,
        ...values,
      )
      .one();
    const rows = this.sql
      .exec<Row>(
        `SELECT ${COLUMNS} FROM records WHERE ${condition} ORDER BY rowid LIMIT ? OFFSET ?`,
        ...values,
        query.limit,
        query.offset,
      )
      .toArray();
    return { records: rows.map(recordOf), total };
  }

  async sequence(resource: string): Promise<number> {
    return this.next(resource);
  }

  async insert(
    resource: string,
    id: string,
    draft: Draft,
  ): Promise<StoredRecord | "exists" | Quota> {
    if (this.row(resource, id)) return "exists";
    await this.keepUntil();
    return this.put(resource, id, draft, undefined);
  }

  async write(resource: string, id: string, draft: Draft, expected: Expected) {
    const before = this.row(resource, id);
    if (expected === "new" && before) return "exists" as const;
    if (typeof expected === "number" && !before) return "missing" as const;
    if (typeof expected === "number" && before?.version !== expected) return "conflict" as const;
    await this.keepUntil();
    return this.put(resource, id, draft, before);
  }

  async remove(resource: string, id: string): Promise<StoredRecord | null> {
    const row = this.row(resource, id);
    if (!row) return null;
    this.sql.exec("DELETE FROM records WHERE resource = ? AND id = ?", resource, id);
    return recordOf(row);
  }

  async reset(): Promise<void> {
    this.sql.exec("DELETE FROM records");
    this.sql.exec("DELETE FROM counters");
  }
}
