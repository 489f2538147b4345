/**
 * A valid example value for a JSON Schema (OpenAPI 3.1 / JSON Schema 2020-12, plus OpenAPI
 * 3.0's `nullable` and `example`), made deterministically from a seed. The conformance
 * checker, generated per-operation tests and the Worker's answers from examples all need
 * one, so it runs in Node and in workerd alike: no Node API, no `eval`, no dependency, no
 * `Math.random` (./random.ts). A value is either valid or not made: each is checked against
 * the schema (./validate.ts) before it is returned, and what the generator cannot honour
 * gives `ok: false` with the reason. The keywords it reads, in what order, and what it
 * refuses (./pattern.ts): src/mocks/README.md, "The value generator".
 */

import type { JsonSchema } from "../../engine/example-book";
import { base64, FORMATS, pickLength, plainText, utf8 } from "./formats";
import { patternRegExp, patternString } from "./pattern";
import { Random } from "./random";
import {
  Checker,
  canonical,
  type Direction,
  decimal,
  discriminatorValue,
  escapeToken,
  isMultipleOf,
  isObject,
  isTypeName,
  type TypeName,
} from "./validate";

/** A JSON Schema: `true`, `false` or an object of keywords. */

export interface GenerateOptions {
  /**
   * What `$ref`s resolve against: the OpenAPI document (`#/components/schemas/X`) or the
   * JSON Schema document the schema belongs to. Default: the schema itself.
   */
  readonly root?: unknown;
  /** Same schema, options and seed: a deep-equal value. Default: the empty string. */
  readonly seed?: string;
  /**
   * request: readOnly members are left out (also when required: OpenAPI 3.1 §4.8.24.1);
   * response: writeOnly members are. Default: none is left out.
   */
  readonly direction?: Direction;
  /**
   * Which optional members an object gets: "none" (only the required ones, and arrays only
   * their `minItems`: the least a valid request needs) or "all" (each declared member, and
   * one or two items per array, down to four levels of nesting, beyond which only what is
   * required is made, so recursive schemas end). Default: "none" for a request, else "all".
   */
  readonly optional?: "none" | "all";
  /**
   * Pass over every `examples`, `example` and `default`: a value made from the schema's
   * types and constraints alone (the examples mode's `Prefer: dynamic=true`). Default: false.
   */
  readonly fresh?: boolean;
}

/** A value that satisfies the schema, or why none was made. */
type Generated =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

export type { Direction };

/** Below this depth of nesting, optional members and extra array items are made. */
const OPTIONAL_DEPTH = 4;
/** Deeper than this, a value is refused: a required member refers back to its own schema. */
const MAX_DEPTH = 24;
/** Schema nodes visited per attempt, before giving up on a value too large to make. */
const MAX_STEPS = 20_000;
/** Whole-value attempts, each from another seed, before a failure is reported. */
const ATTEMPTS = 3;
const NUMBER_FORMATS: ReadonlySet<string> = new Set(["int32", "int64", "float", "double"]);
const ANY_TYPE: readonly TypeName[] = ["string", "integer", "boolean", "object", "array"];

type Json = Readonly<Record<string, unknown>>;
type Choice = {
  readonly kind: "anyOf" | "oneOf" | "if";
  readonly branches: readonly unknown[];
  readonly discriminator: unknown;
  readonly key: object;
};
type Closed = { readonly names: ReadonlySet<string>; readonly patterns: readonly string[] };

/** One schema node with its `$ref`s and `allOf` merged: all a value of it must satisfy. */
interface Flat {
  sources: unknown[];
  refs: string[];
  ref?: string;
  types?: Set<TypeName>;
  /** OpenAPI 3.0 `nullable: true` beside no `type` (as with `allOf: [{ $ref }]`): null also does. */
  nullable: boolean;
  /** A `$ref` of this node is already being made further up: a recursive schema. */
  recursive: boolean;
  constValue?: { readonly value: unknown };
  enumValues?: unknown[];
  examples: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf: number[];
  formats: string[];
  minLength?: number;
  maxLength?: number;
  patterns: string[];
  contentEncoding?: string;
  contentMediaType?: string;
  contentSchema?: unknown;
  items: unknown[];
  prefixItems: unknown[][];
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  contains: unknown[];
  minContains?: number;
  properties: Map<string, unknown[]>;
  required: Set<string>;
  additional: unknown[];
  closed: Closed[];
  patternProperties: Map<string, unknown[]>;
  propertyNames: unknown[];
  minProperties?: number;
  maxProperties?: number;
  dependentRequired: Map<string, string[]>;
  noExtra: boolean;
  discriminator?: Json;
  choices: Choice[];
  resolved: Set<object>;
  nots: unknown[];
}

interface Context {
  readonly checker: Checker;
  readonly optional: "none" | "all";
  steps: number;
}

/** Where a value is being made: its path, nesting, the `$ref`s entered on the way, its seed. */
interface Frame {
  readonly path: string;
  readonly depth: number;
  readonly refs: readonly string[];
  readonly rand: Random;
  /** Set when an item must differ from its siblings: examples and defaults are passed over. */
  readonly fresh: boolean;
}

