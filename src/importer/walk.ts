/**
 * Where the schemas of an OpenAPI document are, and what a schema's subschemas are: the
 * importer converts each, the round-trip report compares them, and both read OpenAPI 3.0's
 * dialect as 3.1's (`normaliseSchema`), so a 3.0 document and the 3.1 one the service
 * serves are compared in one dialect.
 */
import { child, isObject, type Json } from "./source";

/** JSON Schema keywords whose value is one subschema. */
const ONE = [
  "items",
  "not",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "contentSchema",
] as const;
/** Keywords whose value is a list of subschemas. */
const MANY = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = [
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
] as const;

/** A copy of `schema` with each direct subschema replaced by `map(subschema, pointer)`. */
function mapSubschemas(
  schema: Json,
  pointer: string,
  map: (sub: unknown, pointer: string) => unknown,
): Json {
  const out: Json = { ...schema };
  for (const key of ONE)
    if (key in schema && typeof schema[key] !== "boolean" && !Array.isArray(schema[key]))
      out[key] = map(schema[key], child(pointer, key));
  for (const key of MANY) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((sub, i) => map(sub, child(pointer, key, i)));
  }
  for (const key of MAP) {
    const entries = schema[key];
    if (isObject(entries))
      out[key] = Object.fromEntries(
        Object.entries(entries).map(([name, sub]) => [name, map(sub, child(pointer, key, name))]),
      );
  }
  return out;
}

/** Keywords that only describe (no validation): they move with a schema when it is wrapped. */
export const ANNOTATIONS = [
  "title",
  "description",
  "example",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "externalDocs",
  "xml",
  "$comment",
] as const;

/**
 * One schema of OpenAPI 3.0 in 3.1's dialect (OpenAPI 3.1 §4.8.24 and its migration
 * notes): `nullable: true` adds "null" to `type` (and to `enum`, which must list it to
 * allow it) or, without a `type`, becomes `anyOf` with `{type: "null"}`; the boolean forms of
 * `exclusiveMinimum`/`exclusiveMaximum` become numbers. A `$ref`'s siblings are kept, as 3.1
 * reads them (3.0 would ignore them; documents that write them mean them).
 */
function normaliseSchema(schema: unknown, pointer: string): unknown {
  if (!isObject(schema)) return schema;
  const out = mapSubschemas(schema, pointer, normaliseSchema);
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (out[exclusive] === true && typeof out[bound] === "number") {
      out[exclusive] = out[bound];
      delete out[bound];
    } else if (typeof out[exclusive] === "boolean") delete out[exclusive];
  }
  if (!("nullable" in out)) return out;
  const nullable = out.nullable === true;
  delete out.nullable;
  if (!nullable) return out;
  if (typeof out.type === "string" || Array.isArray(out.type)) {
    const types = Array.isArray(out.type) ? out.type : [out.type];
    if (!types.includes("null")) out.type = [...types, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  const annotations: Json = {};
  for (const key of ANNOTATIONS)
    if (key in out) {
      annotations[key] = out[key];
      delete out[key];
    }
  return { anyOf: [out, { type: "null" }], ...annotations };
}

/** A schema position found in the document: its pointer, and how to replace it. */
interface SchemaSite {
  readonly pointer: string;
  readonly schema: unknown;
  readonly replace: (schema: unknown) => void;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * Every schema position of an OpenAPI document, by its structure (never by a key named
 * "schema" found inside an example): component schemas, parameters and headers, media
 * types of bodies and responses, in paths, webhooks, callbacks and components.
 */
function schemaSites(document: Json): SchemaSite[] {
  const sites: SchemaSite[] = [];
  const site = (holder: Json, key: string, pointer: string) => {
    if (!(key in holder)) return;
    sites.push({
      pointer: child(pointer, key),
      schema: holder[key],
      replace: (schema) => {
        holder[key] = schema;
      },
    });
  };
  const content = (holder: unknown, pointer: string) => {
    if (!isObject(holder) || !isObject(holder.content)) return;
    for (const [type, media] of Object.entries(holder.content))
      if (isObject(media)) site(media, "schema", child(pointer, "content", type));
  };
  const parameter = (p: unknown, pointer: string) => {
    if (!isObject(p)) return;
    site(p, "schema", pointer);
    content(p, pointer);
  };
  const headers = (holder: unknown, pointer: string) => {
    if (!isObject(holder) || !isObject(holder.headers)) return;
    for (const [name, header] of Object.entries(holder.headers))
      parameter(header, child(pointer, "headers", name));
  };
  const response = (r: unknown, pointer: string) => {
    content(r, pointer);
    headers(r, pointer);
  };
  const pathItem = (item: unknown, pointer: string) => {
    if (!isObject(item)) return;
    if (Array.isArray(item.parameters))
      item.parameters.forEach((p, i) => {
        parameter(p, child(pointer, "parameters", i));
      });
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = child(pointer, method);
      if (Array.isArray(op.parameters))
        op.parameters.forEach((p, i) => {
          parameter(p, child(at, "parameters", i));
        });
      content(op.requestBody, child(at, "requestBody"));
      if (isObject(op.responses))
        for (const [status, r] of Object.entries(op.responses))
          response(r, child(at, "responses", status));
      if (isObject(op.callbacks))
        for (const [name, callback] of Object.entries(op.callbacks))
          if (isObject(callback))
            for (const [expression, cbItem] of Object.entries(callback))
              pathItem(cbItem, child(at, "callbacks", name, expression));
    }
  };
  if (isObject(document.paths))
    for (const [path, item] of Object.entries(document.paths))
      pathItem(item, child("#", "paths", path));
  if (isObject(document.webhooks))
    for (const [name, item] of Object.entries(document.webhooks))
      pathItem(item, child("#", "webhooks", name));
  const components = isObject(document.components) ? document.components : {};
  const each = (kind: string, visit: (node: unknown, pointer: string) => void) => {
    const group = components[kind];
    if (isObject(group))
      for (const [name, node] of Object.entries(group))
        visit(node, child("#", "components", kind, name));
  };
  if (isObject(components.schemas)) {
    const schemas = components.schemas;
    for (const name of Object.keys(schemas))
      site(schemas, name, child("#", "components", "schemas"));
  }
  each("parameters", parameter);
  each("headers", parameter);
  each("requestBodies", (body, pointer) => content(body, pointer));
  each("responses", response);
  each("pathItems", pathItem);
  each("callbacks", (callback, pointer) => {
    if (isObject(callback))
      for (const [expression, item] of Object.entries(callback))
        pathItem(item, child(pointer, expression));
  });
  return sites;
}

/**
 * The document in OpenAPI 3.1's terms: every schema in its dialect (a 3.1 document's are
 * unchanged), and 3.0's common `x-webhooks` extension (GitHub's, Redocly's) read as the
 * `webhooks` 3.1 declares (§4.8.1), where the document has none of those.
 */
export function normaliseDocument(document: Json, major: "3.0" | "3.1"): Json {
  const copy = structuredClone(document);
  if (readsExtensionWebhooks(copy)) {
    copy.webhooks = copy[X_WEBHOOKS];
    delete copy[X_WEBHOOKS];
  }
  if (major === "3.0")
    for (const site of schemaSites(copy)) site.replace(normaliseSchema(site.schema, site.pointer));
  return copy;
}

const X_WEBHOOKS = "x-webhooks";

/** Whether `document` declares its webhooks in the `x-webhooks` extension, and not in `webhooks`. */
export function readsExtensionWebhooks(document: Json): boolean {
  return isObject(document[X_WEBHOOKS]) && !isObject(document.webhooks);
}
