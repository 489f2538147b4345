/**
 * Declarations part 4 uses more than once (a components parameter, response, example):
 * one const each, the rest written in place. A schema's const is a `component`, built on
 * its first use (src/contract-language/lazy.ts), and called where it is used.
 */
import type { Identifiers } from "../names";
import { componentCall } from "../schema-code";

/** Tokens in code stand for shared declarations until they are resolved (a private-use character). */
const MARK = "\uE000";
const TOKEN = /\uE000([^\uE000]*)\uE000/g;

interface SharedEntry {
  readonly id: string;
  readonly code: string;
  /** A schema (a member of an object schema), not data. */
  readonly schema: boolean;
  count: number;
}

export class Shared {
  readonly #entries = new Map<string, SharedEntry>();
  readonly #ids: Identifiers;

  constructor(ids: Identifiers) {
    this.#ids = ids;
  }

  /** A token standing for `code`, data; `key` identifies the component it came from. */
  use(key: string, name: string, suffix: string, code: () => string, schema = false): string {
    let entry = this.#entries.get(key);
    if (!entry) {
      const id = this.#ids.take(`${name}${suffix}`, suffix);
      entry = { id, code: code(), schema, count: 0 };
      this.#entries.set(key, entry);
    }
    entry.count += 1;
    return `${MARK}${key}${MARK}`;
  }

  /** A token standing for the code of a schema; `key` identifies the component it came from. */
  schema(key: string, name: string, suffix: string, code: () => string): string {
    return this.use(key, name, suffix, code, true);
  }

  /**
   * The consts of entries used more than once, and `body` with every token resolved;
   * `components` when a const is a schema's `component`.
   */
  resolve(body: string): { consts: string; body: string; components: boolean } {
    const consts: string[] = [];
    const replace = (text: string): string =>
      text.replace(TOKEN, (_, key: string) => {
        const entry = this.#entries.get(key) as SharedEntry;
        if (entry.count <= 1) return replace(entry.code);
        return entry.schema ? componentCall(entry.id) : entry.id;
      });
    let components = false;
    for (const entry of this.#entries.values()) {
      if (entry.count <= 1) continue;
      const code = replace(entry.code);
      consts.push(`const ${entry.id} = ${entry.schema ? `component(() => ${code})` : code};`);
      components ||= entry.schema;
    }
    return { consts: consts.join("\n"), body: replace(body), components };
  }
}
