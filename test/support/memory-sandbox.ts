/**
 * The sandbox's records kept in memory, for Node suites that serve a contract in the
 * `sandbox` setting where there is no Durable Object (Node has no `cloudflare:workers`):
 * a namespace with `idFromName` and `get`, as the SANDBOX binding offers them
 * (src/mocks/sandbox/records.ts), each name's records a `SandboxRecords` that behaves as
 * the Durable Object does (src/mocks/sandbox/durable-object.ts): records by resource and
 * id in the order they were made, a version each write raises, a counter per resource for
 * numbered ids that ids given by a caller move past, and bodies copied in and out, as a
 * stub's structured clone copies them. The workerd suites use the Durable Object itself.
 */
import type {
  Draft,
  Expected,
  ListQuery,
  SandboxRecords,
  StoredRecord,
} from "../../src/mocks/sandbox/records";

const NUMBERED = /^(0|[1-9][0-9]{0,14})$/;

const copy = <T>(value: T): T => structuredClone(value);

/** One sandbox's records: what one Durable Object of the SandboxStore class keeps. */
function memoryRecords(): SandboxRecords {
  const tables = new Map<string, Map<string, StoredRecord>>();
  const counters = new Map<string, number>();
  const table = (resource: string) => {
    const found = tables.get(resource) ?? new Map<string, StoredRecord>();
    tables.set(resource, found);
    return found;
  };
  const counted = (resource: string, id: string) => {
    if (NUMBERED.test(id))
      counters.set(resource, Math.max(counters.get(resource) ?? 0, Number(id)));
  };
  const next = (resource: string) => {
    for (;;) {
      const last = (counters.get(resource) ?? 0) + 1;
      counters.set(resource, last);
      if (!table(resource).has(String(last))) return last;
    }
  };
  const put = (resource: string, id: string, draft: Draft, before?: StoredRecord) => {
    const stored: StoredRecord = {
      id,
      scope: draft.scope ?? before?.scope ?? "",
      body: copy(draft.body),
      states: copy(draft.states ?? before?.states ?? {}),
      version: (before?.version ?? 0) + 1,
    };
    // A replaced record keeps its place in the order, as SQLite's upsert keeps its rowid.
    table(resource).set(id, stored);
    counted(resource, id);
    return copy(stored);
  };
  return {
    async read(resource, id) {
      const found = table(resource).get(id);
      return found ? copy(found) : null;
    },
    async list(resource, query: ListQuery) {
      const matching = [...table(resource).values()].filter(
        (record) =>
          (query.scope === undefined || record.scope === query.scope) &&
          (query.where ?? []).every(([member, value]) => record.body[member] === value),
      );
      const page = matching.slice(query.offset, query.offset + query.limit);
      return { records: page.map(copy), total: matching.length };
    },
    async sequence(resource) {
      return next(resource);
    },
    async insert(resource, id, draft) {
      return table(resource).has(id) ? ("exists" as const) : put(resource, id, draft);
    },
    async write(resource, id, draft, expected: Expected) {
      const before = table(resource).get(id);
      if (expected === "new" && before) return "exists" as const;
      if (typeof expected === "number" && !before) return "missing" as const;
      if (typeof expected === "number" && before?.version !== expected) return "conflict" as const;
      return put(resource, id, draft, before);
    },
    async remove(resource, id) {
      const found = table(resource).get(id);
      if (!found) return null;
      table(resource).delete(id);
      return found;
    },
    async reset() {
      tables.clear();
      counters.clear();
    },
  };
}

/** A SANDBOX namespace whose objects are kept in memory, one per name, for this process. */
export function memorySandbox(): {
  idFromName(name: string): string;
  get(id: unknown): SandboxRecords;
} {
  const objects = new Map<string, SandboxRecords>();
  return {
    idFromName: (name) => name,
    get(id) {
      const name = String(id);
      const found = objects.get(name) ?? memoryRecords();
      objects.set(name, found);
      return found;
    },
  };
}
