/**
 * What the sandbox reads of a resource's schema (part 2), through zod's core so any zod v4
 * schema serves: its members and which of them are `readOnly` or `writeOnly` (OpenAPI 3.1
 * §4.8.24.1), their defaults, a value a required member the server sets can hold, and an
 * answer without the members only clients send.
 */
import { globalRegistry, safeParse } from "zod/v4/core";
import type { Schema } from "../../contract-language/contract";
import { patternString } from "../examples/pattern";
import { Random } from "../examples/random";
import { objectShape, unwrap, WRAPPERS } from "../zod/shape";

type Def = { readonly type: string } & Readonly<Record<string, unknown>>;
const defOf = (schema: Schema) => schema._zod.def as unknown as Def;

/** Whether `schema`, or what it wraps (optional, default…, a reference's target), carries the mark. */
export function isMarked(schema: Schema, mark: "readOnly" | "writeOnly"): boolean {
  let node: Schema | undefined = schema;
  for (let depth = 0; node && depth < 16; depth += 1) {
    if (globalRegistry.get(node)?.[mark] === true) return true;
    node = innerOf(defOf(node));
  }
  return false;
}

/** Whether a member may be absent (an optional member, or one with a default). */
export function isOptional(schema: Schema): boolean {
  return schema._zod.optin === "optional";
}

/** The schema a wrapper, a lazy (a reference) or a pipe holds (a pipe read from text: what it reads into). */
function innerOf(def: Def): Schema | undefined {
  if (WRAPPERS.has(def.type)) return def.innerType as Schema;
  if (def.type === "lazy") return (def.getter as () => Schema)();
  if (def.type !== "pipe") return undefined;
  const input = def.in as Schema;
  return (defOf(input).type === "transform" ? def.out : input) as Schema;
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
    node = innerOf(def);
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
 * Ids made as the schema says: a `format: uuid` string (or any string a UUID satisfies) gets
 * a random UUID (RFC 9562 §5.4), an integer or number the next of a counter, another
 * string the counter's digits when they satisfy it, else a random string its `pattern`
 * matches (`^CA[0-9a-f]{32}$`); undefined when no such id does.
 */
export function idKindOf(schema: Schema): IdKind | undefined {
  const node = unwrap(schema);
  const def = defOf(node);
  if (def.type === "number" || def.type === "int" || def.type === "bigint")
    return satisfies(node, 1) ? "counter" : undefined;
  if (def.type !== "string") return undefined;
  if (satisfies(node, "00000000-0000-4000-8000-000000000000")) return "uuid";
  if (satisfies(node, "1")) return "counter-text";
  return patternId(node, "placing") === undefined ? undefined : "pattern";
}

/** Candidate strings a required server-set member may take, the first that fits is used. */
function stringCandidates(): string[] {
  const now = new Date().toISOString();
  return [
    now,
    now.slice(0, 10),
    crypto.randomUUID(),
    "sandbox",
    "https://sandbox.invalid/",
    "sandbox@sandbox.invalid",
    "0",
    "",
  ];
}

/**
 * Strings shaped by the schema's own checks, for what no plain candidate satisfies: one of
 * the length its bounds allow (Adyen's three-letter `currency`), and one its `pattern`
 * matches.
 */
function shapedStrings(node: Schema): string[] {
  let min = 1;
  let max = Number.POSITIVE_INFINITY;
  for (const check of (defOf(node).checks ?? []) as { _zod: { def: Record<string, unknown> } }[]) {
    const { check: kind, minimum, maximum, length } = check._zod.def;
    if (kind === "min_length" && typeof minimum === "number") min = Math.max(min, minimum);
    if (kind === "max_length" && typeof maximum === "number") max = Math.min(max, maximum);
    if (kind === "length_equals" && typeof length === "number") [min, max] = [length, length];
  }
  const shaped = min <= max && Number.isFinite(min) ? ["s".repeat(min)] : [];
  const patterned = patternId(node, "made");
  return patterned === undefined ? shaped : [...shaped, patterned];
}

/**
 * A value for a member the sandbox must set and no request gives (a required read-only
 * member such as a creation time): its default, else a literal or the first enum value,
 * else the first of a few plain values that satisfies the schema. Undefined when none does.
 */
export function madeValue(schema: Schema, depth = 0): unknown {
  const given = defaultOf(schema);
  if (given) return given.value;
  const node = unwrap(schema);
  const def = defOf(node);
  const candidates: unknown[] = [];
  if (def.type === "literal") candidates.push(...(def.values as unknown[]));
  else if (def.type === "enum") candidates.push(...Object.values(def.entries as object));
  else if (def.type === "string") candidates.push(...stringCandidates(), ...shapedStrings(node));
  else if (def.type === "number" || def.type === "int") candidates.push(0, 1);
  else if (def.type === "boolean") candidates.push(false);
  else if (def.type === "array") candidates.push([]);
  else if (def.type === "object" && depth < 4) {
    const made: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(objectShape(node) ?? {}))
      if (!isOptional(member)) made[name] = madeValue(member, depth + 1);
    candidates.push(made);
  } else if (def.type === "nullable") candidates.push(null);
  if (defOf(schema).type === "nullable") candidates.push(null);
  return candidates.find((candidate) => satisfies(schema, candidate));
}
