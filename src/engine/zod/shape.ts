/**
 * What a zod schema is, read from its definition (zod's core, so the classic API and
 * `zod/mini` alike): the members of an object schema, and whether a member is a list.
 * Enough for the checks made when the app starts, without converting to JSON Schema.
 */
import type { Schema } from "../../contract-language/contract";
import { defOf, unwrap } from "../../contract-language/zod-def";

/** The members of an object schema; undefined for any other kind. */
export function objectShape(schema: Schema): Readonly<Record<string, Schema>> | undefined {
  const def = defOf(unwrap(schema));
  return def.type === "object" ? def.shape : undefined;
}

/** Whether values of the schema may be lists (an array, or a union with one). */
export function isList(schema: Schema): boolean {
  const def = defOf(unwrap(schema));
  if (def.type === "array") return true;
  return def.type === "union" && (def.options ?? []).some(isList);
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
  const def = defOf(unwrap(schema));
  if (def.type !== "intersection" || !def.left || !def.right || depth > 8) return undefined;
  const left = membersOf(def.left, depth + 1);
  const right = membersOf(def.right, depth + 1);
  if (!left || !right) return undefined;
  const merged = { ...right, ...left };
  const optional = (member: Schema) => member._zod.optin === "optional";
  for (const [name, member] of Object.entries(right))
    if (Object.hasOwn(left, name) && optional(left[name] as Schema) && !optional(member))
      merged[name] = member;
  return merged;
}
