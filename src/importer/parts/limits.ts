/**
 * Part 8: a page-size limit, from a bounded integer query parameter whose name says it
 * bounds a page, only where its bounds and name make it unambiguous.
 */
import { literal, propertyKey } from "../schema-code";
import { isObject, type Json } from "../source";
import { counted, type PartCode, plainPart } from "./context";

/** A query parameter that bounds a page, by the names APIs give it. */
const PAGE_SIZE = /^(?:limit|page[-_]?size|per[-_]?page|max[-_]?results|page[-_]?limit)$/i;

interface PageSize {
  readonly parameter: string;
  readonly minimum: number;
  readonly maximum: number;
  readonly operations: string[];
  readonly description?: string;
}

/** Page-size limits as part 4's parameters are read: one per parameter name and bounds. */
export class PageSizes {
  readonly #limits = new Map<string, PageSize>();

  /** Notes a query parameter `p` (its schema followed) of operation `id`, if it bounds a page. */
  note(location: string, name: string, p: Json, schema: unknown, id: string): void {
    if (location !== "query" || !PAGE_SIZE.test(name) || !bounded(schema)) return;
    const [minimum, maximum] = [schema.minimum as number, schema.maximum as number];
    const key = `${name}\n${minimum}\n${maximum}`;
    const limit = this.#limits.get(key) ?? {
      parameter: name,
      minimum,
      maximum,
      operations: [] as string[],
      ...(typeof p.description === "string" ? { description: p.description } : {}),
    };
    limit.operations.push(id);
    this.#limits.set(key, limit);
  }

  /** Part 8's file; none without a page size. */
  part(): PartCode | undefined {
    const limits = [...this.#limits.values()];
    if (limits.length === 0) return undefined;
    const lines = limits.map((limit) => {
      let name = `${limit.parameter}-${limit.minimum}-${limit.maximum}`;
      if (!limits.some((l) => l !== limit && l.parameter === limit.parameter))
        name = limit.parameter;
      return `${propertyKey(name)}: ${literal({ kind: "page-size", operations: limit.operations, parameter: limit.parameter, minimum: limit.minimum, maximum: limit.maximum, ...(limit.description ? { description: limit.description } : {}) })},`;
    });
    return plainPart(
      `export const limits = {\n${lines.join("\n")}\n} as const satisfies Readonly<Record<string, Limit>>;`,
      lines.length,
      counted(lines.length, "page-size limit"),
    );
  }
}

/** An integer schema with safe, ordered, non-negative bounds and no step. */
function bounded(schema: unknown): schema is Json {
  return (
    isObject(schema) &&
    schema.type === "integer" &&
    Number.isSafeInteger(schema.minimum) &&
    Number.isSafeInteger(schema.maximum) &&
    (schema.minimum as number) >= 0 &&
    (schema.minimum as number) <= (schema.maximum as number) &&
    (schema.maximum as number) < Number.MAX_SAFE_INTEGER &&
    schema.multipleOf === undefined
  );
}
