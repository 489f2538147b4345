/**
 * JSON Schema (OpenAPI 3.1's dialect; 3.0 is normalised first) to zod/mini source code.
 * Each keyword is either enforced by the zod it becomes, carried as metadata into the
 * OpenAPI document the service serves (annotations, and keywords zod/mini has no check
 * for, which are then reported as not enforced), or reported as lost. A reference to a
 * component schema stays a reference: the component's identifier, with its siblings as
 * metadata (zod then writes `$ref` beside them).
 *
 * Every schema is written to be built on first use (src/contract-language/lazy.ts): a
 * component is a `component(() => …)` and is referred to by calling it (`Pet()`), and a
 * schema the contract declares is a function that builds it (`lazyCode`), so the Worker
 * builds none while it starts.
 */

import * as zm from "zod/mini";
import { STATE_MACHINES } from "../contract-language/document-marks";
import type { Findings } from "./findings";
import { at, child, componentOf, isObject, type Json } from "./source";
import { ANNOTATIONS } from "./walk";

/**
 * How the value reaches the schema:
 * - `json`: parsed JSON;
 * - `text`: a string (a form field, a member or item of a parameter), so numbers and
 *   booleans are read from text first;
 * - `parameter`: a parameter's whole value (path, query, header, cookie): `text`, or an
 *   array or object of `text`, as its style serialises it (OpenAPI 3.1 §4.8.12.4); its
 *   `style`, `explode` and `allowReserved` are kept as metadata, which the served document
 *   moves back into the Parameter Object;
 * - `field`: a multipart field, text or a file;
 * - `form` / `multipart`: a whole form body, an object of `text` / `field` members;
 * - `binary`: a whole body of bytes;
 * - `plain`: a whole body handed over as text (text/plain and other text types).
 *
 * An XML body is read by its schema, as JSON is (`json`); its `xml` objects (OpenAPI 3.1
 * §4.8.26) are carried as metadata, so the platform reads and writes XML by them.
 */
export type Mode =
  | "json"
  | "text"
  | "parameter"
  | "field"
  | "form"
  | "multipart"
  | "binary"
  | "plain";

/** A parameter's serialisation, carried as its schema's metadata in `parameter` mode. */
const SERIALISATION = new Set(["style", "explode", "allowReserved"]);

/** Modes whose values arrive as text. */
const textual = (mode: Mode) => mode === "text" || mode === "field" || mode === "parameter";

/** What the generated code imports besides zod. */
export type Helper =
  | "readOnly"
  | "writeOnly"
  | "numberFromText"
  | "booleanFromText"
  | "dateTimeFormat"
  | "emailFormat"
  | "uriFormat"
  | "pattern"
  | "component"
  | "Schema";

export interface SchemaContext {
  /** The document, in 3.1's dialect. */
  readonly document: Json;
  readonly findings: Findings;
  /** The identifier of each component schema, by component name. */
  readonly identifiers: ReadonlyMap<string, string>;
  /** The name each component schema is served under, by component name (renamed if reserved). */
  readonly resourceKeys: ReadonlyMap<string, string>;
  /** Whether a reference to a component must be deferred (it is not declared yet). */
  readonly deferred: (name: string) => boolean;
  /** Helpers the code written so far uses. */
  readonly uses: Set<Helper>;
  /** Component schemas the code written so far refers to, by name. */
  readonly referenced: Set<string>;
}

/**
 * A JavaScript literal of a JSON value. A document's text may hold `${`, which Biome takes
 * for a template placeholder written in the wrong quotes (noTemplateCurlyInString): it is
 * written `$\u007B`, the same string. JSON text has `${` only inside strings, and after an
 * escaped backslash the `$` still starts a character of its own, so this never changes a value.
 */
export const literal = (value: unknown): string =>
  JSON.stringify(value)?.replaceAll("${", "$\\u007B") ?? "undefined";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The code of a component's schema: its getter called (`Pet()`), which builds it once. */
export const componentCall = (id: string): string => `${id}()`;

/**
 * A schema as a contract declares it, built on first use: a component by its getter (`Pet`),
 * any other schema in a function that builds it (`() => z.object({ … })`).
 */
export function lazyCode(code: string): string {
  const getter = /^([A-Za-z_$][A-Za-z0-9_$]*)\(\)$/.exec(code);
  return getter ? (getter[1] as string) : `() => ${code}`;
}

/** An object literal's key for `name`: bare when it can be, and never the prototype setter. */
export function propertyKey(name: string): string {
  if (name === "__proto__") return `["__proto__"]`;
  return IDENTIFIER.test(name) ? name : literal(name);
}

/** JSON Schema keywords the converter reads (besides annotations and `x-` extensions). */
const VALIDATION = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "format",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "allOf",
  "anyOf",
  "oneOf",
  "discriminator",
  "contentMediaType",
  "contentEncoding",
  "propertyNames",
]);

/** Keywords zod/mini has no check for: written into the document, not enforced. */
const DOCUMENTED_ONLY = new Set([
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "contains",
  "minContains",
  "maxContains",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
]);

