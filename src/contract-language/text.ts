/**
 * Values that arrive as text: path parameters, query parameters, headers, cookies and form
 * fields are strings on the wire (RFC 3986, RFC 9110 §5.5; OpenAPI 3.1 §4.8.12.4), while a
 * spec may type them as numbers or booleans. These wrap such a schema so it reads the text
 * first: a decimal number becomes a number, `true`/`false` a boolean; anything else
 * reaches the schema as it came and is refused there with the schema's own words. zod
 * writes the wrapped schema's JSON Schema unchanged (a pipe from a transform is documented
 * as its output), so the OpenAPI document says `integer`, not `string`.
 */
import { pipe, transform } from "zod/mini";
import type { Schema } from "./contract";

/** A JSON number's syntax (RFC 8259 §6), which is what `integer` and `number` accept as text. */
export const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `schema` read from text: a decimal number is given to it as a number. */
export function numberFromText<S extends Schema>(schema: S) {
  return pipe(
    transform((value: unknown) =>
      typeof value === "string" && NUMBER.test(value) ? Number(value) : value,
    ),
    schema,
  );
}

/** `schema` read from text: `true` and `false` are given to it as booleans. */
export function booleanFromText<S extends Schema>(schema: S) {
  return pipe(
    transform((value: unknown) => (value === "true" ? true : value === "false" ? false : value)),
    schema,
  );
}
