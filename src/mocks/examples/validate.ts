/**
 * A small JSON Schema 2020-12 checker (plus OpenAPI 3.0's `nullable` and the readOnly /
 * writeOnly rules of OpenAPI 3.1 §4.8.24.1) for the example generator's own use: to keep
 * a document's `example`, `default` or `enum` value only when it satisfies its schema, to
 * make a `oneOf` value that matches exactly one branch and a `not` value that does not
 * match, and to check every value before it is handed out. The generator cannot use Ajv
 * (it compiles with `new Function`, which workerd refuses) and must not depend on a
 * package; this reads the keywords the generator makes values for, no more.
 *
 * Read strictly where validators differ: `multipleOf` holds in decimal (as
 * @cfworker/json-schema reads it) and in binary floating point (as Ajv does, so 19.99 is
 * not a multiple of 0.01); formats as ./formats.ts reads them. Leniently where documents
 * need it: `nullable: true` without a `type` beside it (3.0 reads it only beside `type`)
 * also admits null. `unevaluated*`,
 * `$dynamicRef` and annotations are not read. A `oneOf` with an OpenAPI `discriminator`
 * also holds when the discriminator picks a branch the value matches.
 */
import { isOfFormat } from "./formats";
import { patternRegExp } from "./pattern";

/** Which side of an exchange a value is for: it decides which of readOnly/writeOnly hide. */
export type Direction = "request" | "response";
/** A `$ref`'s target, or why it has none. */
type Resolved =
  | { readonly ok: true; readonly schema: unknown }
  | { readonly ok: false; readonly reason: string };
type Json = Readonly<Record<string, unknown>>;

/** Hops through `$ref` and `allOf`, in `hidden`, before it stops looking. */
const MAX_HOPS = 64;

/** A JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A JSON Pointer token escaped for a path in a reason (RFC 6901). */
export const escapeToken = (token: string): string =>
  token.replace(/~/g, "~0").replace(/\//g, "~1");

/** A deterministic text for a JSON value (keys sorted), for equality and uniqueness. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/**
 * The schema a local `$ref` points at within `root` (`#`, or `#/…` with the pointer's
 * `~0`/`~1` and the fragment's percent-encoding undone); or why it points nowhere.
 */
function resolveRef(root: unknown, ref: string): Resolved {
  const fail = (why: string): Resolved => ({ ok: false, reason: `$ref ${ref} ${why}` });
  if (!ref.startsWith("#")) return fail("points outside the document (only #/… is resolved)");
  if (ref === "#" || ref === "#/") return { ok: true, schema: root };
  if (!ref.startsWith("#/")) return fail("names an anchor (only JSON Pointers are resolved)");
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw);
    } catch {
      return fail("is not percent-encoded correctly");
    }
    token = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < node.length) {
      node = node[Number(token)];
    } else if (isObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return fail("does not resolve in the document");
    }
  }
  return { ok: true, schema: node };
}

/** A finite number as an integer coefficient and a power of ten: 0.01 is [1n, -2]. */
export function decimal(n: number): readonly [bigint, number] {
  const [mantissa = "0", exponent = "0"] = String(n).toLowerCase().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  return [BigInt(whole + fraction), Number(exponent) - fraction.length];
}

/** `n` is a multiple of `m` in decimal and in floating point (see the module's note). */
export function isMultipleOf(n: number, m: number): boolean {
  if (!(m > 0) || !Number.isFinite(n) || !Number.isFinite(m)) return false;
  if (!Number.isInteger(n / m)) return false;
  const [nc, ne] = decimal(n);
  const [mc, me] = decimal(m);
  return ne >= me
    ? (nc * 10n ** BigInt(ne - me)) % mc === 0n
    : nc % (mc * 10n ** BigInt(me - ne)) === 0n;
}

/**
 * The value an OpenAPI `discriminator` gives the branch `{ $ref }`: the `mapping` key
 * naming it (by reference or by component name), else the component's own name.
 */
