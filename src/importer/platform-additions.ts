/**
 * A document this platform served, read back: what the platform adds to every document
 * (its `/_service` paths, its problem schemas and failure answers, `X-Request-Id`, OPTIONS,
 * its tag, the not-specified note) is marked `x-platform` there, and answers merged at one
 * status say what they are made of (`x-merged`). Taking those out leaves what the contract
 * declared, so contract → document → import → document is the same document. A document
 * written elsewhere has none of these marks and passes through unchanged, but for paths
 * under `/_service`, which are the platform's namespace.
 */
import { MERGED, PLATFORM, VIEW_OF } from "../contract-language/document-marks";
import type { Findings } from "./findings";
import { resourceFromViews } from "./renames";
import { child, follow, isObject, type Json } from "./source";

/** Error types an operation answers with, kept where a merged answer is taken apart. */
export const IMPORT_ERRORS = "x-import-errors";
const SERVICE = "/_service";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** The note the platform adds to `info.description` (src/platform/openapi/document.ts). */
const NOT_SPECIFIED_NOTE =
  /\n*Not specified in the interface specification: ([^\n]*)\. See \/_service\/interface\.$/;

/** The parts a document served here says are not specified, by number (its note in info.description). */
export function unspecifiedParts(document: Json): Set<number> {
  const description = isObject(document.info) ? document.info.description : undefined;
  const note = typeof description === "string" ? NOT_SPECIFIED_NOTE.exec(description) : null;
  return new Set([...(note?.[1] ?? "").matchAll(/part (\d+)/g)].map((m) => Number(m[1])));
}

const marked = (document: Json, node: unknown, pointer: string): boolean => {
  const { node: target } = follow(document, node, pointer);
  return isObject(target) && target[PLATFORM] === true;
};

/** Whether the document carries the platform's marks (it was served by this platform). */
export function servedHere(document: Json): boolean {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  return Object.values(schemas).some((s) => isObject(s) && s[PLATFORM] === true);
}

/** The document without the platform's own additions (a copy; the source is not changed). */
export function withoutPlatformAdditions(source: Json, findings: Findings): Json {
  const document = structuredClone(source);
  const ours = servedHere(document);
  const paths = isObject(document.paths) ? document.paths : {};
  for (const path of Object.keys(paths)) {
    if (path !== SERVICE && !path.startsWith(`${SERVICE}/`)) continue;
    if (!ours)
      findings.lost(child("#", "paths", path), "a path in /_service, the platform's own namespace");
    delete paths[path];
  }
  if (!ours) return document;

  /** A response's headers without the platform's (X-Request-Id): none left, no headers. */
  const withoutPlatformHeaders = (response: Json) => {
    if (!isObject(response.headers)) return;
    const kept = Object.entries(response.headers).filter(([, h]) => !marked(document, h, "#"));
    if (kept.length > 0) response.headers = Object.fromEntries(kept);
    else delete response.headers;
  };
  const operation = (op: Json) => {
    if (Array.isArray(op.parameters))
      op.parameters = op.parameters.filter((p) => !marked(document, p, "#"));
    const responses = isObject(op.responses) ? op.responses : {};
    const errors: string[] = [];
    for (const [status, raw] of Object.entries(responses)) {
      if (!isObject(raw)) continue;
      if (raw[PLATFORM] === true) {
        delete responses[status];
        continue;
      }
      const sources = raw[MERGED];
      if (Array.isArray(sources)) {
        const declared = sources.find((p) => isObject(p) && isObject(p.declared));
        for (const source of sources)
          if (isObject(source) && typeof source.errorType === "string")
            errors.push(source.errorType);
        if (isObject(declared) && isObject(declared.declared))
          responses[status] = declared.declared;
        else delete responses[status];
        continue;
      }
      withoutPlatformHeaders(raw);
    }
    if (errors.length > 0) op[IMPORT_ERRORS] = errors;
  };
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      if (op[PLATFORM] === true) delete item[method];
      else operation(op);
    }
  }
  const webhooks = isObject(document.webhooks) ? document.webhooks : {};
  for (const item of Object.values(webhooks))
    if (isObject(item))
      for (const method of METHODS) if (isObject(item[method])) operation(item[method] as Json);

  const components = isObject(document.components) ? document.components : {};
  withoutViews(document, components);
  if (isObject(components.responses))
    for (const response of Object.values(components.responses))
      if (isObject(response)) withoutPlatformHeaders(response);
  for (const kind of ["schemas", "parameters", "headers", "responses"]) {
    const group = components[kind];
    if (!isObject(group)) continue;
    for (const [name, node] of Object.entries(group))
      if (isObject(node) && node[PLATFORM] === true) delete group[name];
    if (Object.keys(group).length === 0) delete components[kind];
  }
  if (Array.isArray(document.tags))
    document.tags = document.tags.filter((t) => !(isObject(t) && t[PLATFORM] === true));
  if (isObject(document.info) && typeof document.info.description === "string") {
    const description = document.info.description.replace(NOT_SPECIFIED_NOTE, "");
    if (description === "") delete document.info.description;
    else document.info.description = description;
  }
  return document;
}

