/**
 * zod's definition of a schema (`_zod.def`), read one way everywhere. zod's core types it
 * per kind of schema; the server, the mocks and the client read it across kinds (what a
 * wrapper holds, an object's members, an array's items), so this is the one place its
 * shape is asserted, and the one walk under zod's wrappers.
 */
import type { $ZodType } from "zod/v4/core";

/** What a schema's definition holds, by kind; a member of another kind is absent. */
export interface ZodDef {
  readonly type: string;
  /** A wrapper's schema (optional, nullable, default, …). */
  readonly innerType?: $ZodType;
  /** A pipe's input and output. */
  readonly in?: $ZodType;
  readonly out?: $ZodType;
  /** A lazy's target. */
  readonly getter?: () => $ZodType;
  /** An object's members, and the schema of the members it does not name. */
  readonly shape?: Readonly<Record<string, $ZodType>>;
  readonly catchall?: $ZodType;
  /** An array's or a set's items. */
  readonly element?: $ZodType;
  /** A record's keys and values. */
  readonly keyType?: $ZodType;
  readonly valueType?: $ZodType;
  /** A union's branches; an intersection's two sides. */
  readonly options?: readonly $ZodType[];
  readonly left?: $ZodType;
  readonly right?: $ZodType;
  /** An enum's entries; a literal's values. */
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly [other: string]: unknown;
}

export const defOf = (schema: $ZodType): ZodDef => schema._zod.def as unknown as ZodDef;

/** zod's wrapper types: each holds one inner schema (`innerType`). */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "nonoptional",
  "readonly",
  "catch",
]);

/**
 * The schema one step under `schema`: a wrapper's, a lazy's target, a pipe's input (or its
 * output, after a transform: src/contract-language/text.ts); undefined for any other kind.
 */
export function innerOf(schema: $ZodType): $ZodType | undefined {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return def.innerType;
  if (def.type === "lazy") return def.getter?.();
  if (def.type !== "pipe" || !def.in) return undefined;
  return defOf(def.in).type === "transform" ? def.out : def.in;
}

/** The schema under all of zod's wrappers, pipes and lazies (at most 32 deep). */
export function unwrap(schema: $ZodType): $ZodType {
  let node = schema;
  for (let depth = 0; depth < 32; depth++) {
    const inner = innerOf(node);
    if (!inner) break;
    node = inner;
  }
  return node;
}