const ok = (value: unknown): Generated => ({ ok: true, value });
const fail = (reason: string): Generated => ({ ok: false, reason });
const where = (frame: Frame): string => frame.path || "/";
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const count = (value: unknown): number | undefined => {
  const n = num(value);
  return n !== undefined && n >= 0 ? Math.floor(n) : undefined;
};
const max = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);
const min = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);
/** One schema for a list that must all hold. */
const allOf = (schemas: readonly unknown[]): unknown =>
  schemas.length === 0 ? true : schemas.length === 1 ? schemas[0] : { allOf: schemas };
const clone = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

function emptyFlat(schema: unknown): Flat {
  return {
    sources: [schema],
    refs: [],
    nullable: false,
    recursive: false,
    examples: [],
    multipleOf: [],
    formats: [],
    patterns: [],
    items: [],
    prefixItems: [],
    uniqueItems: false,
    contains: [],
    properties: new Map(),
    required: new Set(),
    additional: [],
    closed: [],
    patternProperties: new Map(),
    propertyNames: [],
    dependentRequired: new Map(),
    noExtra: false,
    choices: [],
    resolved: new Set(),
    nots: [],
  };
}

function cloneFlat(f: Flat): Flat {
  const lists = <T>(map: Map<string, T[]>) => new Map([...map].map(([k, v]) => [k, [...v]]));
  return {
    ...f,
    sources: [...f.sources],
    refs: [...f.refs],
    types: f.types && new Set(f.types),
    enumValues: f.enumValues && [...f.enumValues],
    examples: [...f.examples],
    multipleOf: [...f.multipleOf],
    formats: [...f.formats],
    patterns: [...f.patterns],
    items: [...f.items],
    prefixItems: f.prefixItems.map((p) => [...p]),
    contains: [...f.contains],
    properties: lists(f.properties),
    required: new Set(f.required),
    additional: [...f.additional],
    closed: [...f.closed],
    patternProperties: lists(f.patternProperties),
    propertyNames: [...f.propertyNames],
    dependentRequired: lists(f.dependentRequired),
    choices: [...f.choices],
    resolved: new Set(f.resolved),
    nots: [...f.nots],
  };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `type` and `nullable`: the types a value may have, narrowed by each schema merged. */
function absorbType(f: Flat, s: Json): string | undefined {
  const listed = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : [];
  const known = listed.filter(isTypeName);
  // OpenAPI 3.0.3 reads `nullable` only beside `type`; documents write it beside `allOf`
  // or `$ref` too, to mean "or null", and so it is read here (./validate.ts does the same).
  if (s.type === undefined && s.nullable === true) f.nullable = true;
  if (known.length === 0) return undefined;
  const types = new Set<TypeName>(known);
  if (s.nullable === true) types.add("null");
  if (!f.types) {
    f.types = types;
    return undefined;
  }
  const both = new Set<TypeName>();
  for (const t of f.types) {
    if (types.has(t)) both.add(t);
    else if (t === "integer" && types.has("number")) both.add("integer");
    else if (t === "number" && types.has("integer")) both.add("integer");
  }
  if (both.size === 0) return `the types ${[...f.types]} and ${[...types]} have nothing in common`;
  f.types = both;
  return undefined;
}

/** `const`, `enum`, `examples`, `example`, `default`, and the numeric keywords. */
function absorbValues(f: Flat, s: Json): string | undefined {
  if (Object.hasOwn(s, "const")) {
    if (f.constValue && canonical(f.constValue.value) !== canonical(s.const)) {
      return "two different const values must both hold";
    }
    f.constValue = { value: s.const };
  }
  if (Array.isArray(s.enum)) {
    const mine = new Set(s.enum.map(canonical));
    f.enumValues = (f.enumValues ?? s.enum).filter((v) => mine.has(canonical(v)));
    if (f.enumValues.length === 0) return "no value is in every enum";
  }
  if (Array.isArray(s.examples)) f.examples.push(...s.examples);
  if (Object.hasOwn(s, "example")) f.examples.push(s.example);
  if (Object.hasOwn(s, "default")) f.examples.push(s.default);
  f.minimum = max(f.minimum, num(s.minimum));
  f.maximum = min(f.maximum, num(s.maximum));
  f.exclusiveMinimum = max(f.exclusiveMinimum, num(s.exclusiveMinimum));
  f.exclusiveMaximum = min(f.exclusiveMaximum, num(s.exclusiveMaximum));
  // OpenAPI 3.0 (JSON Schema draft 4): a boolean that makes `minimum`/`maximum` exclusive.
  if (s.exclusiveMinimum === true) f.exclusiveMinimum = max(f.exclusiveMinimum, num(s.minimum));
  if (s.exclusiveMaximum === true) f.exclusiveMaximum = min(f.exclusiveMaximum, num(s.maximum));
  const step = num(s.multipleOf);
  if (step !== undefined && step > 0) f.multipleOf.push(step);
  if (typeof s.format === "string" && !f.formats.includes(s.format)) f.formats.push(s.format);
  return undefined;
}

/** The string and array keywords. */
function absorbStringsAndArrays(f: Flat, s: Json): void {
  f.minLength = max(f.minLength, count(s.minLength));
  f.maxLength = min(f.maxLength, count(s.maxLength));
  if (typeof s.pattern === "string") f.patterns.push(s.pattern);
  if (typeof s.contentEncoding === "string") f.contentEncoding ??= s.contentEncoding;
  if (typeof s.contentMediaType === "string") f.contentMediaType ??= s.contentMediaType;
  if (s.contentSchema !== undefined) f.contentSchema ??= s.contentSchema;
  // `items` as a list is the tuple form of drafts before 2020-12.
  const prefix = Array.isArray(s.prefixItems)
    ? s.prefixItems
    : Array.isArray(s.items)
      ? s.items
      : [];
  prefix.forEach((schema, i) => {
    while (f.prefixItems.length <= i) f.prefixItems.push([]);
    f.prefixItems[i]?.push(schema);
  });
  if (s.items !== undefined && !Array.isArray(s.items)) f.items.push(s.items);
  f.minItems = max(f.minItems, count(s.minItems));
  f.maxItems = min(f.maxItems, count(s.maxItems));
  if (s.uniqueItems === true) f.uniqueItems = true;
  if (s.contains !== undefined) f.contains.push(s.contains);
  f.minContains = max(f.minContains, count(s.minContains));
}

/** The object keywords. */
function absorbObject(f: Flat, s: Json): void {
  const properties = isObject(s.properties) ? s.properties : {};
  const patterns = isObject(s.patternProperties) ? s.patternProperties : {};
  for (const [name, schema] of Object.entries(properties)) push(f.properties, name, schema);
  for (const [pattern, schema] of Object.entries(patterns))
    push(f.patternProperties, pattern, schema);
  for (const name of Array.isArray(s.required) ? s.required : []) {
    if (typeof name === "string") f.required.add(name);
  }
  if (s.additionalProperties === false) {
    f.closed.push({ names: new Set(Object.keys(properties)), patterns: Object.keys(patterns) });
  } else if (isObject(s.additionalProperties)) {
    f.additional.push(s.additionalProperties);
  }
  if (s.unevaluatedProperties === false) f.noExtra = true;
  if (s.propertyNames !== undefined) f.propertyNames.push(s.propertyNames);
  f.minProperties = max(f.minProperties, count(s.minProperties));
  f.maxProperties = min(f.maxProperties, count(s.maxProperties));
  if (isObject(s.dependentRequired)) {
    for (const [name, needs] of Object.entries(s.dependentRequired)) {
      for (const need of Array.isArray(needs) ? needs : []) {
        if (typeof need === "string") push(f.dependentRequired, name, need);
      }
    }
  }
  if (isObject(s.discriminator) && typeof s.discriminator.propertyName === "string") {
    f.discriminator ??= s.discriminator;
  }
}

function addChoice(f: Flat, choice: Choice): void {
  if (f.resolved.has(choice.key) || f.choices.some((c) => c.key === choice.key)) return;
  f.choices.push(choice);
}

/**
 * Merges `schema` into `f`: its own keywords, then its `$ref` (3.1 reads the keywords
 * beside a `$ref` too) and its `allOf`. `anyOf`, `oneOf`, `if` and `not` are kept for
 * later. `chain` holds the `$ref`s being merged, to refuse a cycle with no value between.
 */
function absorb(
  f: Flat,
  schema: unknown,
  checker: Checker,
  chain: readonly string[],
): string | undefined {
  if (schema === false) return "the schema false admits no value";
  if (!isObject(schema)) return undefined;
  const problem = absorbType(f, schema) ?? absorbValues(f, schema);
  if (problem) return problem;
  absorbStringsAndArrays(f, schema);
  absorbObject(f, schema);
  if (typeof schema.$ref === "string") {
    const ref = schema.$ref;
    if (chain.includes(ref))
      return `$ref cycle with no value between: ${[...chain, ref].join(" → ")}`;
    const target = checker.resolve(ref);
    if (!target.ok) return target.reason;
    f.refs.push(ref);
    f.ref ??= ref;
    const inner = absorb(f, target.schema, checker, [...chain, ref]);
    if (inner) return inner;
  }
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const inner = absorb(f, branch, checker, chain);
    if (inner) return inner;
  }
  const discriminator = schema.discriminator ?? f.discriminator;
  for (const kind of ["anyOf", "oneOf"] as const) {
    const branches = schema[kind];
    if (Array.isArray(branches)) addChoice(f, { kind, branches, discriminator, key: branches });
  }
  if (schema.if !== undefined) {
    const then = { allOf: [schema.if, schema.then ?? true] };
    const otherwise = { allOf: [schema.else ?? true], not: schema.if };
    addChoice(f, {
      kind: "if",
      branches: [then, otherwise],
      discriminator: undefined,
      key: schema,
    });
  }
  if (schema.not !== undefined) f.nots.push(schema.not);
  return undefined;
}

