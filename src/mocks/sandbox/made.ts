/**
 * The values the sandbox makes where no request gives one (a required member the server
 * sets, a page's `total`, an error's `code`), from the schema and its document alone, in
 * this order: its default; its `const` or enum (the document's example among them first);
 * the item's sequence number for an integer identity (`id`, `number`: so the id, the number
 * and the `Location` agree); the member's own examples (a URL on one of the contract's
 * servers moved to the deployment's origin); its format (a date-time is the time of the
 * write, and only where the schema says date-time); its pattern; its bounds; else plain
 * words or the least value of its type. Every value is checked against the schema before it
 * is used. Drawn from a seed (the resource and the item's sequence number), so the same
 * requests in a fresh sandbox make the same data, the clock aside.
 */
import { globalRegistry } from "zod/v4/core";
import type { Schema } from "../../contract-language/contract";
import { defOf, innerOf, unwrap } from "../../contract-language/zod-def";
import { membersOf } from "../../engine/zod/shape";
import { FORMATS, plainText } from "../examples/formats";
import { Random } from "../examples/random";
import { defaultOf, isOptional, patternId, satisfies } from "./values";

/** What one item's made values are drawn from. */
export interface Making {
  /** The same seed, the same values: the resource and the item's sequence number. */
  readonly seed?: string;
  /** The item's sequence number in its resource (1, 2, …). */
  readonly sequence?: number;
  /** The time of the write (RFC 3339), for date-time members. */
  readonly now?: string;
  /** The origins of the contract's servers, and the deployment's, which takes their place. */
  readonly origins?: { readonly servers: readonly string[]; readonly deployment: string };
}

/** Names an identity goes by (as spelt in any case style). */
const IDENTITIES = new Set(["id", "number"]);
const spelt = (name: string) => name.toLowerCase().replace(/[_-]/g, "");

/** zod's format names where JSON Schema's differ (`z.guid()` writes `uuid`, OpenAPI 3.1 §4.8.24). */
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  guid: "uuid",
  datetime: "date-time",
  url: "uri",
  base64: "byte",
};

/** The member's examples and format, read along its wrappers and references. */
function annotations(schema: Schema): { examples: unknown[]; format: string | undefined } {
  const examples: unknown[] = [];
  let format: string | undefined;
  let node: Schema | undefined = schema;
  for (let depth = 0; node && depth < 16; depth += 1) {
    const meta = globalRegistry.get(node) as Record<string, unknown> | undefined;
    if (Array.isArray(meta?.examples)) examples.push(...meta.examples);
    if (meta && Object.hasOwn(meta, "example")) examples.push(meta.example);
    const def = defOf(node);
    const own = def.type === "string" ? def.format : undefined;
    format ??= typeof meta?.format === "string" ? meta.format : (own as string | undefined);
    node = innerOf(node);
  }
  return { examples, format: format === undefined ? undefined : (FORMAT_NAMES[format] ?? format) };
}

/** An example on one of the contract's servers, moved to the deployment's origin. */
function onDeployment(example: unknown, origins: Making["origins"]): unknown {
  if (typeof example !== "string" || !origins) return example;
  const server = origins.servers.find(
    (origin) => example === origin || example.startsWith(`${origin}/`),
  );
  return server === undefined ? example : origins.deployment + example.slice(server.length);
}

/** The length bounds of a string schema's checks. */
function lengthBounds(node: Schema): readonly [number, number] {
  let [lo, hi] = [0, Number.POSITIVE_INFINITY];
  for (const check of (defOf(node).checks ?? []) as Schema[]) {
    const { check: kind, minimum, maximum, length } = defOf(check);
    if (kind === "min_length" && typeof minimum === "number") lo = Math.max(lo, minimum);
    if (kind === "max_length" && typeof maximum === "number") hi = Math.min(hi, maximum);
    if (kind === "length_equals" && typeof length === "number") [lo, hi] = [length, length];
  }
  return [lo, hi];
}

