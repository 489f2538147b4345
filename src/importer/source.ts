/// <reference path="./swagger2openapi.d.ts" />
/**
 * Reading an OpenAPI document (3.0.x or 3.1.x, YAML or JSON, a local file) into one JSON
 * value: `$ref`s to files beside it are bundled in by @apidevtools/json-schema-ref-parser
 * (local files only, never the network), so what follows resolves only `#/…` pointers. A
 * Swagger 2.0 document is read as the OpenAPI 3.0 document swagger2openapi converts it to
 * (the converter APIs.guru publishes its documents with), the network never asked.
 * Also the JSON Pointer helpers (RFC 6901) every finding is located with.
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { bundle } from "@apidevtools/json-schema-ref-parser";
import swagger2openapi from "swagger2openapi";

export type Json = { [key: string]: unknown };

export const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** One reference token of a JSON Pointer, escaped (RFC 6901 §3). */
const escapeToken = (token: string | number) =>
  String(token).replace(/~/g, "~0").replace(/\//g, "~1");

/** `pointer` extended by `tokens`, as a URI fragment (`#/paths/~1items/get`). */
export function child(pointer: string, ...tokens: (string | number)[]): string {
  return `${pointer}${tokens.map((token) => `/${escapeToken(token)}`).join("")}`;
}

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
}

/** A warning swagger2openapi wrote as `x-s2o-warning`, at the converted document's pointer. */
export interface ConversionWarning {
  readonly pointer: string;
  readonly message: string;
}

/** Reads and bundles an OpenAPI document; throws one sentence when it is not one. */
export async function readOpenApi(file: string): Promise<OpenApiSource> {
  const bytes = readFileSync(file);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  let document: unknown;
  try {
    document = await bundle(file, { resolve: { http: false, external: true } });
  } catch (error) {
    throw new Error(`${file} could not be read: ${(error as Error).message}`);
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
  };
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
