/**
 * Declarations part 4 uses more than once (a components parameter, response, example):
 * one const each, the rest written in place.
 */
import type { Identifiers } from "../names";

/** Tokens in code stand for shared declarations until they are resolved (a private-use character). */
const MARK = "\uE000";
const TOKEN = /\uE000([^\uE000]*)\uE000/g;

interface SharedEntry {
  readonly id: string;
  readonly code: string;
  count: number;
}

export class Shared {
  readonly #entries = new Map<string, SharedEntry>();
  readonly #ids: Identifiers;

  constructor(ids: Identifiers) {
    this.#ids = ids;
  }

  /** A token standing for `code`; `key` identifies the component it came from. */
  use(key: string, name: string, suffix: string, code: () => string): string {
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { id: this.#ids.take(`${name}${suffix}`, suffix), code: code(), count: 0 };
      this.#entries.set(key, entry);
    }
    entry.count += 1;
    return `${MARK}${key}${MARK}`;
  }

  /** The consts of entries used more than once, and `body` with every token resolved. */
  resolve(body: string): { consts: string; body: string } {
    const consts: string[] = [];
    const replace = (text: string): string =>
      text.replace(TOKEN, (_, key: string) => {
        const entry = this.#entries.get(key) as SharedEntry;
        return entry.count > 1 ? entry.id : replace(entry.code);
      });
    for (const entry of this.#entries.values())
      if (entry.count > 1) consts.push(`const ${entry.id} = ${replace(entry.code)};`);
    return { consts: consts.join("\n"), body: replace(body) };
  }
}
