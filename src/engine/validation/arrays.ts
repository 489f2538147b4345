/**
 * Which members of a query or form schema are arrays: OpenAPI's default encoding of those
 * (style form, explode true, OpenAPI 3.1 §4.8.12.4) repeats the name for each item, so one
 * item arrives as a plain value and must still be read as a list.
 */
import type { Schema } from "../../domain/contract";
import type { JsonSchemaConverter } from "../../platform/openapi/document";

/** The members a schema declares as arrays, from its JSON Schema (any zod API). */
export function arrayMembers(
  schema: Schema | undefined,
  convert: JsonSchemaConverter | undefined,
): ReadonlySet<string> {
  if (!schema || !convert) return new Set();
  const json = convert(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" });
  const isArray = (property: unknown): boolean => {
    if (property === null || typeof property !== "object") return false;
    const p = property as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
    if (p.type === "array" || (Array.isArray(p.type) && p.type.includes("array"))) return true;
    return [...(p.anyOf ?? []), ...(p.oneOf ?? [])].some(isArray);
  };
  const properties = (json.properties ?? {}) as Record<string, unknown>;
  return new Set(Object.keys(properties).filter((name) => isArray(properties[name])));
}