export function discriminatorValue(discriminator: unknown, branch: unknown): string | undefined {
  if (!isObject(discriminator) || typeof discriminator.propertyName !== "string") return undefined;
  if (!isObject(branch) || typeof branch.$ref !== "string") return undefined;
  const ref = branch.$ref;
  const name = ref.slice(ref.lastIndexOf("/") + 1);
  const mapping = isObject(discriminator.mapping) ? discriminator.mapping : {};
  for (const [key, target] of Object.entries(mapping)) {
    if (target === ref || target === name) return key;
  }
  try {
    return decodeURIComponent(name).replace(/~1/g, "/").replace(/~0/g, "~");
  } catch {
    return name;
  }
}

const TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"] as const;
/** The JSON Schema type names (§6.1.1). */
export type TypeName = (typeof TYPES)[number];
/** Whether `t` is a JSON Schema type name (Swagger 2's "file", say, is not). */
export const isTypeName = (t: unknown): t is TypeName => TYPES.includes(t as TypeName);

function hasType(value: unknown, type: TypeName): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "string":
      return typeof value === "string";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
  }
}

const codePoints = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/**
 * Checks values against schemas whose `$ref`s resolve in `root`, in one direction: in a
 * request a readOnly member must be absent and is not required; in an answer, the same for
 * writeOnly (OpenAPI 3.1 §4.8.24.1). Without a direction, neither rule applies.
 */
export class Checker {
  private readonly refs = new Map<string, Resolved>();

  constructor(
    readonly root: unknown,
    readonly direction: Direction | undefined,
  ) {}

  /** `resolveRef` against this checker's root, remembered. */
  resolve(ref: string): Resolved {
    let known = this.refs.get(ref);
    if (!known) {
      known = resolveRef(this.root, ref);
      this.refs.set(ref, known);
    }
    return known;
  }

  /** Whether a member of this schema is left out in this direction (marked, via $ref or allOf). */
  hidden(schema: unknown, hops = 0): boolean {
    const mark =
      this.direction === "request"
        ? "readOnly"
        : this.direction === "response"
          ? "writeOnly"
          : undefined;
    if (!mark || !isObject(schema) || hops > MAX_HOPS) return false;
    if (schema[mark] === true) return true;
    if (typeof schema.$ref === "string") {
      const target = this.resolve(schema.$ref);
      if (target.ok && this.hidden(target.schema, hops + 1)) return true;
    }
    return Array.isArray(schema.allOf) && schema.allOf.some((s) => this.hidden(s, hops + 1));
  }

  /** Why `value` does not satisfy `schema` (the first reason found), or undefined when it does. */
  check(value: unknown, schema: unknown, path = ""): string | undefined {
    return this.node(value, schema, path, []);
  }

  /**
   * `seen` holds the schemas entered for this same value (through `$ref` and the
   * applicators): one entered again is a cycle that never reaches a keyword about the value.
   */
  private node(
    value: unknown,
    schema: unknown,
    path: string,
    seen: readonly object[],
  ): string | undefined {
    const at = path || "/";
    if (schema === false) return `${at}: the schema false admits no value`;
    if (!isObject(schema)) return undefined;
    if (seen.includes(schema))
      return `${at}: the schema refers back to itself with no value between`;
    // OpenAPI 3.0 documents write `nullable: true` beside `allOf` or `$ref` to mean "or null".
    if (value === null && schema.nullable === true && schema.type === undefined) return undefined;
    return (
      this.applicators(value, schema, path, [...seen, schema]) ??
      this.basics(value, schema, at) ??
      (typeof value === "number" ? this.number(value, schema, at) : undefined) ??
      (typeof value === "string" ? this.string(value, schema, at) : undefined) ??
      (Array.isArray(value) ? this.array(value, schema, path) : undefined) ??
      (isObject(value) ? this.object(value, schema, path) : undefined)
    );
  }