/**
 * A resource's views (`X-Input`, `X-Output`, marked `x-view-of`) are how the document says
 * one schema for both directions; read back, they are the resource itself: each reference
 * to one refers to the resource, and the views go.
 */
function withoutViews(document: Json, components: Json): void {
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const resourceOf = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    const view = isObject(schema) ? schema[VIEW_OF] : undefined;
    if (isObject(view) && typeof view.resource === "string") resourceOf.set(name, view.resource);
  }
  if (resourceOf.size === 0) return;
  const prefix = "#/components/schemas/";
  const resourceRef = (value: unknown) =>
    typeof value === "string" && value.startsWith(prefix)
      ? resourceOf.get(decodeURIComponent(value.slice(prefix.length)))
      : undefined;
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(rewrite);
    else if (isObject(node))
      for (const [key, value] of Object.entries(node)) {
        const resource = key === "$ref" ? resourceRef(value) : undefined;
        if (resource !== undefined) node[key] = `${prefix}${resource}`;
        else rewrite(value);
      }
    // A discriminator's mapping names a view by reference too (OpenAPI 3.1 §4.8.25).
    const mapping =
      isObject(node) && isObject(node.discriminator) ? node.discriminator.mapping : undefined;
    if (isObject(mapping))
      for (const [key, value] of Object.entries(mapping)) {
        const resource = resourceRef(value);
        if (resource !== undefined) mapping[key] = `${prefix}${resource}`;
      }
  };
  // A resource only its views stood for comes back from them.
  for (const resource of new Set(resourceOf.values())) {
    if (isObject(schemas[resource])) continue;
    const back = resourceFromViews(schemas, resource);
    if (back) schemas[resource] = back;
  }
  for (const name of resourceOf.keys()) delete schemas[name];
  rewrite(document);
}

/**
 * The pieces of an error type's problem schema in a document served here: the schema the
 * spec gave it (a reference) and its members (an object), around the platform's Problem.
 */
export function ownProblemSchema(
  document: Json,
  schema: unknown,
): { schema?: unknown; members?: Json } {
  const pieces = isObject(schema) && Array.isArray(schema.allOf) ? schema.allOf : [schema];
  const out: { schema?: unknown; members?: Json } = {};
  for (const piece of pieces) {
    if (!isObject(piece)) continue;
    if (typeof piece.$ref === "string") {
      // The platform's Problem is gone from the document read back; the spec's schema is not.
      if (at(document, piece.$ref) !== undefined) out.schema = piece;
    } else if (isObject(piece.properties)) out.members = piece;
  }
  return out;
}

function at(document: Json, ref: string): unknown {
  try {
    return follow(document, { $ref: ref }, "#").node;
  } catch {
    return undefined;
  }
}
