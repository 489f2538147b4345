/**
 * What the sandbox reads of a resource's schema (part 2), through zod's core so any zod v4
 * schema serves: which members are `readOnly` or `writeOnly` (OpenAPI 3.1 §4.8.24.1), their
 * defaults, whether a value satisfies one, and how ids are made for it. The values it makes
 * for members are made.ts's.
 */
import { globalRegistry, safeParse } from "zod/v4/core";
import type { Schema } from "../../contract-language/contract";
import { defOf, innerOf, unwrap } from "../../contract-language/zod-def";
import { patternString } from "../examples/pattern";
import { Random } from "../examples/random";

/** Whether `schema`, or what it wraps (optional, default…, a reference's target), carries the mark. */
export function isMarked(schema: Schema, mark: "readOnly" | "writeOnly"): boolean {
  let node: Schema | undefined = schema;
  for (let depth = 0; node && depth < 16; depth += 1) {
    if (globalRegistry.get(node)?.[mark] === true) return true;
    node = innerOf(node);
  }
  return false;
}

/** Whether a member may be absent (an optional member, or one with a default). */
export function isOptional(schema: Schema): boolean {
  return schema._zod.optin === "optional";
}

/** The member's default, if zod gives it one (`z._default`), along its wrappers and pipes. */
export function defaultOf(schema: Schema): { readonly value: unknown } | undefined {
  let node: Schema | undefined = schema;
  for (let depth = 0; node && depth < 16; depth += 1) {
    const def = defOf(node);
    if (def.type === "default" || def.type === "prefault") {
      const value = def.defaultValue;
      return { value: typeof value === "function" ? (value as () => unknown)() : value };
    }
    node = innerOf(node);
  }
  return undefined;
}

/** Whether `value` satisfies `schema` (synchronous schemas only; an async one says no). */
export function satisfies(schema: Schema, value: unknown): boolean {
  try {
    return safeParse(schema, value).success;
  } catch {
    return false;
  }
}

/** How the sandbox makes an id the id member's schema accepts. */
export type IdKind = "uuid" | "counter" | "counter-text" | "pattern";

/** The regular expression a string schema's `pattern` check holds, if it has one. */
function patternOf(node: Schema): string | undefined {
  for (const check of (defOf(node).checks ?? []) as Schema[]) {
    const def = check._zod.def as unknown as { format?: string; pattern?: RegExp };
    if (def.format === "regex" && def.pattern) return def.pattern.source;
  }
  return undefined;
}

/**
 * An id its schema's `pattern` matches (and the schema accepts), drawn from `seed` (a
 * random one when serving; a fixed one when placing, which may run where no random value
 * may be drawn, at a Worker's start), or undefined.
 */
export function patternId(schema: Schema, seed: string): string | undefined {
  const node = unwrap(schema);
  const pattern = patternOf(node);
  if (pattern === undefined) return undefined;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const made = patternString(pattern, Random.from(`${seed}\u0000${attempt}`));
    if (made.ok && satisfies(node, made.value)) return made.value;
  }
  return undefined;
}

/**
 * An id a `pattern` of the member or of a path parameter naming it matches, that every one
 * of them takes (a path parameter as the text a URL carries), or undefined.
 */
export function patternIdOf(
  member: Schema,
  params: readonly Schema[],
  seed: string,
): string | undefined {
  for (const source of [member, ...params]) {
    const made = patternId(source, seed);
    if (made !== undefined && satisfies(member, made) && params.every((p) => satisfies(p, made)))
      return made;
  }
  return undefined;
}

/**
 * Ids made as the schema says, that the path parameters naming an item (`params`, read
 * from a URL's text) take too: a `format: uuid` string (or any string a UUID satisfies)
 * gets a random UUID (RFC 9562 §5.4), an integer or number the next of a counter, another
 * string the counter's digits when they satisfy it, else a random string a `pattern`
 * matches (`^CA[0-9a-f]{32}$`, the member's or a parameter's); undefined when no such id does.
 */
export function idKindOf(schema: Schema, params: readonly Schema[] = []): IdKind | undefined {
  const node = unwrap(schema);
  const def = defOf(node);
  const inPath = (text: string) => params.every((param) => satisfies(param, text));
  if (def.type === "number" || def.type === "int" || def.type === "bigint")
    return satisfies(node, 1) && inPath("1") ? "counter" : undefined;
  if (def.type !== "string") return undefined;
  const uuid = "00000000-0000-4000-8000-000000000000";
  if (satisfies(node, uuid) && inPath(uuid)) return "uuid";
  if (satisfies(node, "1") && inPath("1")) return "counter-text";
  return patternIdOf(node, params, "placing") === undefined ? undefined : "pattern";
}