/** Makes a value for `schema` at `frame`. */
function generate(schema: unknown, ctx: Context, frame: Frame): Generated {
  ctx.steps += 1;
  if (ctx.steps > MAX_STEPS) {
    return fail(
      `${where(frame)}: gave up after ${MAX_STEPS} schema nodes (the value grows too large)`,
    );
  }
  if (frame.depth > MAX_DEPTH) {
    const ref = frame.refs.find((r, i) => frame.refs.indexOf(r) !== i) ?? frame.refs.at(-1);
    return fail(
      `${where(frame)}: the value nests deeper than ${MAX_DEPTH} levels: a required member or item refers back to its own schema${ref ? ` (${ref})` : ""}`,
    );
  }
  const f = emptyFlat(schema);
  const problem = absorb(f, schema, ctx.checker, []);
  if (problem) return fail(`${where(frame)}: ${problem}`);
  f.recursive = f.refs.some((ref) => frame.refs.includes(ref));
  return fromFlat(f, ctx, { ...frame, refs: [...frame.refs, ...f.refs] });
}

function fromFlat(f: Flat, ctx: Context, frame: Frame): Generated {
  return f.choices.length > 0 ? choose(f, ctx, frame) : nodeValue(f, ctx, frame);
}

/** The order branches are tried in: seeded; null ones last, recursive ones last when deep. */
function branchOrder(choice: Choice, ctx: Context, frame: Frame): number[] {
  const indices = choice.branches.map((_, i) => i);
  if (choice.kind === "if") return indices;
  const deep = frame.depth >= OPTIONAL_DEPTH || ctx.optional === "none";
  const rank = (i: number): number => {
    const branch = choice.branches[i];
    if (!isObject(branch)) return 0;
    const recursive = typeof branch.$ref === "string" && frame.refs.includes(branch.$ref);
    const isNull =
      branch.type === "null" ||
      (Array.isArray(branch.enum) && branch.enum.every((e) => e === null));
    return (recursive && deep ? 2 : 0) + (isNull && !deep ? 1 : 0);
  };
  return frame.rand
    .fork(`order:${choice.kind}`)
    .shuffle(indices)
    .sort((a, b) => rank(a) - rank(b));
}

