/**
 * Which members of a query or form schema are lists: OpenAPI's default encoding of those
 * (style form, explode true, OpenAPI 3.1 §4.8.12.4) repeats the name for each item, so one
 * item arrives as a plain value and must still be read as a list.
 */
import type { Schema } from "../../contract-language/contract";
import { isList, objectShape } from "../zod/shape";

export function arrayMembers(schema: Schema | undefined): ReadonlySet<string> {
  const shape = schema ? objectShape(schema) : undefined;
  return new Set(
    Object.entries(shape ?? {})
      .filter(([, member]) => isList(member))
      .map(([name]) => name),
  );
}
