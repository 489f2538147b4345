/**
 * JSON Schemas for the OpenAPI document, from the contract's zod schemas with zod's own
 * converter (draft 2020-12, OpenAPI 3.1's dialect). A part 2 resource is written once, in
 * `components.schemas`, and referred to by name wherever it is used, at any depth; a
 * recursive schema that is not a resource is given a component of its own, since `$ref`s
 * inside an OpenAPI document resolve against the document, not the schema.
 */
import { type $ZodRegistry, globalRegistry } from "zod/v4/core";
import type { Contract, Schema } from "../../domain/contract";
import { RESERVED_SCHEMA_NAMES } from "../../domain/reserved";
import type { Json, JsonSchemaConverter } from "../../platform/openapi/document";
import { COMPONENT } from "../../platform/openapi/problems";

export type Direction = "input" | "output";

/** Converts a schema to JSON Schema: a `$ref` for a resource, the schema itself otherwise. */
export type Convert = (schema: Schema, io: Direction, hint?: string) => Json;

/**
 * Marks a component schema that is not a part 2 resource but was derived from a
 * declaration (a recursive schema, which needs a name to refer to itself); its value says
 * where it was found. `x-platform` marks the platform's own.
 */
export const DERIVED = "x-derived";

/** Rewrites every `$ref` in a JSON value with `rename`. */
function rewriteRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename));
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === "$ref" && typeof child === "string" ? rename(child) : rewriteRefs(child, rename);
  }
  return out;
}

function refersToRoot(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(refersToRoot);
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, child]) =>
    key === "$ref" ? child === "#" : refersToRoot(child),
  );
}

export interface SchemaComponents {
  readonly convert: Convert;
  /** Every schema component so far: the resources, and the recursive schemas given one. */
  readonly schemas: Json;
}

/** A converter for one document; its components grow as schemas are converted. */
export function schemaComponents(
  contract: Contract,
  jsonSchema: JsonSchemaConverter | undefined,
): SchemaComponents {
  const names = new Map<Schema, string>(
    Object.entries(contract.resources).map(([name, schema]) => [schema, name]),
  );
  // zod's registry interface, over the global one: a resource gets its name as its id, so
  // zod refers to it instead of repeating it.
  const metadata = {
    get: (schema: Schema) => {
      const meta = globalRegistry.get(schema);
      const id = names.get(schema);
      return id ? { ...meta, id } : meta;
    },
    has: (schema: Schema) => names.has(schema) || globalRegistry.has(schema),
    _idmap: new Map(),
    _map: new WeakMap(),
  } as unknown as $ZodRegistry<Record<string, unknown>>;
  const schemas: Json = {};
  const used = new Set<string>([...names.values(), ...RESERVED_SCHEMA_NAMES]);
  const fresh = (hint: string) => {
    let name = hint.replace(/[^A-Za-z0-9._-]/g, "") || "Schema";
    for (let n = 2; used.has(name); n += 1) name = `${hint}${n}`;
    used.add(name);
    return name;
  };

  const raw = (schema: Schema, io: Direction): Json => {
    if (!jsonSchema)
      throw new Error("the contract declares schemas but no JSON Schema converter was given");
    const { $schema: _dialect, ...json } = jsonSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      metadata,
      cycles: "ref",
    });
    return json;
  };

  /** Hoists `$defs` into components and points their refs there. */
  const place = (json: Json, hint: string): Json => {
    const { $defs, ...rest } = json as Json & { $defs?: Record<string, Json> };
    const renamed = new Map<string, string>();
    // zod names a resource's definition by its id (the resource's name); any other
    // definition (a recursive part of a schema) gets a fresh component name.
    for (const key of Object.keys($defs ?? {}))
      renamed.set(key, contract.resources[key] ? key : fresh(`${hint}${key.replace(/^_+/, "")}`));
    const rename = (ref: string) =>
      ref.startsWith("#/$defs/") ? `${COMPONENT}${renamed.get(ref.slice(8)) ?? ref.slice(8)}` : ref;
    for (const [key, def] of Object.entries($defs ?? {})) {
      const name = renamed.get(key) as string;
      // A resource's own component is written from the resource itself, below.
      if (contract.resources[key] && name === key) continue;
      schemas[name] = { ...(rewriteRefs(def, rename) as Json), [DERIVED]: hint };
    }
    return rewriteRefs(rest, rename) as Json;
  };

  const convert: Convert = (schema, io, hint = "Schema") => {
    const name = names.get(schema);
    if (name) return { $ref: `${COMPONENT}${name}` };
    const json = place(raw(schema, io), hint);
    if (!refersToRoot(json)) return json;
    // A recursive schema refers to itself as "#": it becomes a component of its own.
    const own = fresh(hint);
    schemas[own] = {
      ...(rewriteRefs(json, (ref) => (ref === "#" ? `${COMPONENT}${own}` : ref)) as Json),
      [DERIVED]: hint,
    };
    return { $ref: `${COMPONENT}${own}` };
  };

  // Each resource is written once, under its own name, as a client may send it ("input":
  // zod's output view would add additionalProperties: false, which only its stripping
  // answers keep, and which a request need not).
  for (const [name, schema] of Object.entries(contract.resources)) {
    const json = raw(schema, "input");
    const { [name]: own, ...others } = (json.$defs ?? {}) as Record<string, Json>;
    schemas[name] = place({ ...(own ?? json), $defs: others }, name);
  }
  return { convert, schemas };
}
