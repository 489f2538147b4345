/**
 * JSON Schemas for the OpenAPI document, from the contract's zod schemas with zod's own
 * converter (draft 2020-12, OpenAPI 3.1's dialect). A part 2 resource is written once, in
 * `components.schemas`, and referred to by name wherever it is used. The document must
 * accept every answer the service gives, as any JSON Schema validator reads it, so two
 * things zod writes are changed here: `required` on read-only and write-only members (JSON
 * Schema 2020-12 §9.4), and `additionalProperties: false` on answers. The views per
 * direction and the rules: src/engine/README.md, "The OpenAPI document's schemas".
 */
import type { $ZodRegistry } from "zod/v4/core";
import {
  type Contract,
  resolveSchema,
  type Schema,
  type SchemaDeclaration,
} from "../../contract-language/contract";
import { RESERVED_SCHEMA_NAMES } from "../../contract-language/reserved";
import { defOf } from "../../contract-language/zod-def";
import type { Json, JsonSchemaConverter } from "../../platform/openapi/document";
import { COMPONENT, VIEW_OF } from "../../platform/openapi/problems";
import { viewOf } from "../zod/views";
import { cutAtNames } from "./cut";

type Direction = "input" | "output";

/**
 * Converts a declared schema (built, `resolveSchema`) to JSON Schema: a `$ref` for a
 * resource, the schema itself otherwise.
 */
export type Convert = (schema: SchemaDeclaration, io: Direction, hint?: string) => Json;

/**
 * Marks a component schema that is not a part 2 resource but was derived from a
 * declaration (a recursive schema, which needs a name to refer to itself); its value says
 * where it was found. `x-platform` marks the platform's own.
 */
const DERIVED = "x-derived";

/** The views a resource may have, by the direction zod converts them in. */
const VIEWS = [
  ["input", "request", "Input"],
  ["output", "response", "Output"],
] as const;

/**
 * zod's `override` hook: an object that strips unknown members (neither strict nor with a
 * catchall) gets no `additionalProperties: false`, which zod writes for its output but the
 * answer a handler wrote, extra members included, does not keep.
 */
function answerAsSent(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const def = defOf(ctx.zodSchema as Schema);
  if (
    def.type === "object" &&
    def.catchall === undefined &&
    ctx.jsonSchema.additionalProperties === false
  )
    delete ctx.jsonSchema.additionalProperties;
}

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

interface SchemaComponents {
  readonly convert: Convert;
  /** Every schema component so far: the resources, and the recursive schemas given one. */
  readonly schemas: Json;
}

