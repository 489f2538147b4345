/**
 * One schema for both directions (OpenAPI's `readOnly` and `writeOnly`): a member the
 * server sets (an id, a state) is not required in requests, and a member only clients send
 * (a card's security code) is not required in answers. Marking a member with these helpers
 * records it in the schema's metadata (so the JSON Schema says `readOnly: true`) and in its
 * type (so a handler sees the member as optional where it may be absent). Metadata written
 * with zod's own `meta({ readOnly: true })` is honoured at run time too, without the type.
 */
import { clone, globalRegistry, type output } from "zod/v4/core";
import type { Schema } from "./contract";

declare const readOnlyMark: unique symbol;
declare const writeOnlyMark: unique symbol;

/** A schema whose member only the server sets. */
export type ReadOnly<S extends Schema> = S & { readonly [readOnlyMark]: true };
/** A schema whose member only clients send. */
export type WriteOnly<S extends Schema> = S & { readonly [writeOnlyMark]: true };

function marked<S extends Schema>(schema: S, mark: "readOnly" | "writeOnly"): S {
  const copy = clone(schema);
  globalRegistry.add(copy, { ...globalRegistry.get(schema), [mark]: true });
  return copy as S;
}

/** Marks a member as set by the server: optional in requests (OpenAPI 3.1 §4.8.24.1). */
export function readOnly<S extends Schema>(schema: S): ReadOnly<S> {
  return marked(schema, "readOnly") as ReadOnly<S>;
}

/** Marks a member as sent by clients only: optional in answers (OpenAPI 3.1 §4.8.24.1). */
export function writeOnly<S extends Schema>(schema: S): WriteOnly<S> {
  return marked(schema, "writeOnly") as WriteOnly<S>;
}

type ShapeOf<S> = S extends { readonly _zod: { readonly def: { readonly shape: infer Shape } } }
  ? Shape
  : never;

type MarkedKeys<S, Mark> = {
  [K in keyof ShapeOf<S>]: ShapeOf<S>[K] extends Mark ? K : never;
}[keyof ShapeOf<S>];

type Loosen<T, K> = [K] extends [never] ? T : Omit<T, K & keyof T> & Partial<Pick<T, K & keyof T>>;

/** What a handler receives for a body of schema `S`: its read-only members may be absent. */
export type RequestValue<S extends Schema> = Loosen<
  output<S>,
  MarkedKeys<S, { readonly [readOnlyMark]: true }>
>;

/** What a handler answers for a body of schema `S`: its write-only members may be left out. */
export type ResponseValue<S extends Schema> = Loosen<
  output<S>,
  MarkedKeys<S, { readonly [writeOnlyMark]: true }>
>;