/** Strings for a member: its format's, its pattern's, then plain words its bounds allow. */
function strings(node: Schema, format: string | undefined, making: Making, rand: Random) {
  const [lo, hi] = lengthBounds(node);
  const now = making.now ?? new Date().toISOString();
  const made: unknown[] = [];
  if (format === "date-time") made.push(now);
  else if (format === "date") made.push(now.slice(0, 10));
  else if (format === "time") made.push(now.slice(11));
  else if ((format === "uri" || format === "url") && making.origins)
    made.push(`${making.origins.deployment}/`);
  const known = format === undefined ? undefined : FORMATS[format];
  if (known) made.push(known.make(rand, lo, Math.min(hi, 2048)));
  made.push(patternId(node, `${making.seed ?? ""}\u0000${rand.int(0, 2 ** 31)}`));
  const length = Math.max(lo, Math.min(hi, 12));
  if (Number.isFinite(length)) made.push(plainText(rand, length), "s".repeat(lo));
  return made;
}

/** The least numbers its bounds and step allow, then 0 and 1. */
function numbers(node: Schema): number[] {
  let least: number | undefined;
  let step = 1;
  for (const check of (defOf(node).checks ?? []) as Schema[]) {
    const { check: kind, value, inclusive } = defOf(check);
    if (kind === "greater_than" && typeof value === "number")
      least = inclusive ? value : Math.floor(value) + 1;
    if (kind === "multiple_of" && typeof value === "number") step = value;
  }
  const made = [0, 1];
  if (least !== undefined) made.unshift(Math.ceil(least / step) * step, least);
  return made;
}

/** Values of the member's type, where no default, enum or example gives one. */
function ofType(
  node: Schema,
  format: string | undefined,
  making: Making,
  rand: Random,
  depth: number,
): unknown[] {
  const def = defOf(node);
  switch (def.type) {
    case "string":
      return strings(node, format, making, rand);
    case "number":
    case "int":
      return numbers(node);
    case "boolean":
      return [false, true];
    case "array":
      return [[], [madeValue(def.element as Schema, making, "item", depth + 1)]];
    case "record":
      return [{}];
    case "object":
      return depth < 6 ? [madeObject(node, making, depth)] : [];
    case "intersection": {
      const left = madeValue(def.left as Schema, making, undefined, depth + 1);
      const right = madeValue(def.right as Schema, making, undefined, depth + 1);
      return [{ ...(left as object), ...(right as object) }];
    }
    case "union":
      return (def.options as Schema[]).map((option) =>
        madeValue(option, making, undefined, depth + 1),
      );
    default:
      return [];
  }
}

/** An object with each of its required members made. */
function madeObject(node: Schema, making: Making, depth: number): Record<string, unknown> {
  const made: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(membersOf(node) ?? {})) {
    if (isOptional(member)) continue;
    const value = madeValue(member, making, name, depth + 1);
    if (value !== undefined)
      Object.defineProperty(made, name, { value, enumerable: true, writable: true });
  }
  return made;
}

/**
 * A value for member `name` (of schema `schema`) that no request gives, as the module's
 * header orders them; undefined when none satisfies the schema.
 */
export function madeValue(schema: Schema, making: Making = {}, name = "", depth = 0): unknown {
  const given = defaultOf(schema);
  if (given) return given.value;
  const node = unwrap(schema);
  const def = defOf(node);
  const { examples, format } = annotations(schema);
  const rand = Random.from(`${making.seed ?? ""}\u0000${name}\u0000${depth}`);
  const candidates: unknown[] = [];
  if (def.type === "literal" || def.type === "enum") {
    const values =
      def.type === "literal" ? (def.values as unknown[]) : Object.values(def.entries as object);
    candidates.push(...examples.filter((example) => values.includes(example)), ...values);
  } else {
    const integer = def.type === "int" || (def.type === "number" && satisfies(node, 1));
    if (integer && IDENTITIES.has(spelt(name)) && making.sequence !== undefined)
      candidates.push(making.sequence);
    candidates.push(...examples.map((example) => onDeployment(example, making.origins)));
    candidates.push(...ofType(node, format, making, rand, depth));
  }
  candidates.push(null);
  return candidates.find((candidate) => candidate !== undefined && satisfies(schema, candidate));
}

/** A UUID (RFC 9562 §5.4's form) drawn from `seed`. */
export function madeUuid(seed: string): string {
  return FORMATS.uuid?.make(Random.from(seed), 36, 36) ?? crypto.randomUUID();
}
