/// <reference path="./swagger2openapi.d.ts" />
/**
 * Reading an OpenAPI document (3.0.x or 3.1.x, YAML or JSON, a local file) into one JSON
 * value: `$ref`s to files beside it are bundled in by @apidevtools/json-schema-ref-parser
 * (local files only, never the network), so what follows resolves only `#/…` pointers. A
 * Swagger 2.0 document is read as the OpenAPI 3.0 document swagger2openapi converts it to
 * (the converter APIs.guru publishes its documents with), the network never asked.
 * Also the JSON Pointer helpers (RFC 6901, ./pointer.ts) every finding is located with.
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { bundle } from "@apidevtools/json-schema-ref-parser";
import swagger2openapi from "swagger2openapi";
import { type Mistyped, withoutMistyped } from "./mistyped";

export { child, isObject, type Json } from "./pointer";

import { child, isObject, type Json } from "./pointer";

/** The value at a `#/…` pointer of `document`; undefined when there is none. */
export function at(document: unknown, pointer: string): unknown {
  if (pointer === "#" || pointer === "#/") return document;
  if (!pointer.startsWith("#/")) return undefined;
  let node = document;
  for (const raw of pointer.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = Object.hasOwn(node, token) ? node[token] : undefined;
    else return undefined;
  }
  return node;
}

/** The component a pointer names (`#/components/schemas/Pet` → schemas, Pet), if it does. */
export function componentOf(pointer: string): { kind: string; name: string } | undefined {
  const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(pointer);
  if (!match?.[1] || !match[2]) return undefined;
  return { kind: match[1], name: match[2].replace(/~1/g, "/").replace(/~0/g, "~") };
}

export interface OpenApiSource {
  /** The file as given. */
  readonly file: string;
  /** The document with every external `$ref` bundled in. */
  readonly document: Json;
  /** The `openapi` field: 3.0.x or 3.1.x (of the converted document, for Swagger 2.0). */
  readonly openapi: string;
  /** What the file is, as the report says it: `OpenAPI 3.1.0`, or Swagger 2.0 and what it was read as. */
  readonly format: string;
  /** What the file was before it was converted (Swagger 2.0), if it was. */
  readonly convertedFrom?: string;
  /** What the conversion could not carry as it was, each where the converter marked it. */
  readonly conversionWarnings?: readonly ConversionWarning[];
  readonly major: "3.0" | "3.1";
  /** sha-256 of the file's bytes, so a report names exactly what it read. */
  readonly sha256: string;
  /** Each `$ref` to nothing in the document, where it was (it is read as its siblings). */
  readonly danglingReferences?: readonly ConversionWarning[];
  /** Each field of the wrong type, taken out of `document` or read as its text (./mistyped.ts). */
  readonly mistyped?: readonly Mistyped[];
}

/** A warning swagger2openapi wrote as `x-s2o-warning`, at the converted document's pointer. */
interface ConversionWarning {
  readonly pointer: string;
  readonly message: string;
}

/** Reads and bundles an OpenAPI document; throws one sentence when it is not one. */
export async function readOpenApi(file: string): Promise<OpenApiSource> {
  const bytes = readFileSync(file);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  let document: unknown;
  let dangling: ConversionWarning[] = [];
  try {
    document = await bundle(file, {
      resolve: { http: false, external: true },
      continueOnError: true,
    });
  } catch (error) {
    // A `$ref` to nothing in the document is a defect at its place, not the end of the import.
    const read = danglingRead(error);
    if (!read) throw new Error(`${file} could not be read: ${causeOfRead(error)}`);
    ({ document, dangling } = read);
  }
  if (!isObject(document)) throw new Error(`${file} is not an OpenAPI document (not an object)`);
  const swagger = document.swagger;
  if (swagger === "2.0") return converted(file, document, sha256);
  const openapi = document.openapi;
  if (typeof openapi !== "string" || !/^3\.[01]\.\d+/.test(openapi)) {
    const found = typeof swagger === "string" ? `Swagger ${swagger}` : String(openapi);
    throw new Error(
      `${file} is ${found}: only OpenAPI 3.0.x and 3.1.x documents, and Swagger 2.0, are read`,
    );
  }
  return {
    file,
    document,
    openapi,
    format: `OpenAPI ${openapi}`,
    major: openapi.startsWith("3.0") ? "3.0" : "3.1",
    sha256,
    ...(dangling.length > 0 ? { danglingReferences: dangling } : {}),
    mistyped: withoutMistyped(document),
  };
}

interface ParserError {
  readonly code?: string;
  readonly path?: readonly (string | number)[] | null;
  readonly message: string;
}

/** The first error of a bundle that failed, in one sentence. */
function causeOfRead(error: unknown): string {
  const errors = (error as { errors?: readonly ParserError[] }).errors;
  return errors?.[0]?.message ?? (error as Error).message;
}

/**
 * Where a parser's path (which runs through the `$ref`s it followed) ends in `document`: the
 * object holding the last token, the token, and the place's own JSON Pointer.
 */