/** The first choice's branches in turn, each merged with the rest of the node. */
function choose(f: Flat, ctx: Context, frame: Frame): Generated {
  const [choice, ...rest] = f.choices as [Choice, ...Choice[]];
  const reasons: string[] = [];
  let lenient: Generated | undefined;
  for (const index of branchOrder(choice, ctx, frame)) {
    const branch = choice.branches[index];
    const merged = cloneFlat(f);
    merged.choices = rest;
    merged.resolved.add(choice.key);
    merged.sources.push(branch);
    const tag = discriminatorValue(choice.discriminator, branch);
    if (tag !== undefined && isObject(choice.discriminator)) {
      const name = choice.discriminator.propertyName as string;
      const forced = { properties: { [name]: { const: tag } }, required: [name] };
      merged.sources.push(forced);
      absorb(merged, forced, ctx.checker, []);
    }
    const problem = absorb(merged, branch, ctx.checker, []);
    if (problem) {
      reasons.push(`branch ${index}: ${problem}`);
      continue;
    }
    const refs = [...frame.refs, ...merged.refs.slice(f.refs.length)];
    for (let attempt = 0; attempt < (choice.kind === "oneOf" ? 3 : 1); attempt += 1) {
      const rand = frame.rand.fork(`${choice.kind}${index}:${attempt}`);
      const made = fromFlat(merged, ctx, { ...frame, refs, rand });
      if (!made.ok) {
        reasons.push(made.reason);
        break;
      }
      if (choice.kind !== "oneOf") return made;
      const others = choice.branches.filter(
        (other, j) => j !== index && ctx.checker.check(made.value, other) === undefined,
      ).length;
      if (others === 0) return made;
      // The discriminator still picks this branch (as an OpenAPI-aware validator reads it).
      if (tag !== undefined) lenient ??= made;
      reasons.push(
        `${where(frame)}: the value made for branch ${index} also matches ${others} other branch(es)`,
      );
    }
  }
  if (lenient) return lenient;
  const what = choice.kind === "if" ? "neither if/then nor else" : `no branch of ${choice.kind}`;
  return fail(`${where(frame)}: ${what} gives a value (${reasons.slice(0, 3).join("; ")})`);
}