/**
 * String formats the platform enforces, with the builder, whether zod's JSON Schema says
 * the same format (when it does not, the format is also written as metadata), and the
 * helper the builder needs. Each reads its format as JSON Schema 2020-12 §7.3 defines it,
 * never more strictly: `z.guid()` for a `uuid` (RFC 9562 §4's hex form, any version and
 * variant; `z.uuid()` wants a version and variant), and src/contract-language/formats.ts where zod's
 * own builder refuses what the RFC allows (`date-time`, `email`, `uri`).
 */
const STRING_FORMATS: Readonly<
  Record<string, { code: string; says: boolean; helper?: Helper; note?: string }>
> = {
  date: { code: "z.iso.date()", says: true },
  "date-time": { code: "dateTimeFormat()", says: true, helper: "dateTimeFormat" },
  duration: { code: "z.iso.duration()", says: true },
  email: { code: "emailFormat()", says: true, helper: "emailFormat" },
  uuid: { code: "z.guid()", says: true },
  uri: { code: "uriFormat()", says: true, helper: "uriFormat" },
  ipv4: {
    code: "z.ipv4()",
    says: true,
    // Kept stricter than RFC 2673 §3.2, which JSON Schema 2020-12 §7.3.4 cites: a zero-led
    // decimal is read as octal by many address parsers.
    note: "format ipv4: a dotted quad with a leading zero (192.0.2.01) is refused, which RFC 2673 §3.2 allows: many address parsers read it as octal (the JSON Schema Test Suite refuses it too)",
  },
  ipv6: { code: "z.ipv6()", says: true },
  hostname: { code: "z.hostname()", says: true },
  byte: { code: "z.base64()", says: false },
};

/**
 * The patterns the platform's format builders write, now or before (`z.uuid()`,
 * `z.email()`): a source pattern equal to one is the builder's own (a document this
 * platform served says both), not another constraint.
 */
const BUILDER_PATTERNS: ReadonlyMap<string, readonly unknown[]> = new Map(
  Object.entries({
    date: [zm.iso.date()],
    "date-time": [zm.iso.datetime({ offset: true })],
    duration: [zm.iso.duration()],
    email: [zm.email()],
    uuid: [zm.guid(), zm.uuid()],
    ipv4: [zm.ipv4()],
    ipv6: [zm.ipv6()],
    hostname: [zm.hostname()],
    byte: [zm.base64()],
  }).map(([format, schemas]) => [format, schemas.map((s) => zm.toJSONSchema(s).pattern)]),
);

/** Formats that only annotate: nothing to enforce, nothing to report. */
const ANNOTATING_FORMATS = new Set([
  "password",
  "int32",
  "int64",
  "float",
  "double",
  "binary",
  // zod writes these beside the pattern that checks them (startsWith, …).
  "starts_with",
  "ends_with",
  "includes",
  "lowercase",
  "uppercase",
]);

function typesOf(schema: Json): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type))
    return schema.type.filter((t): t is string => typeof t === "string");
  return undefined;
}

const typeOfValue = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "number"
        ? Number.isInteger(value)
          ? "integer"
          : "number"
        : typeof value === "object"
          ? "object"
          : typeof value;

/** Wraps `base` with checks: `base.check(a, b)`. */
const checked = (base: string, checks: readonly string[]) =>
  checks.length === 0 ? base : `${base}.check(${checks.join(", ")})`;

/** A builder and its checks, before metadata joins them in one `.check(…)`. */
interface Built {
  readonly base: string;
  readonly checks: readonly string[];
}

const built = (base: string, checks: readonly string[] = []): Built => ({ base, checks });

/** The metadata as one check, if there is any. */
const metaChecks = (meta: Json): string[] =>
  Object.keys(meta).length > 0 ? [`z.meta(${literal(meta)})`] : [];

/** A builder's code: its checks, then its metadata. */
const render = (b: Built, meta: Json = {}) => checked(b.base, [...b.checks, ...metaChecks(meta)]);

/**
 * The code of a JSON Schema `pattern` (ECMA-262), or undefined where JavaScript cannot
 * compile it. It stays the document's text, handed to `pattern()`: written as a regular
 * expression literal, a document's pattern may hold what a linter or the compiler refuses
 * there (a control character or `\x00`, Biome's noControlCharactersInRegex; a `/`).
 */