/** A converter for one document; its components grow as schemas are converted. */
export function schemaComponents(
  contract: Contract,
  jsonSchema: JsonSchemaConverter | undefined,
): SchemaComponents {
  // Part 2's resources, built: the document is made when the Worker is built, never in it.
  const resources = Object.entries(contract.resources).map(
    ([name, declared]) => [name, resolveSchema(declared)] as const,
  );
  const names = new Map<Schema, string>(resources.map(([name, schema]) => [schema, name]));
  const schemas: Json = {};
  const used = new Set<string>([...names.values(), ...RESERVED_SCHEMA_NAMES]);
  const fresh = (hint: string) => {
    let name = hint.replace(/[^A-Za-z0-9._-]/g, "") || "Schema";
    for (let n = 2; used.has(name); n += 1) name = `${hint}${n}`;
    used.add(name);
    return name;
  };
  // A resource's views, named once, so every schema that reaches one refers to it.
  const views: { name: string; view: Schema; of: string; io: Direction }[] = [];
  for (const [of, schema] of resources) {
    for (const [io, direction, suffix] of VIEWS) {
      const view = viewOf(schema, direction);
      if (view === schema) continue;
      const name = fresh(`${of}-${suffix}`);
      names.set(view, name);
      views.push({ name, view, of, io });
    }
  }
  const components = new Set(names.values());
  const viewName = new Map(views.map(({ name, of, io }) => [`${of}\n${io}`, name]));
  /**
   * An OpenAPI discriminator's mapping names components by reference (§4.8.25); where a
   * mapped resource has a view in this direction, the mapping names the view, as the
   * branches beside it do.
   */
  const mappings = (value: unknown, io: Direction): unknown => {
    if (Array.isArray(value)) return value.map((item) => mappings(item, io));
    if (value === null || typeof value !== "object") return value;
    const out: Json = {};
    for (const [key, child] of Object.entries(value)) out[key] = mappings(child, io);
    const mapping = (out.discriminator as { mapping?: Record<string, unknown> } | undefined)
      ?.mapping;
    if (mapping)
      out.discriminator = {
        ...(out.discriminator as Json),
        mapping: Object.fromEntries(
          Object.entries(mapping).map(([key, target]) => {
            const resource =
              typeof target === "string" && target.startsWith(COMPONENT)
                ? target.slice(COMPONENT.length)
                : undefined;
            const view = resource === undefined ? undefined : viewName.get(`${resource}\n${io}`);
            return [key, view ? `${COMPONENT}${view}` : target];
          }),
        ),
      };
    return out;
  };
  // Each schema is converted with the other named ones cut off (./cut.ts): zod writes each
  // as a `$ref` to the name it is given as `id`, and its component is written from it alone.
  const cut = cutAtNames(names);
  // zod's registry interface, over the global one: a view keeps what was said of its schema.
  const metadata = {
    get: cut.metadata,
    has: (schema: Schema) => cut.metadata(schema) !== undefined,
    _idmap: new Map(),
    _map: new WeakMap(),
  } as unknown as $ZodRegistry<Record<string, unknown>>;

  const raw = (schema: Schema, io: Direction): Json => {
    if (!jsonSchema)
      throw new Error("the contract declares schemas but no JSON Schema converter was given");
    const { $schema: _dialect, ...json } = jsonSchema(cut.root(schema), {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      metadata,
      cycles: "ref",
      ...(io === "output" ? { override: answerAsSent } : {}),
    });
    return json;
  };

  /** Hoists `$defs` into components and points their refs there. */
  const place = (converted: Json, hint: string, io: Direction): Json => {
    const json = mappings(converted, io) as Json;
    const { $defs, ...rest } = json as Json & { $defs?: Record<string, Json> };
    const renamed = new Map<string, string>();
    // zod names a resource's definition by its id (the resource's name); any other
    // definition (a recursive part of a schema) gets a fresh component name.
    for (const key of Object.keys($defs ?? {}))
      renamed.set(key, components.has(key) ? key : fresh(`${hint}${key.replace(/^_+/, "")}`));
    const rename = (ref: string) =>
      ref.startsWith("#/$defs/") ? `${COMPONENT}${renamed.get(ref.slice(8)) ?? ref.slice(8)}` : ref;
    for (const [key, def] of Object.entries($defs ?? {})) {
      const name = renamed.get(key) as string;
      // A resource's (or a view's) own component is written from it, below.
      if (components.has(key) && name === key) continue;
      schemas[name] = { ...(rewriteRefs(def, rename) as Json), [DERIVED]: hint };
    }
    return rewriteRefs(rest, rename) as Json;
  };

  const convert: Convert = (declared, io, hint = "Schema") => {
    // What a request may send, or an answer carry: the schema's view for that direction.
    const schema = viewOf(resolveSchema(declared), io === "input" ? "request" : "response");
    const name = names.get(schema);
    if (name) return { $ref: `${COMPONENT}${name}` };
    const json = place(raw(schema, io), hint, io);
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
  const component = (name: string, schema: Schema, io: Direction) =>
    place(raw(schema, io), name, io);
  for (const [name, schema] of resources) schemas[name] = component(name, schema, "input");
  for (const { name, view, of, io } of views)
    schemas[name] = {
      ...component(name, view, io),
      [DERIVED]: of,
      [VIEW_OF]: { resource: of, direction: io === "input" ? "request" : "response" },
    };
  return { convert, schemas };
}