/** The types to try, in order: declared (or inferred from the keywords), null last. */
function typeOrder(f: Flat, frame: Frame, deep: boolean): TypeName[] {
  let types: TypeName[];
  if (f.types) types = [...f.types];
  else {
    types = [];
    const objectish =
      f.properties.size +
        f.required.size +
        f.patternProperties.size +
        f.additional.length +
        f.closed.length >
        0 ||
      f.minProperties !== undefined ||
      f.maxProperties !== undefined;
    const arrayish =
      f.items.length + f.prefixItems.length + f.contains.length > 0 || f.minItems !== undefined;
    const numeric = f.formats.filter((x) => NUMBER_FORMATS.has(x));
    const stringish =
      f.minLength !== undefined ||
      f.maxLength !== undefined ||
      f.patterns.length > 0 ||
      f.formats.length > numeric.length;
    const numberish =
      f.minimum !== undefined ||
      f.maximum !== undefined ||
      f.exclusiveMinimum !== undefined ||
      f.exclusiveMaximum !== undefined;
    if (objectish) types.push("object");
    if (arrayish || f.maxItems !== undefined) types.push("array");
    if (stringish || f.contentEncoding !== undefined) types.push("string");
    if (numeric.some((x) => x.startsWith("int"))) types.push("integer");
    else if (numberish || f.multipleOf.length > 0 || numeric.length > 0) types.push("number");
    if (types.length === 0) types = [...ANY_TYPE];
  }
  const rand = frame.rand.fork("type");
  const nonNull = types.filter((t) => t !== "null");
  const shuffled = f.types ? rand.shuffle(nonNull) : nonNull;
  if (!types.includes("null") && !f.nullable) return shuffled;
  // Null ends a recursive schema as soon as nesting is deep enough; else it comes last.
  return f.recursive && deep ? ["null", ...shuffled] : [...shuffled, "null"];
}

/** A value of the merged node: const, an example, an enum value, or one made by type. */
function nodeValue(f: Flat, ctx: Context, frame: Frame): Generated {
  const whole = { allOf: f.sources };
  const fits = (value: unknown) => ctx.checker.check(value, whole, frame.path) === undefined;
  if (f.constValue) {
    if (fits(f.constValue.value)) return ok(clone(f.constValue.value));
    return fail(`${where(frame)}: the const value does not satisfy the rest of its schema`);
  }
  if (!frame.fresh) {
    for (const example of f.examples) if (fits(example)) return ok(clone(example));
  }
  if (f.enumValues) {
    for (const value of frame.rand.fork("enum").shuffle(f.enumValues))
      if (fits(value)) return ok(clone(value));
    return fail(`${where(frame)}: no enum value satisfies the rest of its schema`);
  }
  const reasons: string[] = [];
  const deep = frame.depth >= OPTIONAL_DEPTH || ctx.optional === "none";
  for (const type of typeOrder(f, frame, deep)) {
    for (let attempt = 0; attempt < (f.nots.length > 0 ? 3 : 1); attempt += 1) {
      const rand = attempt === 0 ? frame.rand : frame.rand.fork(`not${attempt}`);
      const made = ofType(type, f, ctx, { ...frame, rand });
      if (!made.ok) {
        reasons.push(made.reason);
        break;
      }
      if (!f.nots.some((not) => ctx.checker.check(made.value, not) === undefined)) return made;
      reasons.push(`${where(frame)}: the ${type} made matches the schema of not`);
    }
  }
  return fail(
    reasons.length === 1
      ? (reasons[0] as string)
      : `${where(frame)}: no type gives a value (${reasons.join("; ")})`,
  );
}

function ofType(type: TypeName, f: Flat, ctx: Context, frame: Frame): Generated {
  switch (type) {
    case "null":
      return ok(null);
    case "boolean":
      return ok(frame.rand.chance(0.5));
    case "integer":
    case "number":
      return numberValue(f, type === "integer", frame);
    case "string":
      return stringValue(f, ctx, frame);
    case "array":
      return arrayValue(f, ctx, frame);
    case "object":
      return objectValue(f, ctx, frame);
  }
}

/** The least common multiple of two positive decimals (exact: 0.01 and 0.25 give 0.25). */
function lcm(a: number, b: number): number {
  const [ac, ae] = decimal(a);
  const [bc, be] = decimal(b);
  const e = Math.min(ae, be);
  const x = ac * 10n ** BigInt(ae - e);
  const y = bc * 10n ** BigInt(be - e);
  let [p, q] = [x, y];
  while (q !== 0n) [p, q] = [q, p % q];
  return Number(`${(x / p) * y}e${e}`);
}

/** `k` times `step`, computed in decimal so 3 × 0.1 is 0.3. */
function times(k: number, step: number): number {
  const [c, e] = decimal(step);
  return Number(`${BigInt(k) * c}e${e}`);
}

/** Where numbers are drawn from: the bounds, or a window of a thousand beside the one given. */
function numberWindow(lo: number, hi: number): readonly [number, number] {
  if (Number.isFinite(lo) && Number.isFinite(hi)) return [lo, hi];
  if (Number.isFinite(lo)) return [lo, lo + 1000];
  if (Number.isFinite(hi)) return hi > 0 ? [0, hi] : [hi - 1000, hi];
  return [0, 1000];
}

