/**
 * What a zod schema is, read from its definition (zod's core, so the classic API and
 * `zod/mini` alike): the members of an object schema, and whether a member is a list.
 * Enough for the checks made when the app starts, without converting to JSON Schema.
 */
import type { Schema } from "../../contract-language/contract";

type Def = { readonly type: string } & Readonly<Record<string, unknown>>;

/** zod's wrapper types: each holds one inner schema (`def.innerType`). */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "nonoptional",
  "readonly",
  "catch",
]);

/** The schema under zod's wrappers: optional, nullable, default, a pipe's input (or output, after a transform), a lazy's target. */
export function unwrap(schema: Schema): Schema {
  let node = schema;
  for (let depth = 0; depth < 32; depth++) {
    const def = node._zod.def as unknown as Def;
    if (WRAPPERS.has(def.type)) node = def.innerType as Schema;
    // A pipe is what it reads, unless it reads through a transform (src/contract-language/text.ts).
    else if (def.type === "pipe") {
      const input = def.in as Schema;
      node = (input._zod.def.type === "transform" ? def.out : input) as Schema;
    } else if (def.type === "lazy") node = (def.getter as () => Schema)();
    else break;
  }
  return node;
}

/** The members of an object schema; undefined for any other kind. */
export function objectShape(schema: Schema): Readonly<Record<string, Schema>> | undefined {
  const def = unwrap(schema)._zod.def as unknown as Def;
  return def.type === "object" ? (def.shape as Record<string, Schema>) : undefined;
}

/** Whether values of the schema may be lists (an array, or a union with one). */
export function isList(schema: Schema): boolean {
  const def = unwrap(schema)._zod.def as unknown as Def;
  if (def.type === "array") return true;
  return def.type === "union" && (def.options as Schema[]).some(isList);
}

/**
 * The members of an object schema, or of an intersection of objects (OpenAPI's `allOf`, as
 * a document composes a resource from a base and its own members), a member both sides
 * declare read from the first, unless only the other requires it (a value must satisfy
 * both: required on either side is required); undefined for any other kind.
 */
export function membersOf(schema: Schema, depth = 0): Readonly<Record<string, Schema>> | undefined {
  const own = objectShape(schema);
  if (own) return own;
  const def = unwrap(schema)._zod.def as unknown as Def;
  if (def.type !== "intersection" || depth > 8) return undefined;
  const left = membersOf(def.left as Schema, depth + 1);
  const right = membersOf(def.right as Schema, depth + 1);
  if (!left || !right) return undefined;
  const merged = { ...right, ...left };
  const optional = (member: Schema) => member._zod.optin === "optional";
  for (const [name, member] of Object.entries(right))
    if (Object.hasOwn(left, name) && optional(left[name] as Schema) && !optional(member))
      merged[name] = member;
  return merged;
}
