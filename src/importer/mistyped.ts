/**
 * A document's fields of the wrong type, taken out before anything reads it: a `null`, or a
 * value of another type, where the OpenAPI Specification (3.0 and 3.1) or JSON Schema wants a
 * string, a number, a boolean, an object or an array (`description: null`, `title: 3`,
 * `required: null`, `tags: "pets"`, a path item's `get: null`): generators write them, and
 * read as they are they reach the served document and the generated code, where a type
 * check refuses them. Each is taken out and said at its pointer; what stands beside it is
 * read as if it had never been there. The document's data (`example`, `default`, `const`,
 * an enum's values, an Example Object's `value`) and vendor extensions are never looked at.
 */
import { child, isObject, type Json } from "./pointer";

export interface Mistyped {
  /** `changed` where a number or boolean was read as its text, `lost` where it was taken out. */
  readonly kind: "lost" | "changed";
  readonly pointer: string;
  readonly message: string;
}

type Kind = "string" | "number" | "boolean" | "object" | "array";

const KINDS: Readonly<Record<string, readonly Kind[]>> = {};
const kinds = (list: readonly Kind[], keys: string) => {
  for (const key of keys.split(" ")) (KINDS as Record<string, readonly Kind[]>)[key] = list;
};
kinds(
  ["string"],
  "description summary title name in style operationId format pattern $ref url version openapi termsOfService email bearerFormat scheme openIdConnectUrl authorizationUrl tokenUrl refreshUrl contentType operationRef $comment $id $schema propertyName namespace prefix identifier jsonSchemaDialect $anchor $dynamicRef $dynamicAnchor contentEncoding contentMediaType",
);
kinds(
  ["boolean"],
  "deprecated nullable readOnly writeOnly allowEmptyValue allowReserved explode uniqueItems attribute wrapped",
);
kinds(
  ["number"],
  "maxLength minLength maxItems minItems maxProperties minProperties multipleOf maximum minimum minContains maxContains",
);
kinds(["number", "boolean"], "exclusiveMaximum exclusiveMinimum");
kinds(["string", "array"], "type");
kinds(["array", "boolean"], "required");
kinds(["array"], "allOf anyOf oneOf parameters servers security prefixItems tags");
kinds(
  ["object"],
  "info contact license externalDocs components schema discriminator xml requestBody flows implicit password clientCredentials authorizationCode get put post delete options head patch trace",
);
kinds(
  ["object", "boolean"],
  "additionalProperties unevaluatedProperties unevaluatedItems items not contains propertyNames if then else",
);

/** Fields whose value is a map from names the document chooses to objects of the next kind (a Link Object's `links` map is data below). */
const MAPS = new Set(
  "paths webhooks properties patternProperties $defs definitions dependentSchemas responses callbacks headers content encoding variables schemas requestBodies securitySchemes pathItems parameters examples".split(
    " ",
  ),
);
/** Maps whose entries are schemas, which JSON Schema lets be `true` or `false`. */
const SCHEMA_MAPS = new Set(
  "properties patternProperties $defs definitions dependentSchemas schemas".split(" "),
);
/** Lists whose entries are schemas. */
const SCHEMA_LISTS = new Set("allOf anyOf oneOf prefixItems".split(" "));

/** Fields holding the document's data, or names mapped to text: never looked into. */
const DATA = new Set(
  // A Link Object's `parameters` and `requestBody` are expressions or any value: not looked into.
  "example examples default const enum value scopes mapping dependentRequired links".split(" "),
);

const kindOf = (value: unknown): Kind | "null" =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "object"
        ? "object"
        : (typeof value as Kind);

const said = (value: unknown): string => {
  const kind = kindOf(value);
  return kind === "null"
    ? "null"
    : kind === "array" || kind === "object"
      ? `an ${kind}`
      : `a ${kind}`;
};

/** Takes out of `document` (in place) every field of the wrong type, and says where each was. */
export function withoutMistyped(document: Json): Mistyped[] {
  const found: Mistyped[] = [];
  const seen = new Set<unknown>();
  const visit = (node: Json, pointer: string, inComponents: boolean): void => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) continue;
      const at = child(pointer, key);
      // `parameters` is a list in paths and a map in components; `examples` a map of
      // Example Objects in a media type, a list of values in a 3.1 schema.
      const mapHere =
        MAPS.has(key) &&
        isObject(value) &&
        (key !== "parameters" || inComponents) &&
        (key !== "examples" || !Array.isArray(value));
      if (mapHere) {
        for (const [name, entry] of Object.entries(value)) {
          // An extension among a map's entries (`paths: { x-…: … }`) is the document's own.
          if (name.startsWith("x-") && key !== "properties" && key !== "schemas") continue;
          if (isObject(entry)) visit(entry, child(at, name), false);
          else if (key !== "examples" && !(SCHEMA_MAPS.has(key) && typeof entry === "boolean")) {
            found.push({
              kind: "lost",
              pointer: child(at, name),
              message: `${said(entry)} where an object belongs: left out`,
            });
            delete (value as Record<string, unknown>)[name];
          }
        }
        continue;
      }
      if (DATA.has(key)) {
        if (key === "examples" && isObject(value))
          for (const [name, entry] of Object.entries(value))
            if (isObject(entry)) visit(entry, child(at, name), false);
        continue;
      }
      const wanted = KINDS[key];
      const kind = kindOf(value);
      // `version: 1.0` in YAML is a number: its text is what is meant.
      if (
        wanted?.length === 1 &&
        wanted[0] === "string" &&
        (kind === "number" || kind === "boolean")
      ) {
        (node as Record<string, unknown>)[key] = String(value);
        found.push({
          kind: "changed",
          pointer: at,
          message: `${key} is ${said(value)} where OpenAPI wants a string: read as its text, ${JSON.stringify(String(value))}`,
        });
        continue;
      }
      if (wanted && !wanted.includes(kind as Kind)) {
        found.push({
          kind: "lost",
          pointer: at,
          message: `${key} is ${said(value)} where OpenAPI wants ${wanted.map((k) => (k === "array" || k === "object" ? `an ${k}` : `a ${k}`)).join(" or ")}: left out, as if not written`,
        });
        delete (node as Record<string, unknown>)[key];
        continue;
      }
      if (Array.isArray(value)) {
        // A list of names (`required`, an operation's `tags`) holds strings only; a list of
        // objects (parameters, servers, root tags, allOf …) objects only.
        const names = key === "required" || (key === "tags" && pointer !== "#");
        for (let i = value.length - 1; i >= 0; i--) {
          const entry = value[i];
          const fits = names
            ? typeof entry === "string"
            : isObject(entry) || (SCHEMA_LISTS.has(key) && typeof entry === "boolean");
          if (key === "type" ? typeof entry === "string" : fits) continue;
          found.push({
            kind: "lost",
            pointer: child(at, i),
            message: `${said(entry)} in ${key}, where ${names || key === "type" ? "a string" : "an object"} belongs: left out`,
          });
          value.splice(i, 1);
        }
        // A security requirement maps scheme names to scopes: names, no fields.
        if (key !== "security")
          for (const [i, entry] of value.entries())
            if (isObject(entry)) visit(entry, child(at, i), false);
        continue;
      }
      if (isObject(value)) visit(value, at, key === "components");
    }
  };
  visit(document, "#", false);
  return found;
}