  /** `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`. */
  private applicators(
    value: unknown,
    s: Json,
    path: string,
    seen: readonly object[],
  ): string | undefined {
    const at = path || "/";
    const sub = (schema: unknown) => this.node(value, schema, path, seen);
    if (typeof s.$ref === "string") {
      const target = this.resolve(s.$ref);
      if (!target.ok) return `${at}: ${target.reason}`;
      const problem = sub(target.schema);
      if (problem) return problem;
    }
    for (const branch of Array.isArray(s.allOf) ? s.allOf : []) {
      const problem = sub(branch);
      if (problem) return problem;
    }
    if (Array.isArray(s.anyOf)) {
      const problems = s.anyOf.map(sub);
      if (!problems.some((p) => p === undefined))
        return `${at}: matches no branch of anyOf (${problems[0]})`;
    }
    if (Array.isArray(s.oneOf)) {
      const problem = this.oneOf(value, s, at, sub);
      if (problem) return problem;
    }
    if (s.not !== undefined && sub(s.not) === undefined) return `${at}: matches the schema of not`;
    if (s.if !== undefined) {
      const problem = sub(s.if) === undefined ? sub(s.then) : sub(s.else);
      if (problem) return problem;
    }
    if (isObject(s.dependentSchemas) && isObject(value)) {
      for (const [name, schema] of Object.entries(s.dependentSchemas)) {
        const problem = Object.hasOwn(value, name) ? sub(schema) : undefined;
        if (problem) return problem;
      }
    }
    return undefined;
  }

  private oneOf(
    value: unknown,
    s: Json,
    at: string,
    sub: (schema: unknown) => string | undefined,
  ): string | undefined {
    const branches = s.oneOf as readonly unknown[];
    const problems = branches.map(sub);
    const matching = problems.filter((p) => p === undefined).length;
    if (matching === 1) return undefined;
    const disc = s.discriminator;
    if (isObject(disc) && typeof disc.propertyName === "string" && isObject(value)) {
      const chosen = value[disc.propertyName];
      const index = branches.findIndex((b) => discriminatorValue(disc, b) === chosen);
      if (index !== -1 && problems[index] === undefined) return undefined;
    }
    return matching === 0
      ? `${at}: matches no branch of oneOf (${problems[0]})`
      : `${at}: matches ${matching} branches of oneOf, not exactly one`;
  }