function patternCode(source: string): string | undefined {
  const flags = /\\[pP]\{/.test(source) ? "u" : "";
  try {
    new RegExp(source, flags);
  } catch {
    return undefined;
  }
  return `pattern(${literal(source)}${flags ? `, ${literal(flags)}` : ""})`;
}

/**
 * An extension's value as the served document can carry it. A schema's `x-` members are
 * carried as they are, but not every part of the document they may point into (Spotify's
 * `x-spotify-policy-list` refers to `#/components/x-spotify-policy/…`, a component
 * extension): left as a reference, it would dangle in the served document, which every tool
 * that resolves references then refuses, so what is not carried is written out in place. A
 * reference to a component schema the contract serves stays a reference, under the name it
 * is served by (`served`): written out, the references of payment APIs' `x-expansionResources`
 * to objects that refer to each other grew without bound (one document ran the importer out
 * of memory). A reference that does not resolve, or that leads back into itself, is left out.
 * `inlined` collects the references written out.
 */
function selfContained(
  value: unknown,
  document: Json,
  inlined: Set<string>,
  served: ReadonlyMap<string, string>,
  following: ReadonlySet<string> = new Set(),
): unknown {
  if (Array.isArray(value))
    return value.map((item) => selfContained(item, document, inlined, served, following));
  if (!isObject(value)) return value;
  const { $ref, ...rest } = value;
  if (typeof $ref === "string" && $ref.startsWith("#")) {
    const component = componentOf($ref);
    const key = component?.kind === "schemas" ? served.get(component.name) : undefined;
    if (key !== undefined && $ref === child("#", "components", "schemas", component?.name ?? ""))
      return { $ref: child("#", "components", "schemas", key), ...rest };
    const target = following.has($ref) ? undefined : at(document, $ref);
    inlined.add($ref);
    if (target === undefined) return selfContained(rest, document, inlined, served, following);
    return selfContained(target, document, inlined, served, new Set([...following, $ref]));
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      selfContained(v, document, inlined, served, following),
    ]),
  );
}

export class SchemaWriter {
  readonly #context: SchemaContext;
  /** Pointers of inline references being followed, so a cycle through them is caught. */
  readonly #following = new Set<string>();

  constructor(context: SchemaContext) {
    this.#context = context;
  }