function placeOf(
  document: Json,
  path: readonly (string | number)[],
): { parent: Record<string | number, unknown>; key: string | number; pointer: string } | undefined {
  let node: unknown = document;
  let pointer = "#";
  for (const [i, token] of path.entries()) {
    // A reference on the way is followed, and the place is then where it points.
    for (let hops = 0; isObject(node) && typeof node.$ref === "string" && hops < 32; hops++) {
      if (!node.$ref.startsWith("#/")) return undefined;
      pointer = node.$ref;
      node = at(document, node.$ref);
    }
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    if (i === path.length - 1)
      return {
        parent: node as Record<string | number, unknown>,
        key: token,
        pointer: child(pointer, token),
      };
    node = (node as Record<string | number, unknown>)[token];
    pointer = child(pointer, token);
  }
  return undefined;
}

/**
 * The document of a bundle whose only errors are `$ref`s to nothing inside it, each such
 * reference replaced by what it sits beside (an empty schema, response or parameter, which
 * the import then reads as it reads any, with a finding), and where each was. Undefined for
 * any other error: a file that does not parse, a reference to a file that is not there.
 */
function danglingRead(
  error: unknown,
): { document: unknown; dangling: ConversionWarning[] } | undefined {
  const group = error as { errors?: readonly ParserError[]; files?: { schema?: unknown } };
  const errors = group.errors ?? [];
  const document = group.files?.schema;
  if (errors.length === 0 || !isObject(document)) return undefined;
  if (!errors.every((e) => e.code === "EMISSINGPOINTER" && Array.isArray(e.path))) return undefined;
  const dangling: ConversionWarning[] = [];
  for (const e of errors) {
    const place = placeOf(document, e.path as (string | number)[]);
    if (!place) return undefined;
    const { parent, key, pointer } = place;
    const node = parent[key];
    if (!isObject(node)) return undefined;
    // The same reference, met again on another way through the document.
    if (typeof node.$ref !== "string") continue;
    const { $ref, ...siblings } = node;
    parent[key] = siblings;
    const beside = Object.keys(siblings);
    dangling.push({
      pointer,
      message: `$ref ${$ref} points to nothing in the document: read as what stands beside it (${beside.length === 0 ? "nothing" : beside.join(", ")})`,
    });
  }
  return { document, dangling };
}

/**
 * A Swagger 2.0 document, as the OpenAPI 3.0 document swagger2openapi makes of it: what it
 * had to mend is patched (`patch`), and what it cannot convert is marked `x-s2o-warning`
 * where it is (`warnOnly`), so the report lists it, rather than stopping the import.
 */
async function converted(file: string, document: Json, sha256: string): Promise<OpenApiSource> {
  let openapi: unknown;
  try {
    ({ openapi } = await swagger2openapi.convertObj(document, {
      patch: true,
      warnOnly: true,
      resolve: false,
    }));
  } catch (error) {
    throw new Error(
      `${file} is Swagger 2.0, and swagger2openapi could not convert it: ${(error as Error).message}`,
    );
  }
  if (!isObject(openapi) || typeof openapi.openapi !== "string")
    throw new Error(`${file} is Swagger 2.0, and swagger2openapi made no OpenAPI document of it`);
  return {
    file,
    document: openapi,
    openapi: openapi.openapi,
    format: `Swagger 2.0, read as the OpenAPI ${openapi.openapi} document swagger2openapi converts it to`,
    convertedFrom: "Swagger 2.0",
    conversionWarnings: takeWarnings(openapi),
    mistyped: withoutMistyped(openapi),
    major: "3.0",
    sha256,
  };
}

const WARNING = "x-s2o-warning";

/**
 * The converter's `x-s2o-warning` marks, taken out of the document: each is a finding of the
 * import at its pointer, not an extension the served document would carry on.
 */
function takeWarnings(document: Json): ConversionWarning[] {
  const warnings: ConversionWarning[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, pointer: string) => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    // An array's entries are its indexes, as a pointer says them (RFC 6901 §4).
    const warning = (node as Json)[WARNING];
    if (warning !== undefined) {
      warnings.push({ pointer, message: String(warning) });
      delete (node as Json)[WARNING];
    }
    for (const [key, value] of Object.entries(node)) visit(value, child(pointer, key));
  };
  visit(document, "#");
  return warnings;
}

/**
 * Follows `$ref`s from `node` (found at `pointer`) to what they point at: a Reference
 * Object's own `summary` and `description` override the target's (OpenAPI 3.1 §4.8.23).
 * `name` is the component the last reference named, if any.
 */
export function follow(
  document: Json,
  node: unknown,
  pointer: string,
): { node: unknown; pointer: string; name?: string } {
  let current = node;
  let where = pointer;
  let name: string | undefined;
  const overrides: Json = {};
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new Error(`${pointer}: a cycle of $refs`);
    const { $ref, summary, description } = current;
    if (typeof summary === "string") overrides.summary ??= summary;
    if (typeof description === "string") overrides.description ??= description;
    const target = at(document, $ref);
    if (target === undefined) throw new Error(`${where}: $ref ${$ref} points at nothing`);
    name = componentOf($ref)?.name ?? name;
    where = $ref;
    current = target;
  }
  if (isObject(current) && Object.keys(overrides).length > 0)
    current = { ...current, ...overrides };
  return { node: current, pointer: where, ...(name ? { name } : {}) };
}
