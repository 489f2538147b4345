/**
 * Schemas compared: a source schema with the served one, keyword by keyword (a component
 * schema, one item per keyword) or as a whole (a body's, a parameter's: one item). Both in
 * OpenAPI 3.1's dialect; `$ref`s to components are compared as references, through the
 * import's renames.
 */
import type { Renames } from "../renames";
import { servedDiscriminator } from "../renames";
import { child, follow, isObject, type Json } from "../source";
import { brief, type Category, type Record_, regexSource, sameJson } from "./items";

/** One item of a schema's comparison, at a pointer. */
type Report = (pointer: string, kept: boolean, note?: string) => void;

/** What a walk over one schema reports to, and how deep it is (a cycle stops at 64). */
interface Walk {
  readonly record: Report;
  readonly example: Report;
  readonly depth: number;
}

/** A source schema, the served schema it is compared with, and that one's non-null branch. */
interface Pair {
  readonly source: Json;
  readonly target: Json;
  readonly branch: Json | undefined;
}

/** A boolean schema kept: the same, `{}` for true, or `{ not: {} }` for false. */
function sameBoolean(source: boolean, served: unknown): boolean {
  return (
    sameJson(source, served) ||
    (source === true && isObject(served) && Object.keys(served).length === 0) ||
    // `false` is written `{ not: {} }`: no value is valid against either.
    (source === false &&
      isObject(served) &&
      Object.keys(served).length === 1 &&
      isObject(served.not) &&
      Object.keys(served.not).length === 0)
  );
}

/** zod writes a nullable schema as anyOf with null: its keywords are on the other branch. */
function nonNullBranch(source: Json, target: Json): Json | undefined {
  const branches = !Array.isArray(source.anyOf) && Array.isArray(target.anyOf) ? target.anyOf : [];
  const isNull = (b: unknown) => isObject(b) && b.type === "null" && Object.keys(b).length === 1;
  return branches.length === 2 && branches.some(isNull)
    ? (branches.find((b) => !isNull(b)) as Json | undefined)
    : undefined;
}

/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMA_KEYWORDS = new Set([
  "properties",
  "unevaluatedProperties",
  "items",
  "additionalProperties",
  "propertyNames",
  "not",
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
]);

/** Compares a source schema with the served one: keyword by keyword, or as a whole. */
export class SchemaComparer {
  readonly #source: Json;
  readonly #served: Json;
  readonly #renames: Renames;
  readonly #record: Record_;

  constructor(source: Json, served: Json, renames: Renames, record: Record_) {
    this.#source = source;
    this.#served = served;
    this.#renames = renames;
    this.#record = record;
  }

