/**
 * Whether an answer is one the served document documents for its operation: its status
 * (exact, by range, or `default`, OpenAPI 3.1 §4.8.16.2), its media type, the headers it
 * marks required, and its JSON body validated against the documented schema with
 * @cfworker/json-schema (JSON Schema 2020-12, no `eval`, so it runs in workerd too). An XML
 * body (RFC 7303) is read by the documented schema's own `xml` objects (OpenAPI 3.1
 * §4.8.26), as a client of the document would read it, and the value is validated alike.
 */
import { dereference, encodePointer, type Schema, validate } from "@cfworker/json-schema";
import { XML_CODEC } from "../../../src/engine/xml/codec";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Where the served document's schemas are filed for $ref resolution; never fetched. */
const BASE = "https://conformance.invalid/openapi.json";

const escapeToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * An operation's `default` answer (OpenAPI 3.1 §4.8.16.2), filed under another name: the
 * validator takes a `default` key for JSON Schema's keyword, whose value it never walks, so
 * the schemas of a default answer would not be found.
 */
const DEFAULT_ANSWER = "default-answer";

/** A pointer into the document as the URI the validator filed it under (each token encodeURI'd). */
function schemaUri(pointer: string): string {
  const tokens = pointer
    .slice(2)
    .split("/")
    .map((token, i, all) => {
      let raw = token;
      try {
        raw = decodeURIComponent(token);
      } catch {}
      if (raw === "default" && all[i - 1] === "responses") raw = DEFAULT_ANSWER;
      return encodeURI(raw).replaceAll("#", "%23");
    });
  return `${BASE}#/${tokens.join("/")}`;
}

/** A member of a map of names filed apart from the map: its schema and where it stands. */
interface Aside {
  readonly pointer: string;
  readonly schema: unknown;
}

/**
 * The document without what no validation reads: examples, defaults and extensions. The
 * validator files every object it walks, and an example's `id` member would read to it as
 * a draft-4 schema id (two examples with one id are then "duplicate schema URIs"). For the
 * same reason a member named `id` or `$id` of a map of names (PeerTube's component schema
 * `id`) is not left in its map, which the validator would take for a schema whose id is
 * that member: it goes to `aside`, with its pointer, to be filed on its own.
 */
function validationOnly(
  node: unknown,
  aside: Aside[],
  named = false,
  parent = "",
  pointer = "",
): unknown {
  if (Array.isArray(node))
    return node.map((item, i) => validationOnly(item, aside, false, "", `${pointer}/${i}`));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    // Under `properties` (and the like) a key is a member's name, never a keyword.
    const dropped =
      key === "example" || key === "examples" || key === "default" || key.startsWith("x-");
    if (!named && dropped) continue;
    const filed = named && parent === "responses" && key === "default" ? DEFAULT_ANSWER : key;
    const at = `${pointer}/${encodePointer(filed)}`;
    const kept = validationOnly(value, aside, !named && NAMED.has(key), key, at);
    if (named && (key === "id" || key === "$id") && !CFWORKER_MAPS.has(parent))
      aside.push({ pointer: at, schema: kept });
    else out[filed] = kept;
  }
  return out;
}

/** The maps of names the validator itself walks as maps, whose `id` member it never misreads. */
const CFWORKER_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/** Why `value` does not match the schema at `pointer` in the document; empty when it does. */
export type SchemaCheck = (pointer: string, value: unknown) => string[];

/** The served document, ready to validate answers against (its schemas indexed once). */
export interface Documented {
  readonly document: Json;
  readonly check: SchemaCheck;
}

/** Keywords whose object's keys are names (of members, definitions, components), not keywords. */
const NAMED = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "schemas",
  "responses",
  "parameters",
  "headers",
  "content",
  "paths",
  "securitySchemes",
  "webhooks",
  "encoding",
]);

/**
 * The document with a validator over it: @cfworker/json-schema by default (it runs in
 * workerd), or another a caller brings (the Node suite brings Ajv, independent of both).
 */
export function documented(
  document: Json,
  validator?: (document: Json) => SchemaCheck,
): Documented {
  if (validator) return { document, check: validator(document) };
  const aside: Aside[] = [];
  const lookup = dereference(
    validationOnly(document, aside) as Schema,
    Object.create(null),
    new URL(BASE),
  );
  for (const { pointer, schema } of aside)
    dereference(schema as Schema, lookup, new URL(BASE), pointer);
  const check: SchemaCheck = (pointer, value) => {
    const result = validate(value, { $ref: schemaUri(pointer) }, "2020-12", lookup, false);
    if (result.valid) return [];
    const deepest = result.errors.filter((e) => !e.error.startsWith("A subschema had errors"));
    return (deepest.length > 0 ? deepest : result.errors).map(
      (e) => `${e.instanceLocation}: ${e.error}`,
    );
  };
  return { document, check };
}

