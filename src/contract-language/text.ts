/**
 * Values that arrive as text: path parameters, query parameters, headers, cookies and form
 * fields are strings on the wire (RFC 3986, RFC 9110 §5.5; OpenAPI 3.1 §4.8.12.4), while a
 * spec may type them as numbers or booleans. These wrap such a schema so it reads the text
 * first: a decimal number becomes a number, `true`/`false` a boolean; anything else
 * reaches the schema as it came and is refused there with the schema's own words. zod
 * writes the wrapped schema's JSON Schema unchanged (a pipe from a transform is documented
 * as its output), so the OpenAPI document says `integer`, not `string`.
 */
import { pipe, transform, type ZodMiniPipe, type ZodMiniTransform } from "zod/mini";
import type { Schema } from "./contract";

/** A JSON number's syntax (RFC 8259 §6), which is what `integer` and `number` accept as text. */
export const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A schema read from text, typed as optional where `S` is (a default, `optional`): the
 * pipe's type takes its optionality from the transform at its head, which has none, so a
 * caller's types (src/client) would require a parameter zod itself lets a request leave out
 * (at run time, and in the served document's `required` lists, zod reads it from `S`).
 */
export type FromText<S extends Schema> = ZodMiniPipe<ZodMiniTransform<unknown, unknown>, S> & {
  readonly _zod: { readonly optin: S["_zod"]["optin"] };
};

/** `schema` read from text: a decimal number is given to it as a number. */
export function numberFromText<S extends Schema>(schema: S): FromText<S> {
  return pipe(
    transform((value: unknown) =>
      typeof value === "string" && NUMBER.test(value) ? Number(value) : value,
    ),
    schema,
  ) as FromText<S>;
}

/** `schema` read from text: `true` and `false` are given to it as booleans. */
export function booleanFromText<S extends Schema>(schema: S): FromText<S> {
  return pipe(
    transform((value: unknown) => (value === "true" ? true : value === "false" ? false : value)),
    schema,
  ) as FromText<S>;
}
