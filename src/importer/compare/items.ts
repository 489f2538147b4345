/**
 * What the round-trip report counts: items, each kept or lost at its pointer in the source,
 * in categories; and the figures of a list of them.
 */
import { isObject } from "../source";

export const CATEGORIES = [
  "operations",
  "parameters",
  "request bodies",
  "responses",
  "response headers",
  "schemas",
  "security",
  "webhooks",
  "examples",
  "tags",
  "servers",
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Item {
  readonly category: Category;
  readonly pointer: string;
  readonly kept: boolean;
  /** What is lost, when it is. */
  readonly note?: string;
  /**
   * How it is carried differently, when it is kept under another name: the one item that
   * says so, where the import made the change (what refers to it is compared through it).
   */
  readonly changed?: string;
}

export interface Comparison {
  readonly items: readonly Item[];
  readonly byCategory: ReadonlyMap<Category, { kept: number; total: number }>;
  readonly kept: number;
  readonly total: number;
  /** kept / total over every item; 1 when the source states nothing. */
  readonly fidelity: number;
}

/** JSON values equal whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && sameJson(a[key], b[key]));
}

export const regexSource = (pattern: unknown) => {
  if (typeof pattern !== "string") return pattern;
  try {
    return new RegExp(pattern, /\\[pP]\{/.test(pattern) ? "u" : "").source;
  } catch {
    return pattern;
  }
};

/** The figures of a list of items: per category and overall. */
export function tally(items: readonly Item[]): Comparison {
  const byCategory = new Map<Category, { kept: number; total: number }>();
  for (const category of CATEGORIES) byCategory.set(category, { kept: 0, total: 0 });
  for (const item of items) {
    const figure = byCategory.get(item.category) as { kept: number; total: number };
    figure.total += 1;
    if (item.kept) figure.kept += 1;
  }
  const kept = items.filter((i) => i.kept).length;
  return {
    items,
    byCategory,
    kept,
    total: items.length,
    fidelity: items.length === 0 ? 1 : kept / items.length,
  };
}

export const brief = (value: unknown): string => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
};

export type Record_ = (category: Category, pointer: string, kept: boolean, note?: string) => void;