/**
 * The node at a pointer, and the pointer it was reached at after following `$ref`s (or,
 * with `follow` false, the node itself, a `$ref` with its siblings).
 */
function resolve(
  document: Json,
  pointer: string,
  follow = true,
): { node: unknown; pointer: string } {
  let current = pointer;
  for (let hops = 0; hops < 16; hops++) {
    let node: unknown = document;
    for (const raw of current.slice(2).split("/")) {
      const token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      node = isObject(node) ? node[token] : undefined;
    }
    if (follow && isObject(node) && typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
      current = node.$ref;
      continue;
    }
    return { node, pointer: current };
  }
  return { node: undefined, pointer: current };
}

/** `application/json`, `application/problem+json`, … (RFC 6839 §3.1). */
const isJson = (type: string) => /^application\/(?:[^;]+\+)?json$/i.test(type);
/** `application/xml`, `text/xml`, `application/problem+xml`, … (RFC 7303 §3, §9.2). */
const isXml = (type: string) => /^(?:application|text)\/(?:xml|[^;]+\+xml)$/i.test(type);

/** An XML body read by the documented schema's `xml` objects, or why it cannot be. */
function readXml(document: Json, schemaPointer: string, text: string) {
  const schema = resolve(document, schemaPointer, false).node;
  try {
    const mapping = XML_CODEC.mapping(isObject(schema) ? schema : {}, {
      root: "root",
      item: "item",
      document,
    });
    const read = mapping.read(text);
    return read.ok ? read : { ok: false as const, reason: `it is not: ${read.reason}` };
  } catch (error) {
    return { ok: false as const, reason: `its xml objects cannot be read: ${String(error)}` };
  }
}

/** Whether `type` is one of the declared media types (a declared range `image/*` covers it). */
function declaredType(declared: readonly string[], type: string): string | undefined {
  const lower = type.toLowerCase();
  return (
    declared.find((d) => d.toLowerCase() === lower) ??
    declared.find((d) => d.endsWith("/*") && lower.startsWith(d.slice(0, -1).toLowerCase())) ??
    declared.find((d) => d === "*/*")
  );
}

/** Every way the answer departs from what the document documents for the operation. */
export function documentedFailures(
  doc: Documented,
  template: string,
  method: string,
  response: Response,
  text: string,
): string[] {
  const operation = `#/paths/${escapeToken(template)}/${method.toLowerCase()}`;
  const responses = resolve(doc.document, `${operation}/responses`).node;
  if (!isObject(responses)) return [`${method} ${template} documents no responses`];
  const status = String(response.status);
  const key = [status, `${status[0]}XX`, "default"].find((k) => k in responses);
  if (key === undefined) return [`status ${status} is not documented`];
  const { node, pointer } = resolve(doc.document, `${operation}/responses/${escapeToken(key)}`);
  const declared = isObject(node) ? node : {};
  const failures: string[] = [];
  for (const [name, header] of Object.entries(isObject(declared.headers) ? declared.headers : {})) {
    const resolved = resolve(doc.document, `${pointer}/headers/${escapeToken(name)}`).node;
    if (isObject(resolved) && resolved.required === true && !response.headers.has(name))
      failures.push(`header ${name} is documented as required, and missing`);
    void header;
  }
  const content = isObject(declared.content) ? declared.content : {};
  const types = Object.keys(content);
  if (text === "" || response.status === 204 || response.status === 304) return failures;
  if (types.length === 0) return [...failures, `status ${status} documents no body, and one came`];
  const type = response.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
  const match = declaredType(types, type);
  if (!match) return [...failures, `media type ${type} is not documented for status ${status}`];
  const schemaPointer = `${pointer}/content/${escapeToken(match)}/schema`;
  let value: unknown;
  if (isXml(type)) {
    if (resolve(doc.document, schemaPointer).node === undefined) return failures;
    const read = readXml(doc.document, schemaPointer, text);
    if (!read.ok)
      return [
        ...failures,
        `the ${type} body is to be read by its schema's xml objects, and ${read.reason}`,
      ];
    value = read.value;
  } else {
    if (!isJson(type)) return failures;
    try {
      value = JSON.parse(text);
    } catch {
      return [...failures, `the ${type} body is not JSON`];
    }
  }
  if (resolve(doc.document, schemaPointer).node === undefined) return failures;
  const errors = doc.check(schemaPointer, value);
  if (errors.length > 0)
    failures.push(
      `the body does not match the documented schema (${errors.slice(0, 3).join("; ")})`,
    );
  return failures;
}