function numberValue(f: Flat, integer: boolean, frame: Frame): Generated {
  const at = where(frame);
  let lo = f.minimum ?? Number.NEGATIVE_INFINITY;
  let hi = f.maximum ?? Number.POSITIVE_INFINITY;
  const loOpen = f.exclusiveMinimum !== undefined && f.exclusiveMinimum >= lo;
  const hiOpen = f.exclusiveMaximum !== undefined && f.exclusiveMaximum <= hi;
  if (loOpen) lo = f.exclusiveMinimum as number;
  if (hiOpen) hi = f.exclusiveMaximum as number;
  const whole = integer || f.formats.includes("int32") || f.formats.includes("int64");
  const limit = f.formats.includes("int32") ? 2 ** 31 : Number.MAX_SAFE_INTEGER;
  // Bounds at the format's own limits (zod's int: ±2^53 − 1; int32: −2^31 and 2^31 − 1) are
  // the type's, not the API's: the window a value is drawn from ignores them, so an
  // unbounded count is 0 to 1000, not a number near −2^53.
  const ofType = (bound: number) => Math.abs(bound) >= limit - 1;
  const window = numberWindow(
    ofType(lo) ? Number.NEGATIVE_INFINITY : lo,
    ofType(hi) ? Number.POSITIVE_INFINITY : hi,
  );
  const [wlo, whi] = [Math.max(window[0], -limit), Math.min(window[1], limit - 1)];
  const inside = (v: number) =>
    (loOpen ? v > lo : v >= lo) &&
    (hiOpen ? v < hi : v <= hi) &&
    Math.abs(v) <= limit &&
    (!whole || Number.isInteger(v)) &&
    f.multipleOf.every((m) => isMultipleOf(v, m));
  let step = f.multipleOf.reduce<number | undefined>(
    (a, b) => (a === undefined ? b : lcm(a, b)),
    undefined,
  );
  if (whole) step = step === undefined ? 1 : lcm(step, 1);
  if (step === undefined) {
    const n = frame.rand.int(Math.ceil(wlo), Math.floor(whi));
    const fraction = frame.rand.pick([0, 0.25, 0.5, 0.75]);
    for (const v of [n + fraction, n, (wlo + whi) / 2]) if (inside(v)) return ok(v);
    return fail(`${at}: no number lies between ${lo} and ${hi} as the schema bounds them`);
  }
  const kLo = Math.ceil(wlo / step);
  const kHi = Math.min(Math.floor(whi / step), kLo + 100_000);
  if (!Number.isSafeInteger(kLo) || !Number.isSafeInteger(kHi)) {
    return fail(`${at}: the bounds ${lo} and ${hi} are too large for multiples of ${step}`);
  }
  const ks = [
    ...Array.from({ length: 24 }, () => frame.rand.int(kLo, Math.max(kLo, kHi))),
    ...Array.from({ length: Math.max(0, Math.min(kHi - kLo + 1, 64)) }, (_, i) => kLo + i),
  ];
  for (const k of ks) {
    const v = times(k, step);
    if (inside(v)) return ok(v);
  }
  return fail(
    `${at}: no ${whole ? "integer" : "number"} found between ${lo} and ${hi} that is a multiple of ${f.multipleOf.join(" and ") || 1}`,
  );
}

/** `contentEncoding: base64` (of `contentSchema`'s JSON, or of bytes) or JSON text. */
function contentValue(f: Flat, ctx: Context, frame: Frame, lo: number, hi: number): Generated {
  const media = f.contentMediaType?.toLowerCase() ?? "";
  const json = /[/+]json\b/.test(media);
  let text: string | undefined;
  if (f.contentSchema !== undefined && (json || media === "")) {
    const inner = generate(f.contentSchema, ctx, { ...frame, path: `${frame.path}(content)` });
    if (!inner.ok) return inner;
    text = JSON.stringify(inner.value);
  } else if (json) {
    text = JSON.stringify(plainText(frame.rand, 8));
  } else if (media.startsWith("text/")) {
    text = plainText(frame.rand, 16);
  }
  const encoded = f.contentEncoding?.toLowerCase() === "base64";
  const value = encoded
    ? base64(
        text === undefined ? Array.from({ length: 12 }, () => frame.rand.int(0, 255)) : utf8(text),
      )
    : (text ?? plainText(frame.rand, 8));
  const length = Array.from(value).length;
  if (length >= lo && length <= hi) return ok(value);
  const fallback =
    encoded && f.contentSchema === undefined ? FORMATS.byte?.make(frame.rand, lo, hi) : undefined;
  return fallback === undefined
    ? fail(`${where(frame)}: the content made is ${length} characters, outside ${lo} to ${hi}`)
    : ok(fallback);
}