  /** `type` (with 3.0's `nullable`), `const`, `enum`. */
  private basics(value: unknown, s: Json, at: string): string | undefined {
    const types =
      typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
    if (types && !(s.nullable === true && value === null)) {
      if (!types.some((t) => isTypeName(t) && hasType(value, t))) {
        return `${at}: is not of type ${types.join(" or ")}`;
      }
    }
    if (Object.hasOwn(s, "const") && canonical(s.const) !== canonical(value)) {
      return `${at}: is not the const value`;
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => canonical(e) === canonical(value))) {
      return `${at}: is not one of enum`;
    }
    return undefined;
  }

  private number(value: number, s: Json, at: string): string | undefined {
    const min = num(s.minimum);
    const max = num(s.maximum);
    if (min !== undefined && (s.exclusiveMinimum === true ? value <= min : value < min)) {
      return `${at}: is below the minimum ${min}`;
    }
    if (max !== undefined && (s.exclusiveMaximum === true ? value >= max : value > max)) {
      return `${at}: is above the maximum ${max}`;
    }
    const xmin = num(s.exclusiveMinimum);
    const xmax = num(s.exclusiveMaximum);
    if (xmin !== undefined && value <= xmin) return `${at}: is not above ${xmin}`;
    if (xmax !== undefined && value >= xmax) return `${at}: is not below ${xmax}`;
    const step = num(s.multipleOf);
    if (step !== undefined && !isMultipleOf(value, step))
      return `${at}: is not a multiple of ${step}`;
    if (s.format === "int32" && !(Number.isInteger(value) && Math.abs(value + 0.5) <= 2 ** 31)) {
      return `${at}: is not an int32`;
    }
    if (s.format === "int64" && !Number.isInteger(value)) return `${at}: is not an int64`;
    return undefined;
  }

  private string(value: string, s: Json, at: string): string | undefined {
    const length = codePoints(value);
    const min = num(s.minLength);
    const max = num(s.maxLength);
    if (min !== undefined && length < min) return `${at}: is shorter than ${min} characters`;
    if (max !== undefined && length > max) return `${at}: is longer than ${max} characters`;
    if (typeof s.pattern === "string") {
      const regexp = patternRegExp(s.pattern);
      if (!regexp) return `${at}: pattern ${JSON.stringify(s.pattern)} does not compile`;
      if (!regexp.test(value)) return `${at}: does not match pattern ${JSON.stringify(s.pattern)}`;
    }
    if (typeof s.format === "string" && !isOfFormat(s.format, value)) {
      return `${at}: is not of format ${s.format}`;
    }
    return undefined;
  }

  private array(value: readonly unknown[], s: Json, path: string): string | undefined {
    const at = path || "/";
    const prefix = Array.isArray(s.prefixItems)
      ? s.prefixItems
      : Array.isArray(s.items)
        ? s.items
        : [];
    const rest = Array.isArray(s.items) ? undefined : s.items;
    for (const [i, item] of value.entries()) {
      const schema = i < prefix.length ? prefix[i] : rest;
      const problem = this.node(item, schema, `${path}/${i}`, []);
      if (problem) return problem;
    }
    const min = num(s.minItems);
    const max = num(s.maxItems);
    if (min !== undefined && value.length < min) return `${at}: has fewer than ${min} items`;
    if (max !== undefined && value.length > max) return `${at}: has more than ${max} items`;
    if (s.uniqueItems === true && new Set(value.map(canonical)).size !== value.length) {
      return `${at}: has duplicate items`;
    }
    if (s.contains !== undefined) {
      const count = value.filter(
        (item) => this.node(item, s.contains, path, []) === undefined,
      ).length;
      const least = num(s.minContains) ?? 1;
      const most = num(s.maxContains) ?? Number.POSITIVE_INFINITY;
      if (count < least || count > most) return `${at}: has ${count} items matching contains`;
    }
    return undefined;
  }

  private object(value: Json, s: Json, path: string): string | undefined {
    const at = path || "/";
    const properties = isObject(s.properties) ? s.properties : {};
    const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
    const names = Object.keys(value);
    for (const name of Array.isArray(s.required) ? s.required : []) {
      if (typeof name !== "string" || Object.hasOwn(value, name)) continue;
      if (!this.hidden(properties[name])) return `${at}: lacks the required member ${name}`;
    }
    for (const name of names) {
      const here = `${path}/${escapeToken(name)}`;
      const declared = Object.hasOwn(properties, name);
      if (declared && this.hidden(properties[name])) {
        return `${here}: is ${this.direction === "request" ? "readOnly" : "writeOnly"}, so absent here`;
      }
      const matched = patterns.filter(([p]) => patternRegExp(p)?.test(name));
      const schemas = [
        ...(declared ? [properties[name]] : []),
        ...matched.map(([, schema]) => schema),
        ...(declared || matched.length > 0 ? [] : [s.additionalProperties]),
      ];
      for (const schema of schemas) {
        const problem = this.node(value[name], schema, here, []);
        if (problem) return problem;
      }
      const nameProblem =
        s.propertyNames === undefined ? undefined : this.node(name, s.propertyNames, here, []);
      if (nameProblem) return `${here}: the member's name is not allowed (${nameProblem})`;
    }
    const min = num(s.minProperties);
    const max = num(s.maxProperties);
    if (min !== undefined && names.length < min) return `${at}: has fewer than ${min} members`;
    if (max !== undefined && names.length > max) return `${at}: has more than ${max} members`;
    if (isObject(s.dependentRequired)) {
      for (const [name, needs] of Object.entries(s.dependentRequired)) {
        if (!Object.hasOwn(value, name) || !Array.isArray(needs)) continue;
        const missing = needs.find((n) => typeof n === "string" && !Object.hasOwn(value, n));
        if (missing !== undefined) return `${at}: has ${name} but lacks ${missing}`;
      }
    }
    return undefined;
  }
}