  /**
   * One item for the whole schema at a place (a body, a parameter): kept if every keyword
   * is. Its examples are items of their own, unless `examples` is "pooled" (a parameter's
   * are compared with the parameter's own, where the document moves them).
   */
  whole(
    category: Category,
    pointer: string,
    source: unknown,
    served: unknown,
    examples: "counted" | "pooled" = "counted",
  ): void {
    const found: { pointer: string; kept: boolean; note?: string }[] = [];
    this.#compare(source, served, pointer, {
      record: (p, kept, note) => found.push({ pointer: p, kept, ...(note ? { note } : {}) }),
      example:
        examples === "counted"
          ? (p, kept, note) => this.#record("examples", p, kept, note)
          : () => {},
      depth: 0,
    });
    const lost = found.filter((f) => !f.kept);
    this.#record(
      category,
      pointer,
      lost.length === 0,
      lost.map((l) => `${l.pointer.slice(pointer.length) || "/"} ${l.note}`).join("; "),
    );
  }

  /** One item per keyword of a component schema, at any depth. */
  keywords(pointer: string, source: unknown, served: unknown): void {
    this.#compare(source, served, pointer, {
      record: (p, kept, note) => this.#record("schemas", p, kept, note),
      example: (p, kept, note) => this.#record("examples", p, kept, note),
      depth: 0,
    });
  }

  #types(schema: Json, document: Json, depth = 0): Set<string> | undefined {
    if (depth > 8) return undefined;
    if (typeof schema.type === "string") return new Set([schema.type]);
    if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
    const values = Array.isArray(schema.enum)
      ? schema.enum
      : "const" in schema
        ? [schema.const]
        : undefined;
    if (values)
      return new Set(
        values.map((v) =>
          v === null
            ? "null"
            : Number.isInteger(v)
              ? "integer"
              : typeof v === "number"
                ? "number"
                : typeof v,
        ),
      );
    const branches = (
      Array.isArray(schema.anyOf)
        ? schema.anyOf
        : Array.isArray(schema.oneOf)
          ? schema.oneOf
          : undefined
    )?.filter(isObject);
    if (branches) {
      const all = new Set<string>();
      for (const branch of branches) {
        const types = this.#types(branch, document, depth + 1);
        if (!types) return undefined;
        for (const t of types) all.add(t);
      }
      return all;
    }
    return undefined;
  }

  #enum(schema: Json): unknown[] | undefined {
    if (Array.isArray(schema.enum)) return schema.enum;
    if ("const" in schema) return [schema.const];
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isObject) : undefined;
    if (!branches) return undefined;
    const values: unknown[] = [];
    for (const branch of branches) {
      if (branch.type === "null" && Object.keys(branch).length === 1) values.push(null);
      else {
        const own = this.#enum(branch);
        if (!own) return undefined;
        values.push(...own);
      }
    }
    return values;
  }

  /** The served node's view for comparing members: its own, or its allOf members' (where zod wrote one). */
  #memberOf(served: Json, key: "properties", name: string): unknown {
    const own = isObject(served[key]) ? (served[key] as Json)[name] : undefined;
    if (own !== undefined) return own;
    for (const part of Array.isArray(served.allOf) ? served.allOf : []) {
      if (!isObject(part)) continue;
      const found = this.#memberOf(part, key, name);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Compares a source schema with the served one at `pointer`, keyword by keyword. */
  #compare(source: unknown, served: unknown, pointer: string, walk: Walk): void {
    if (walk.depth > 64) return;
    if (typeof source === "boolean") {
      walk.record(pointer, sameBoolean(source, served), `${source} is ${brief(served)}`);
      return;
    }
    if (!isObject(source)) return;
    if (!isObject(served)) {
      walk.record(
        pointer,
        false,
        `the schema is ${served === undefined ? "missing" : brief(served)}`,
      );
      return;
    }
    const deeper = { ...walk, depth: walk.depth + 1 };
    const instead = this.#instead(source, served, pointer);
    if (instead) {
      this.#compare(instead, served, pointer, deeper);
      return;
    }
    // A served reference where the source writes the schema out: compare with its target.
    let target = served;
    if (typeof served.$ref === "string" && typeof source.$ref !== "string") {
      const { node } = follow(this.#served, served, pointer);
      if (isObject(node)) target = node;
    }
    // The served schema may add allOf around what the source says (the platform's problem).
    if (!this.#carries(source, target) && Array.isArray(target.allOf)) {
      const part = target.allOf.find((p) => this.#carries(source, p));
      if (part !== undefined) {
        this.#compare(source, part, pointer, deeper);
        return;
      }
    }
    const node: Pair = { source, target, branch: nonNullBranch(source, target) };
    for (const [key, value] of Object.entries(source))
      this.#keyword(key, value, node, child(pointer, key), walk);
  }

  /**
   * What a source schema is read as, where it is not compared as written: a reference into
   * a component, or allOf of one schema. Undefined where it is compared as written.
   */
  #instead(source: Json, served: Json, pointer: string): Json | undefined {
    // A source reference into a component (`…/User/properties/name`, `…/$defs/Local`) is not
    // a component the served document can name: the import writes its target out, which is
    // what is compared.
    if (
      typeof source.$ref === "string" &&
      !/^#\/components\/schemas\/[^/]+$/.test(source.$ref) &&
      typeof served.$ref !== "string"
    ) {
      const { node } = follow(this.#source, source, pointer);
      const { $ref: _ref, ...siblings } = source;
      // A target that is no object (a boolean schema) is not looked into.
      return isObject(node) ? { ...node, ...siblings } : {};
    }
    // allOf of one schema (3.0's way to put a description beside a $ref) is that schema.
    if (Array.isArray(source.allOf) && source.allOf.length === 1 && !Array.isArray(served.allOf)) {
      const { allOf, ...siblings } = source;
      const only = allOf[0];
      if (isObject(only)) return { ...siblings, ...only };
    }
    return undefined;
  }

  /** One keyword of a source schema, compared with what the served schema says of it. */
  #keyword(key: string, value: unknown, node: Pair, at: string, walk: Walk): void {
    const { target, branch } = node;
    const other =
      target[key] ?? (["type", "enum", "const"].includes(key) ? undefined : branch?.[key]);
    if (SUBSCHEMA_KEYWORDS.has(key)) this.#subschemaKeyword(key, value, other, node, at, walk);
    else this.#valueKeyword(key, value, other, node, at, walk);
  }

  /** A keyword whose value is a schema, or schemas: compared deeper. */
  #subschemaKeyword(
    key: string,
    value: unknown,
    other: unknown,
    { source, target, branch }: Pair,
    at: string,
    walk: Walk,
  ): void {
    const { record } = walk;
    const deeper = { ...walk, depth: walk.depth + 1 };
    switch (key) {
      case "properties":
        for (const [name, sub] of Object.entries(isObject(value) ? value : {}))
          this.#compare(
            sub,
            this.#memberOf(
              branch && !isObject(target.properties) ? branch : target,
              "properties",
              name,
            ),
            child(at, name),
            deeper,
          );
        break;
      case "unevaluatedProperties": {
        // Without allOf/anyOf/oneOf beside it, it says what additionalProperties says.
        const composed = "allOf" in source || "anyOf" in source || "oneOf" in source;
        const closed = other ?? target.additionalProperties ?? branch?.additionalProperties;
        if (value === false && !composed && closed === false) record(at, true);
        else this.#compare(value, other, at, deeper);
        break;
      }
      case "allOf":
      case "anyOf":
      case "oneOf":
      case "prefixItems":
        this.#list(key, value, other, target, at, walk);
        break;
      default:
        // items, additionalProperties, propertyNames, not.
        if (
          key === "additionalProperties" &&
          value === true &&
          (other === undefined ||
            (isObject(other) && Object.keys(other).length === 0) ||
            other === true)
        )
          record(at, true);
        else this.#compare(value, other, at, deeper);
    }
  }

  /** A keyword whose value is compared as a value (through renames for references). */
  #valueKeyword(
    key: string,
    value: unknown,
    other: unknown,
    { target }: Pair,
    at: string,
    walk: Walk,
  ): void {
    const { record } = walk;
    switch (key) {
      case "$ref":
        // Not the platform's own wrapping (a webhook's envelope), which is no written-out copy.
        if (typeof value === "string" && other === undefined && !("x-platform" in target))
          this.#writtenOut(value, target, at, walk);
        else record(at, this.#sameRef(value, other), this.#refNote(value, other));
        break;
      case "type":
        this.#type(value, target, at, walk);
        break;
      case "enum":
      case "const": {
        const a = key === "enum" ? (value as unknown[]) : [value];
        const b = this.#enum(target);
        const kept =
          b !== undefined && a.length === b.length && a.every((v) => b.some((w) => sameJson(v, w)));
        record(at, kept, `${key} ${brief(value)} is ${brief(b)}`);
        break;
      }
      case "pattern":
        record(
          at,
          regexSource(value) === regexSource(other),
          `pattern ${brief(value)} is ${brief(other)}`,
        );
        break;
      case "required": {
        const a = Array.isArray(value) ? [...value].sort() : [];
        const b = this.#required(target).sort();
        record(at, sameJson(a, b), `required ${brief(a)} is ${brief(b)}`);
        break;
      }
      case "discriminator":
        // Its mapping names components: a renamed one by its new name.
        record(
          at,
          sameJson(this.#renames.discriminator(value), servedDiscriminator(this.#renames, other)),
          `discriminator ${brief(value)} is ${brief(other)}`,
        );
        break;
      case "example":
      case "examples":
        walk.example(at, sameJson(value, other), `${key} ${brief(value)} is ${brief(other)}`);
        break;
      default:
        record(
          at,
          sameJson(
            typeof value === "string" ? value.trim() : value,
            typeof other === "string" ? other.trim() : other,
          ),
          `${key} ${brief(value)} is ${brief(other)}`,
        );
    }
  }

  /** `type`: the same set of types as the served schema has (zod may write it as a union). */
  #type(value: unknown, target: Json, at: string, walk: Walk): void {
    const a = new Set(Array.isArray(value) ? value : [value]);
    const b = this.#types(target, this.#served);
    const kept = b !== undefined && a.size === b.size && [...a].every((t) => b.has(t as string));
    walk.record(at, kept, `type ${brief(value)} is ${b ? brief([...b]) : "missing"}`);
  }

  /**
   * A reference the served document answers with a schema written out in place (the import
   * writes a form's component out, as form fields arrive as text): kept if what is written
   * out is the component's schema, so a component written out for every form that uses it
   * is not a loss at each. Still one item, as a reference is; the component's own keywords
   * are counted where the component is.
   */
  #writtenOut(ref: string, target: Json, at: string, walk: Walk): void {
    const { node } = follow(this.#source, { $ref: ref }, at);
    const lost: string[] = [];
    this.#compare(node, target, at, {
      record: (p, kept, note) => {
        if (!kept) lost.push(`${p.slice(at.length) || "/"} ${note}`);
      },
      example: () => {},
      depth: walk.depth + 1,
    });
    walk.record(at, lost.length === 0, `${ref} is written out, and differs: ${lost.join("; ")}`);
  }

  /**
   * A list of schemas (allOf, anyOf, oneOf, prefixItems): each compared with the served
   * member that carries it, in order where it can be.
   */
  #list(key: string, value: unknown, other: unknown, target: Json, at: string, walk: Walk): void {
    const list = Array.isArray(value) ? value : [];
    const otherList = Array.isArray(other) ? other : [];
    if (key === "anyOf" && otherList.length === 0 && this.#types(target, this.#served)) {
      // zod writes a union of plain types as one list of types.
      const types = this.#types({ anyOf: list }, this.#source);
      const served = this.#types(target, this.#served);
      walk.record(
        at,
        types !== undefined &&
          served !== undefined &&
          sameJson([...types].sort(), [...served].sort()),
        `anyOf ${brief(value)} is ${brief(target.type)}`,
      );
      return;
    }
    const deeper = { ...walk, depth: walk.depth + 1 };
    list.forEach((sub, i) => {
      const match =
        otherList[i] !== undefined && this.#carries(sub, otherList[i])
          ? otherList[i]
          : (otherList.find((o) => this.#carries(sub, o)) ?? otherList[i]);
      this.#compare(sub, match, child(at, i), deeper);
    });
  }

  /** The required members of a served schema. */
  #required(schema: Json): string[] {
    return Array.isArray(schema.required) ? [...(schema.required as string[])] : [];
  }

  /**
   * The same component: by name, or by the name the import renamed it to (a client that
   * follows the served reference finds the source's schema). A reference that lands on the
   * platform's own schema of that name is not the source's.
   */
  #sameRef(ref: unknown, other: unknown): boolean {
    if (typeof ref !== "string" || typeof other !== "string") return false;
    const served = this.#renames.resource(other);
    return served === this.#renames.ref(ref) && !this.#renames.landsOnPlatformSchema(served);
  }

  /** Why a reference is not kept. */
  #refNote(ref: unknown, other: unknown): string {
    if (typeof ref === "string" && this.#renames.landsOnPlatformSchema(ref))
      return `${ref} is the platform's own schema's name; the source's is missing`;
    const expected = typeof ref === "string" ? this.#renames.ref(ref) : ref;
    const renamed = expected === ref ? "" : ` (${String(ref)}, renamed)`;
    return `refers to ${brief(other)} instead of ${String(expected)}${renamed}`;
  }

  /**
   * Whether `served` is a plausible match for `source` (same reference, or same kind of
   * node). allOf of one schema is that schema, as #compare reads it: 3.0's nullable `$ref`
   * (`allOf: [$ref], nullable: true`, anyOf with null in 3.1) is matched with the served
   * `$ref`, not with the null branch that any untyped schema would match.
   */
  #carries(source: unknown, served: unknown): boolean {
    if (!isObject(source) || !isObject(served)) return false;
    if (Array.isArray(source.allOf) && source.allOf.length === 1 && !Array.isArray(served.allOf)) {
      const { allOf, ...siblings } = source;
      return isObject(allOf[0]) && this.#carries({ ...siblings, ...allOf[0] }, served);
    }
    if (typeof source.$ref === "string") return this.#sameRef(source.$ref, served.$ref);
    if (typeof served.$ref === "string") return false;
    const a = this.#types(source, this.#source);
    const b = this.#types(served, this.#served);
    if (a && b) return [...a].some((t) => b.has(t));
    return true;
  }
}