function stringValue(f: Flat, ctx: Context, frame: Frame): Generated {
  const at = where(frame);
  const lo = f.minLength ?? 0;
  const hi = f.maxLength ?? Number.POSITIVE_INFINITY;
  if (lo > hi) return fail(`${at}: minLength ${lo} is above maxLength ${hi}`);
  const formats = f.formats.filter((name) => FORMATS[name] !== undefined);
  const fits = (s: string) => {
    const length = Array.from(s).length;
    return (
      length >= lo &&
      length <= hi &&
      formats.every((name) => FORMATS[name]?.test(s)) &&
      f.patterns.every((p) => patternRegExp(p)?.test(s) === true)
    );
  };
  const content =
    f.contentEncoding !== undefined ||
    f.contentSchema !== undefined ||
    /json/i.test(f.contentMediaType ?? "");
  if (content && f.patterns.length === 0 && formats.length === 0)
    return contentValue(f, ctx, frame, lo, hi);
  const format = formats[0] === undefined ? undefined : FORMATS[formats[0]];
  const reasons: string[] = [];
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const rand = frame.rand.fork(`string${attempt}`);
    const candidates: (string | undefined)[] = [];
    const pattern = f.patterns[attempt % Math.max(1, f.patterns.length)];
    if (pattern !== undefined) {
      const made = patternString(pattern, rand, lo, hi);
      if (made.ok) candidates.push(made.value);
      else reasons.push(made.reason);
    }
    if (format) candidates.push(format.make(rand, lo, hi));
    if (pattern === undefined && !format) {
      candidates.push(
        plainText(rand, pickLength(rand, [lo, hi], [0, Number.POSITIVE_INFINITY], [5, 16]) ?? lo),
      );
    }
    const good = candidates.find((s) => s !== undefined && fits(s));
    if (good !== undefined) return ok(good);
  }
  if (reasons[0] !== undefined) return fail(`${at}: ${reasons[0]}`);
  if (format && f.patterns.length === 0) {
    return fail(`${at}: format ${formats[0]} has no string of ${lo} to ${hi} characters`);
  }
  return fail(
    `${at}: no string found that satisfies its pattern(s), format(s) and length together`,
  );
}

/** A frame for the member or item `key`, one level deeper, with a seed of its own. */
function child(frame: Frame, key: string | number, salt = ""): Frame {
  return {
    path: `${frame.path}/${escapeToken(String(key))}`,
    depth: frame.depth + 1,
    refs: frame.refs,
    rand: frame.rand.fork(`${key}${salt}`),
    fresh: frame.fresh,
  };
}

function arrayValue(f: Flat, ctx: Context, frame: Frame): Generated {
  const at = where(frame);
  const lo = f.minItems ?? 0;
  const hi = f.maxItems ?? Number.POSITIVE_INFINITY;
  if (lo > hi) return fail(`${at}: minItems ${lo} is above maxItems ${hi}`);
  const prefix = f.prefixItems;
  const open = !f.items.includes(false);
  const itemSchema = allOf(f.items);
  const contains = f.contains.length > 0 ? allOf(f.contains) : undefined;
  const needed = contains === undefined ? 0 : (f.minContains ?? 1);
  const generous = ctx.optional === "all" && frame.depth < OPTIONAL_DEPTH;
  const wanted = generous ? Math.max(prefix.length, frame.rand.int(1, 2)) : 0;
  let length = Math.min(hi, Math.max(lo, wanted, needed > 0 ? prefix.length + needed : 0));
  if (!open && length > prefix.length) {
    if (lo > prefix.length)
      return fail(`${at}: minItems ${lo} needs more items than prefixItems allows`);
    length = prefix.length;
  }
  const items: unknown[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < length; i += 1) {
    const fromContains = contains !== undefined && i >= prefix.length && i < prefix.length + needed;
    const schema =
      i < prefix.length
        ? allOf(prefix[i] ?? [])
        : fromContains
          ? allOf([itemSchema, contains])
          : itemSchema;
    let made: Generated = fail(
      `${frame.path}/${i}: no item different from the others was found (uniqueItems)`,
    );
    for (let attempt = 0; attempt < (f.uniqueItems ? 8 : 1); attempt += 1) {
      const itemFrame = child(frame, i, attempt === 0 ? "" : `:${attempt}`);
      const r = generate(schema, ctx, attempt === 0 ? itemFrame : { ...itemFrame, fresh: true });
      if (!r.ok) {
        made = r;
        break;
      }
      if (!f.uniqueItems || !seen.has(canonical(r.value))) {
        made = r;
        break;
      }
    }
    if (!made.ok) {
      if (i >= lo && !fromContains) break;
      return made;
    }
    items.push(made.value);
    seen.add(canonical(made.value));
  }
  return ok(items);
}

/** What a member of the merged object must satisfy: its properties, patterns, or the rest. */
function memberSchema(f: Flat, name: string): unknown {
  const declared = f.properties.get(name) ?? [];
  const matched = [...f.patternProperties]
    .filter(([pattern]) => patternRegExp(pattern)?.test(name))
    .flatMap(([, schemas]) => schemas);
  return allOf(declared.length + matched.length > 0 ? [...declared, ...matched] : f.additional);
}

function memberValue(f: Flat, name: string, ctx: Context, frame: Frame): Generated {
  const schema = memberSchema(f, name);
  const into = child(frame, name);
  // A schema that inherits a discriminator through allOf names itself (its component name
  // or mapping key) when its property is otherwise free.
  if (f.discriminator?.propertyName === name && f.ref !== undefined) {
    const tag = discriminatorValue(f.discriminator, { $ref: f.ref });
    const tagged =
      tag === undefined ? undefined : generate({ allOf: [schema, { const: tag }] }, ctx, into);
    if (tagged?.ok) return tagged;
  }
  return generate(schema, ctx, into);
}