  get #findings() {
    return this.#context.findings;
  }

  /** The types a schema's values can have, following references and compositions. */
  typesOf(schema: unknown, depth = 0): Set<string> {
    const found = new Set<string>();
    if (!isObject(schema) || depth > 16) return found;
    const own = typesOf(schema);
    if (own) for (const t of own) found.add(t);
    else if (Array.isArray(schema.enum)) for (const v of schema.enum) found.add(typeOfValue(v));
    else if ("const" in schema) found.add(typeOfValue(schema.const));
    else if (typeof schema.$ref === "string")
      for (const t of this.typesOf(at(this.#context.document, schema.$ref), depth + 1))
        found.add(t);
    else if (isObject(schema.properties)) found.add("object");
    else if (isObject(schema.items)) found.add("array");
    for (const key of ["allOf", "anyOf", "oneOf"] as const) {
      const list = schema[key];
      if (Array.isArray(list) && own === undefined)
        for (const sub of list) for (const t of this.typesOf(sub, depth + 1)) found.add(t);
    }
    return found;
  }

  /** The zod code of a schema, as a value in `mode` reaches it. */
  schema(
    schema: unknown,
    pointer: string,
    mode: Mode,
    options: { readWith?: { value: unknown } } = {},
  ) {
    if (schema === true) return "z.unknown()";
    if (schema === false) return "z.never()";
    if (!isObject(schema)) {
      this.#findings.lost(pointer, "not a schema: read as any value");
      return "z.unknown()";
    }
    if (mode === "binary") return this.#binary(schema, pointer);
    if (mode === "plain") return this.#plain(schema, pointer);
    if (mode === "field" && this.#isBinaryString(schema)) return this.#file(schema, pointer);
    if (textual(mode) && mode !== "parameter" && this.typesOf(schema).has("object")) {
      this.#findings.lost(
        pointer,
        "an object in a parameter or form field (deepObject, JSON in a field): read as text",
      );
      return render(built("z.string()"), this.#meta(schema, pointer, mode, []));
    }
    let code: string;
    if (typeof schema.$ref === "string") code = this.#reference(schema, pointer, mode);
    else code = this.#value(schema, pointer, mode);
    if (options.readWith) code = `z._default(${code}, ${literal(options.readWith.value)})`;
    if (textual(mode)) {
      const types = this.typesOf(schema);
      if (types.has("number") || types.has("integer")) {
        this.#context.uses.add("numberFromText");
        code = `numberFromText(${code})`;
      }
      if (types.has("boolean")) {
        this.#context.uses.add("booleanFromText");
        code = `booleanFromText(${code})`;
      }
    }
    return code;
  }

  /**
   * The default a parameter or form field is read with, if its schema takes it (its type and
   * enum: what the code written for it is typed by). A document may write a number's or
   * boolean's default as the text a query carries (Zoom's `default: "1"` for an integer):
   * that is read as the value it spells; a default of neither type nor enum in any reading is
   * not applied (JSON Schema 2020-12 §9.2: `default` is an annotation).
   */
  #defaultOf(schema: Json, pointer: string): { value: unknown } | undefined {
    const given = schema.default;
    if (this.#takes(schema, given)) return { value: given };
    const spelt =
      typeof given !== "string"
        ? undefined
        : given === "true" || given === "false"
          ? given === "true"
          : given.trim() !== "" && Number.isFinite(Number(given))
            ? Number(given)
            : undefined;
    const at = child(pointer, "default");
    if (spelt !== undefined && this.#takes(schema, spelt)) {
      this.#findings.changed(
        at,
        `default ${JSON.stringify(given)}: read as ${JSON.stringify(spelt)}`,
      );
      return { value: spelt };
    }
    this.#findings.lost(
      at,
      `default ${JSON.stringify(given)}: its schema does not take it, so it is not applied`,
    );
    return undefined;
  }

  /** Whether a value is of the schema's type and among its enum (what the code written checks first). */
  #takes(schema: Json, value: unknown): boolean {
    if (Array.isArray(schema.enum) && !schema.enum.some((v) => literal(v) === literal(value)))
      return false;
    const types = this.typesOf(schema);
    const type = typeOfValue(value);
    return types.size === 0 || types.has(type) || (type === "integer" && types.has("number"));
  }

  /** A member of an object: optional unless required (or given a default it is read with). */
  member(schema: unknown, pointer: string, required: boolean, mode: Mode): string {
    const readWith =
      !required && textual(mode) && isObject(schema) && "default" in schema
        ? this.#defaultOf(schema, pointer)
        : undefined;
    let code = this.schema(schema, pointer, mode, readWith ? { readWith } : {});
    if (!required && !readWith) code = `z.optional(${code})`;
    if (isObject(schema) && schema.readOnly === true) {
      this.#context.uses.add("readOnly");
      code = `readOnly(${code})`;
    } else if (isObject(schema) && schema.writeOnly === true) {
      this.#context.uses.add("writeOnly");
      code = `writeOnly(${code})`;
    }
    return code;
  }

  #isBinaryString(schema: Json): boolean {
    const target =
      typeof schema.$ref === "string" ? at(this.#context.document, schema.$ref) : schema;
    return (
      isObject(target) &&
      (target.type === "string" || target.type === undefined) &&
      (target.format === "binary" ||
        (typeof target.contentMediaType === "string" && target.contentEncoding === undefined))
    );
  }

  /** Metadata checks: annotations, `x-` extensions, documented-only keywords, a format zod does not say. */
  #meta(schema: Json, pointer: string, mode: Mode, skip: readonly string[]): Json {
    const meta: Json = {};
    for (const [key, value] of Object.entries(schema)) {
      if (skip.includes(key)) continue;
      // Part 3's machines, which the contract declares in its own part (contract-code.ts).
      if (key === STATE_MACHINES) continue;
      if (key === "default" && textual(mode)) continue;
      if (key === "xml") {
        const xml = this.#xml(value, child(pointer, key));
        if (xml !== undefined) meta[key] = xml;
      } else if ((ANNOTATIONS as readonly string[]).includes(key)) meta[key] = value;
      else if (mode === "parameter" && SERIALISATION.has(key)) meta[key] = value;
      else if (key.startsWith("x-")) {
        const inlined = new Set<string>();
        meta[key] = selfContained(
          value,
          this.#context.document,
          inlined,
          this.#context.resourceKeys,
        );
        this.#findings.notEnforced(
          child(pointer, key),
          `${key}: written into the document as is; the platform gives it no meaning`,
        );
        if (inlined.size > 0)
          this.#findings.changed(
            child(pointer, key),
            `${key}: its references (${[...inlined].join(", ")}) written out in place, since what they point to is not carried (one that does not resolve is left out)`,
          );
      } else if (DOCUMENTED_ONLY.has(key)) {
        meta[key] = value;
        this.#findings.notEnforced(
          child(pointer, key),
          `${key}: in the document, not checked (zod/mini has no such check)`,
        );
      } else if (key === "discriminator") meta[key] = this.#discriminator(value);
      else if (key === "contentMediaType" || key === "contentEncoding") meta[key] = value;
      else if (!VALIDATION.has(key) && key !== "nullable")
        this.#findings.lost(child(pointer, key), `unknown keyword ${key}`);
    }
    return meta;
  }

  /**
   * An XML Object (OpenAPI 3.1 §4.8.26), carried as the schema's metadata: the platform
   * reads and writes XML by it. What XML cannot be written by is left out and reported: a
   * namespace that is not an absolute URI, and a prefix with no namespace to bind it to
   * (Namespaces in XML 1.0 §3).
   */
  #xml(value: unknown, pointer: string): Json | undefined {
    if (!isObject(value)) {
      this.#findings.lost(pointer, "an xml that is not an object");
      return undefined;
    }
    const xml: Json = { ...value };
    if (typeof xml.namespace === "string" && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(xml.namespace)) {
      this.#findings.lost(
        child(pointer, "namespace"),
        "a namespace that is not an absolute URI (OpenAPI 3.1 §4.8.26.1): not carried",
      );
      delete xml.namespace;
    }
    if (xml.prefix !== undefined && xml.namespace === undefined) {
      this.#findings.lost(
        child(pointer, "prefix"),
        "a prefix without a namespace to bind it to, which XML cannot write (Namespaces in XML 1.0 §3): not carried",
      );
      delete xml.prefix;
    }
    return Object.keys(xml).length > 0 ? xml : undefined;
  }

  /**
   * A discriminator as the served document must say it: a mapping to a component the import
   * renamed (a reference or a bare name, OpenAPI 3.1 §4.8.25) names it by its new name, or
   * it would point at the platform's own schema of the old one.
   */
  #discriminator(value: unknown): unknown {
    if (!isObject(value) || !isObject(value.mapping)) return value;
    const served = (target: unknown) => {
      if (typeof target !== "string") return target;
      const component = componentOf(target);
      if (component?.kind === "schemas") {
        const key = this.#context.resourceKeys.get(component.name);
        return key && key !== component.name ? child("#", "components", "schemas", key) : target;
      }
      return target.startsWith("#") ? target : (this.#context.resourceKeys.get(target) ?? target);
    };
    const mapping = Object.entries(value.mapping).map(([k, target]) => [k, served(target)]);
    return { ...value, mapping: Object.fromEntries(mapping) };
  }

  #reference(schema: Json, pointer: string, mode: Mode): string {
    const ref = schema.$ref as string;
    const component = componentOf(ref);
    const siblings = Object.keys(schema).filter(
      (key) =>
        key !== "$ref" &&
        !(ANNOTATIONS as readonly string[]).includes(key) &&
        !key.startsWith("x-") &&
        !DOCUMENTED_ONLY.has(key) &&
        !(mode === "parameter" && SERIALISATION.has(key)),
    );
    let code: string;
    if (component?.kind === "schemas" && this.#context.identifiers.has(component.name)) {
      const id = this.#context.identifiers.get(component.name) as string;
      if (
        ((mode === "form" || mode === "multipart") && !this.#textualObject(ref)) ||
        (mode === "parameter" && this.#holdsNonText(ref))
      ) {
        // Form fields and a parameter's members arrive as text: a component whose members
        // are not all strings is written out here, its numbers and booleans read from text,
        // with what stands beside the reference (a parameter's style, its description).
        this.#findings.changed(
          pointer,
          `${ref}: written out in place (${mode === "parameter" ? "a parameter's members and items" : "form fields"} arrive as text), not referred to`,
        );
        const { $ref: _ref, ...beside } = schema;
        return this.#inline(ref, pointer, mode, mode === "parameter" ? beside : {});
      }
      this.#context.referenced.add(component.name);
      if (this.#context.deferred(component.name)) {
        this.#context.uses.add("Schema");
        code = `z.lazy((): Schema => ${componentCall(id)})`;
      } else code = componentCall(id);
    } else {
      code = this.#inline(ref, pointer, mode);
    }
    const rest: Json = {};
    for (const key of siblings) {
      rest[key] = schema[key];
    }
    if (siblings.length > 0) {
      // Constraints beside a $ref apply too (JSON Schema 2020-12 §8.2.3.1): both must hold.
      const extra = this.#value(rest, pointer, mode);
      code = `z.intersection(${code}, ${extra})`;
    }
    // A component referred to as is; with annotations beside it, a copy that zod writes as
    // `$ref` with them (a clone whose parent is the component).
    return render(built(code), this.#meta(schema, pointer, mode, ["$ref", ...siblings]));
  }

  /**
   * Whether a component is an object or array with members or items that are not strings:
   * a parameter's members and items arrive as text, so such a component is written out.
   */
  #holdsNonText(ref: string): boolean {
    const target = at(this.#context.document, ref);
    const types = this.typesOf(target);
    if (types.has("object")) return !this.#textualObject(ref);
    if (!types.has("array") || !isObject(target)) return false;
    const items = this.typesOf(target.items);
    return !(items.size === 1 && items.has("string"));
  }

  /** Whether a component is an object whose members are all strings (a form can carry it as is). */
  #textualObject(ref: string): boolean {
    const target = at(this.#context.document, ref);
    if (!isObject(target) || !isObject(target.properties)) return false;
    return Object.values(target.properties).every((property) => {
      const types = this.typesOf(property);
      return types.size === 1 && types.has("string") && !this.#isBinaryString(property as Json);
    });
  }

  /** A reference to something that is not a component schema: written out in place. */
  #inline(ref: string, pointer: string, mode: Mode, beside: Json = {}): string {
    if (this.#following.has(ref)) {
      this.#findings.lost(
        pointer,
        `${ref}: a recursive reference to a schema that is not a component`,
      );
      return "z.unknown()";
    }
    const target = at(this.#context.document, ref);
    if (target === undefined) {
      this.#findings.lost(pointer, `${ref} points at nothing`);
      return "z.unknown()";
    }
    this.#following.add(ref);
    try {
      return this.schema(isObject(target) ? { ...target, ...beside } : target, ref, mode);
    } finally {
      this.#following.delete(ref);
    }
  }

  /** A schema that is not a reference: composition, enum, const, or by type. */
  #value(schema: Json, pointer: string, mode: Mode): string {
    const composition = ["allOf", "anyOf", "oneOf"].filter((key) => Array.isArray(schema[key]));
    if (composition.length === 0) return this.#own(schema, pointer, mode, true);
    const ownKeys = Object.keys(schema).filter(
      (key) => VALIDATION.has(key) && !["allOf", "anyOf", "oneOf", "discriminator"].includes(key),
    );
    const parts: string[] = [];
    // `type: object` beside an allOf says nothing its members do not.
    const onlyObjectType = ownKeys.length === 1 && schema.type === "object";
    if (ownKeys.length > 0 && !onlyObjectType) parts.push(this.#own(schema, pointer, mode, false));
    for (const key of composition) {
      const list = schema[key] as unknown[];
      const members = list.map((sub, i) => this.schema(sub, child(pointer, key, i), mode));
      if (members.length === 0) continue;
      if (key === "allOf") parts.push(...members);
      else if (members.length === 1) parts.push(members[0] as string);
      else if (key === "anyOf") parts.push(`z.union([${members.join(", ")}])`);
      // oneOf: exactly one must match (z.xor), as JSON Schema says.
      else parts.push(`z.xor([${members.join(", ")}])`);
    }
    const code =
      parts.length === 0
        ? "z.unknown()"
        : parts.reduce((left, right) => `z.intersection(${left}, ${right})`);
    // The node's annotations go on the whole; its own part carries only its constraints.
    return render(built(code), this.#meta(schema, pointer, mode, []));
  }

  /** The schema's own keywords (everything but composition); with its metadata if `withMeta`. */
  #own(schema: Json, pointer: string, mode: Mode, withMeta: boolean): string {
    const meta = (): Json => ({
      ...(withMeta ? this.#meta(schema, pointer, mode, []) : {}),
      ...this.#formatMeta(schema),
    });
    if (Array.isArray(schema.enum)) {
      // `type: string` with `enum: [1, 2]` (Zoom's): no number is a string, so as written no
      // value is valid (JSON Schema 2020-12 §6.1.1, §6.1.2); the values' text is what is meant.
      if (
        schema.type === "string" &&
        schema.enum.some((v) => typeof v === "number" || typeof v === "boolean")
      ) {
        const text = schema.enum.map((v) =>
          typeof v === "number" || typeof v === "boolean" ? String(v) : v,
        );
        this.#findings.changed(
          child(pointer, "enum"),
          `enum ${JSON.stringify(schema.enum)} of a string: read as ${JSON.stringify(text)}`,
        );
        return this.#own({ ...schema, enum: text }, pointer, mode, withMeta);
      }
      // zod writes a literal number's type as "number": an enum the document says is of
      // integers keeps saying so (every value is one, so it is what the literals check).
      const integers =
        schema.type === "integer" &&
        schema.enum.every((v) => typeof v === "number" && Number.isInteger(v));
      return render(
        built(this.#enum(schema.enum, pointer)),
        integers ? { type: "integer", ...meta() } : meta(),
      );
    }
    if ("const" in schema) {
      const value = schema.const;
      if (value !== null && typeof value === "object") {
        this.#findings.notEnforced(
          child(pointer, "const"),
          "a const object or array: documented only",
        );
        return render(built("z.unknown()"), { const: value, ...meta() });
      }
      return render(built(`z.literal(${literal(value)})`), meta());
    }
    const declared = typesOf(schema);
    let types = declared ?? [...this.#inferred(schema)];
    if (types.length === 0) {
      const constraints = Object.keys(schema).filter(
        (key) => VALIDATION.has(key) && !["$ref", "allOf", "anyOf", "oneOf"].includes(key),
      );
      if (constraints.length > 0)
        this.#findings.lost(
          pointer,
          `${constraints.join(", ")} without a type: any value is accepted`,
        );
      return render(built("z.unknown()"), meta());
    }
    const nullable = types.includes("null");
    types = types.filter((t) => t !== "null");
    const codes = types.map((type) => this.#typed(type, schema, pointer, mode));
    if (codes.length === 1 && !nullable) return render(codes[0] as Built, meta());
    let code =
      codes.length === 0
        ? "z.null()"
        : codes.length === 1
          ? render(codes[0] as Built)
          : `z.union([${codes.map((c) => render(c)).join(", ")}])`;
    if (nullable && codes.length > 0) code = `z.nullable(${code})`;
    return render(built(code), meta());
  }

  #inferred(schema: Json): Set<string> {
    const found = new Set<string>();
    if (isObject(schema.properties) || "additionalProperties" in schema || "required" in schema)
      found.add("object");
    if ("items" in schema || "prefixItems" in schema) found.add("array");
    if (["minLength", "maxLength", "pattern", "format"].some((k) => k in schema))
      found.add("string");
    if (
      ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].some(
        (k) => k in schema,
      )
    )
      found.add("number");
    // Unambiguous only when one kind of keyword is present.
    return found.size === 1 ? found : new Set();
  }

  /** The format as metadata, unless the string builder zod writes says it already. */
  #formatMeta(schema: Json): Json {
    const format = schema.format;
    if (typeof format !== "string") return {};
    const types = typesOf(schema) ?? [...this.#inferred(schema)];
    const builder = !("enum" in schema) && !("const" in schema);
    if (builder && STRING_FORMATS[format]?.says && (types.length === 0 || types.includes("string")))
      return {};
    return { format };
  }

  #enum(values: unknown[], pointer: string): string {
    const unique = values.filter(
      (v, i) => values.findIndex((w) => literal(w) === literal(v)) === i,
    );
    if (unique.length === 0) return "z.never()";
    const objects = unique.filter((v) => v !== null && typeof v === "object");
    if (objects.length > 0) {
      this.#findings.notEnforced(
        child(pointer, "enum"),
        "an enum of objects or arrays: documented only",
      );
      return `z.unknown().check(z.meta(${literal({ enum: unique })}))`;
    }
    if (unique.every((v) => typeof v === "string")) return `z.enum(${literal(unique)})`;
    if (unique.length === 1) return `z.literal(${literal(unique[0])})`;
    return `z.literal(${literal(unique)})`;
  }

  /** One type's builder with its constraints. */
  #typed(type: string, schema: Json, pointer: string, mode: Mode): Built {
    switch (type) {
      case "string":
        return this.#string(schema, pointer);
      case "integer":
      case "number":
        return this.#number(type, schema);
      case "boolean":
        return built("z.boolean()");
      case "array":
        return this.#array(schema, pointer, mode);
      case "object":
        return built(this.#object(schema, pointer, mode));
      default:
        this.#findings.lost(child(pointer, "type"), `unknown type ${type}: any value is accepted`);
        return built("z.unknown()");
    }
  }

  #string(schema: Json, pointer: string): Built {
    const format = typeof schema.format === "string" ? schema.format : undefined;
    const known = format ? STRING_FORMATS[format] : undefined;
    if (format && !known && !ANNOTATING_FORMATS.has(format))
      this.#findings.notEnforced(
        child(pointer, "format"),
        `format ${format}: in the document, not checked`,
      );
    const checks: string[] = [];
    if (typeof schema.minLength === "number") checks.push(`z.minLength(${schema.minLength})`);
    if (typeof schema.maxLength === "number") checks.push(`z.maxLength(${schema.maxLength})`);
    const own =
      format !== undefined &&
      known !== undefined &&
      (BUILDER_PATTERNS.get(format) ?? []).includes(schema.pattern);
    if (known?.helper) this.#context.uses.add(known.helper);
    if (known?.note) this.#findings.changed(child(pointer, "format"), known.note);
    if (typeof schema.pattern === "string" && !own) {
      const regex = patternCode(schema.pattern);
      if (regex) {
        this.#context.uses.add("pattern");
        checks.push(`z.regex(${regex})`);
      } else
        this.#findings.lost(
          child(pointer, "pattern"),
          "a pattern JavaScript cannot compile: not checked",
        );
    }
    return built(known?.code ?? "z.string()", checks);
  }

  #number(type: "integer" | "number", schema: Json): Built {
    const base =
      type === "integer" ? (schema.format === "int32" ? "z.int32()" : "z.int()") : "z.number()";
    const checks: string[] = [];
    // The bounds zod's own integer builders write (safe integers, int32) are not the spec's.
    const [least, most] =
      type !== "integer"
        ? [undefined, undefined]
        : schema.format === "int32"
          ? [-2147483648, 2147483647]
          : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    if (typeof schema.minimum === "number" && schema.minimum !== least)
      checks.push(`z.minimum(${schema.minimum})`);
    if (typeof schema.maximum === "number" && schema.maximum !== most)
      checks.push(`z.maximum(${schema.maximum})`);
    if (typeof schema.exclusiveMinimum === "number")
      checks.push(`z.gt(${schema.exclusiveMinimum})`);
    if (typeof schema.exclusiveMaximum === "number")
      checks.push(`z.lt(${schema.exclusiveMaximum})`);
    if (typeof schema.multipleOf === "number") checks.push(`z.multipleOf(${schema.multipleOf})`);
    return built(base, checks);
  }

  #array(schema: Json, pointer: string, mode: Mode): Built {
    const itemMode: Mode =
      mode === "field" ? "field" : mode === "text" || mode === "parameter" ? "text" : "json";
    const checks: string[] = [];
    if (typeof schema.minItems === "number") checks.push(`z.minLength(${schema.minItems})`);
    if (typeof schema.maxItems === "number") checks.push(`z.maxLength(${schema.maxItems})`);
    if (Array.isArray(schema.prefixItems)) {
      const items = schema.prefixItems.map((sub, i) =>
        this.schema(sub, child(pointer, "prefixItems", i), itemMode),
      );
      const rest =
        schema.items === false || schema.items === undefined
          ? ""
          : `, ${this.schema(schema.items, child(pointer, "items"), itemMode)}`;
      return built(`z.tuple([${items.join(", ")}]${rest})`, checks);
    }
    const items =
      schema.items === undefined
        ? "z.unknown()"
        : this.schema(schema.items, child(pointer, "items"), itemMode);
    return built(`z.array(${items})`, checks);
  }

  #object(schema: Json, pointer: string, mode: Mode): string {
    // A form's fields and a parameter object's members (deepObject, R=100&G=200) are text.
    const memberMode: Mode =
      mode === "form" || mode === "parameter" ? "text" : mode === "multipart" ? "field" : "json";
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(
      Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [],
    );
    for (const name of required)
      if (!(name in properties))
        this.#findings.lost(
          child(pointer, "required"),
          `${name} is required but not among the properties: its presence is not checked`,
        );
    const shape = Object.entries(properties).map(
      ([name, sub]) =>
        `${propertyKey(name)}: ${this.member(this.#textMember(name, sub, child(pointer, "properties", name)), child(pointer, "properties", name), required.has(name), memberMode)}`,
    );
    const body = `{ ${shape.join(", ")} }`;
    const additional = schema.additionalProperties;
    const composed = ["allOf", "anyOf", "oneOf"].some((key) => Array.isArray(schema[key]));
    if (additional === false || (schema.unevaluatedProperties === false && !composed))
      return `z.strictObject(${body})`;
    if (schema.unevaluatedProperties === false)
      this.#findings.notEnforced(
        child(pointer, "unevaluatedProperties"),
        "unevaluatedProperties beside allOf/anyOf/oneOf: members outside them are not refused",
      );
    // Members beyond the declared ones are allowed (and kept): `true`, `{}`, or, with no
    // properties either, a free-form object, which z.object would empty.
    if (
      additional === true ||
      (isObject(additional) && Object.keys(additional).length === 0) ||
      (additional === undefined && shape.length === 0 && !isObject(schema.propertyNames))
    )
      return `z.looseObject(${body})`;
    if (isObject(additional)) {
      const values = this.schema(additional, child(pointer, "additionalProperties"), memberMode);
      if (shape.length === 0) {
        const keys = isObject(schema.propertyNames)
          ? this.schema(schema.propertyNames, child(pointer, "propertyNames"), "json")
          : "z.string()";
        return `z.record(${keys}, ${values})`;
      }
      return `z.catchall(z.object(${body}), ${values})`;
    }
    if (isObject(schema.propertyNames))
      this.#findings.notEnforced(child(pointer, "propertyNames"), "propertyNames: documented only");
    return `z.object(${body})`;
  }

  /**
   * A member named `#text` with no `xml.name`: the XML-to-JSON convention (xml2js, BadgerFish)
   * for an element's own text, which no XML name can name. Read as that text, as OpenAPI 3.2's
   * `xml.nodeType: text` says it (written `x-nodeType` in a 3.1 document), so the XML codec
   * writes and reads it; any other member as it is.
   */
  #textMember(name: string, sub: unknown, pointer: string): unknown {
    if (name !== "#text" || !isObject(sub) || typeof sub.$ref === "string") return sub;
    const xml = isObject(sub.xml) ? sub.xml : {};
    if (typeof xml.name === "string" || xml.attribute === true) return sub;
    this.#findings.changed(
      pointer,
      "member #text: read as its element's own text in XML (OpenAPI 3.2's xml nodeType text, written x-nodeType), the convention its name follows",
    );
    return { ...sub, xml: { ...xml, "x-nodeType": "text" } };
  }

  /** A whole body of bytes: a `Uint8Array`, documented as a binary string. */
  #binary(schema: Json, pointer: string): string {
    if (typeof schema.$ref === "string") {
      const component = componentOf(schema.$ref);
      const id = component && this.#context.identifiers.get(component.name);
      if (id && this.#isBinaryString(schema)) {
        this.#context.referenced.add(component.name as string);
        return componentCall(id);
      }
    }
    const types = this.typesOf(schema);
    if (types.size > 0 && !types.has("string"))
      this.#findings.lost(pointer, "a body of bytes cannot satisfy a schema that is not a string");
    return this.binaryCode(schema, pointer);
  }

  /** The code of a binary string (a component of one, or a whole body). */
  binaryCode(schema: Json, pointer: string): string {
    const meta = this.#meta(schema, pointer, "json", ["type", "format", "$ref"]);
    return render(built("z.instanceof(Uint8Array)"), { type: "string", format: "binary", ...meta });
  }

  /** A multipart field that is a file. */
  #file(schema: Json, pointer: string): string {
    const target =
      typeof schema.$ref === "string" ? (at(this.#context.document, schema.$ref) as Json) : schema;
    return render(
      built("z.file()"),
      this.#meta(target, pointer, "json", ["type", "format", "$ref"]),
    );
  }

  /** A body handed over as text: its schema must be a string's. */
  #plain(schema: Json, pointer: string): string {
    const types = this.typesOf(schema);
    if (types.size === 1 && types.has("string")) return this.schema(schema, pointer, "json");
    this.#findings.lost(
      pointer,
      "the platform hands a text body over as a string: a schema that is not a string's is not applied",
    );
    return "z.string()";
  }
}