function objectValue(f: Flat, ctx: Context, frame: Frame): Generated {
  const at = where(frame);
  const allowed = (name: string) =>
    f.closed.every(
      (c) => c.names.has(name) || c.patterns.some((p) => patternRegExp(p)?.test(name)),
    );
  const hidden = (name: string) =>
    (f.properties.get(name) ?? []).some((s) => ctx.checker.hidden(s));
  const required = new Set([...f.required].filter((name) => !hidden(name)));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, needs] of f.dependentRequired) {
      if (!required.has(name)) continue;
      for (const need of needs) {
        if (!required.has(need) && !hidden(need)) {
          required.add(need);
          grew = true;
        }
      }
    }
  }
  const optional =
    ctx.optional === "all" && frame.depth < OPTIONAL_DEPTH
      ? [...f.properties.keys()].filter(
          (name) => !required.has(name) && !hidden(name) && allowed(name),
        )
      : [];
  const entries: [string, unknown][] = [];
  for (const name of required) {
    if (!allowed(name))
      return fail(
        `${at}: the required member ${name} is not allowed (additionalProperties: false)`,
      );
    const made = memberValue(f, name, ctx, frame);
    if (!made.ok) return made;
    entries.push([name, made.value]);
  }
  const roomFor = (n: number) => f.maxProperties === undefined || n < f.maxProperties;
  for (const name of optional) {
    if (!roomFor(entries.length)) break;
    if (f.dependentRequired.get(name)?.some((need) => hidden(need) || !allowed(need))) continue;
    const made = memberValue(f, name, ctx, frame);
    if (made.ok) entries.push([name, made.value]);
  }
  const problem = fillMinProperties(f, ctx, frame, entries, hidden, allowed);
  return problem ? fail(problem) : ok(Object.fromEntries(entries));
}

/** Adds members up to `minProperties`: declared ones, then pattern ones, then others. */
function fillMinProperties(
  f: Flat,
  ctx: Context,
  frame: Frame,
  entries: [string, unknown][],
  hidden: (name: string) => boolean,
  allowed: (name: string) => boolean,
): string | undefined {
  const wanted = f.minProperties ?? 0;
  const has = (name: string) => entries.some(([n]) => n === name);
  const tryAdd = (name: string) => {
    if (entries.length >= wanted || has(name) || hidden(name) || !allowed(name)) return;
    const made = memberValue(f, name, ctx, frame);
    if (made.ok) entries.push([name, made.value]);
  };
  for (const name of f.properties.keys()) tryAdd(name);
  for (const [pattern] of f.patternProperties) {
    for (let i = 0; i < wanted && entries.length < wanted; i += 1) {
      const name = patternString(pattern, frame.rand.fork(`name:${pattern}:${i}`), 1, 40);
      if (name.ok) tryAdd(name.value);
    }
  }
  const open = f.closed.length === 0 && !f.noExtra && !f.additional.includes(false);
  for (let i = 0; open && i < wanted * 4 && entries.length < wanted; i += 1) {
    const named =
      f.propertyNames.length > 0
        ? generate(allOf(f.propertyNames), ctx, {
            ...frame,
            path: `${frame.path}(name)`,
            rand: frame.rand.fork(`name${i}`),
          })
        : ok(`${plainText(frame.rand.fork(`name${i}`), 5)}${i}`);
    if (named.ok && typeof named.value === "string") tryAdd(named.value);
  }
  return entries.length >= wanted
    ? undefined
    : `${where(frame)}: minProperties ${wanted} cannot be reached`;
}

/**
 * A value that satisfies `schema`, made from `options.seed` (same inputs, deep-equal
 * value), or why none was made: an unsupported construct (an external `$ref`, a regular
 * expression with lookaround or backreferences), constraints with no value in common
 * (`allOf` with two `const`s, `minLength` above `maxLength`, a required member that
 * `additionalProperties: false` forbids), a required member that refers back to its own
 * schema with no way to end, or a value that fails the final check. Up to three attempts
 * are made, each from another seed derived from the given one.
 */
export function generateValue(schema: JsonSchema, options: GenerateOptions = {}): Generated {
  const direction = options.direction;
  const checker = new Checker(options.root ?? schema, direction);
  const ctx: Context = {
    checker,
    optional: options.optional ?? (direction === "request" ? "none" : "all"),
    steps: 0,
  };
  const seed = options.seed ?? "";
  let reason = "no attempt was made";
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    ctx.steps = 0;
    const rand = Random.from(attempt === 0 ? seed : `${seed}\u0000attempt${attempt}`);
    try {
      const fresh = options.fresh === true;
      const made = generate(schema, ctx, { path: "", depth: 0, refs: [], rand, fresh });
      if (!made.ok) {
        reason = made.reason;
        continue;
      }
      const problem = checker.check(made.value, schema);
      if (problem === undefined) return made;
      reason = `the value made does not satisfy the schema (${problem})`;
    } catch (error) {
      // A mock answer or a test should get a reason, not an exception, even from a bug here
      // or a schema deep enough to exhaust the stack.
      return { ok: false, reason: `the generator failed: ${String(error)}` };
    }
  }
  return { ok: false, reason };
}
