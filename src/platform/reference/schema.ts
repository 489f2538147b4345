/**
 * A JSON Schema (2020-12, as OpenAPI 3.1 uses it) written out for people: its type, its
 * members one per line with whether each is required, its constraints, and a link for
 * each `$ref` to the schema it names (so a recursive schema is never expanded twice).
 * Deep nesting is cut at a fixed depth with a link to the whole document.
 */
import { html, joinHtml, type SafeHtml } from "../html";

export type Json = Readonly<Record<string, unknown>>;

const COMPONENT = "#/components/schemas/";
const MAX_DEPTH = 5;
const NOTHING = html``;

/** The anchor of a component schema on the page. */
export function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A value as JSON, for constants, defaults and enums. */
const literal = (value: unknown) => html`<code>${JSON.stringify(value) ?? "undefined"}</code>`;

/** The constraints of a schema, as words (JSON Schema Validation §6). */
function constraints(schema: Json): SafeHtml[] {
  const words: SafeHtml[] = [];
  const said = (keyword: string, text: string) => {
    const value = schema[keyword];
    if (typeof value === "number" || typeof value === "string" || typeof value === "boolean")
      words.push(html`${text} ${literal(value)}`);
  };
  said("format", "format");
  said("minimum", "≥");
  said("exclusiveMinimum", ">");
  said("maximum", "≤");
  said("exclusiveMaximum", "<");
  said("minLength", "length ≥");
  said("maxLength", "length ≤");
  said("minItems", "items ≥");
  said("maxItems", "items ≤");
  said("pattern", "pattern");
  said("multipleOf", "multiple of");
  said("default", "default");
  if (schema.uniqueItems === true) words.push(html`unique items`);
  if (schema.readOnly === true) words.push(html`read-only (answers only)`);
  if (schema.writeOnly === true) words.push(html`write-only (requests only)`);
  if (schema.deprecated === true) words.push(html`deprecated`);
  if ("const" in schema) words.push(html`always ${literal(schema.const)}`);
  if (Array.isArray(schema.enum))
    words.push(html`one of ${joinHtml(schema.enum.map(literal), ", ")}`);
  return words;
}

/** The type of a schema, in a word or a few: `string`, `array of X`, a link to a component. */
function typeOf(schema: Json, depth: number): SafeHtml {
  const ref = schema.$ref;
  if (typeof ref === "string") {
    if (!ref.startsWith(COMPONENT)) return html`<code>${ref}</code>`;
    const name = ref.slice(COMPONENT.length);
    return html`<a href="#${schemaAnchor(name)}"><code>${name}</code></a>`;
  }
  const type = schema.type;
  if (type === "array") {
    const items = isObject(schema.items) ? schema.items : {};
    return html`array of ${typeOf(items, depth + 1)}`;
  }
  if (Array.isArray(type)) return html`${type.map(String).join(" or ")}`;
  if (typeof type === "string") return html`${type}`;
  for (const keyword of ["anyOf", "oneOf", "allOf"] as const)
    if (Array.isArray(schema[keyword])) {
      const word = keyword === "allOf" ? "all of" : keyword === "anyOf" ? "any of" : "one of";
      return html`${word}`;
    }
  if (isObject(schema.properties)) return html`object`;
  return html`any value`;
}

/** What a schema is, with its description, constraints and, for objects, each member. */
export function schemaView(schema: unknown, depth = 0): SafeHtml {
  if (!isObject(schema)) return html`any value`;
  const parts: SafeHtml[] = [html`<span class="type">${typeOf(schema, depth)}</span>`];
  const said = constraints(schema);
  if (said.length > 0)
    parts.push(html` <span class="constraints">(${joinHtml(said, "; ")})</span>`);
  if (typeof schema.description === "string" && depth > 0)
    parts.push(html` <span class="description">${schema.description}</span>`);
  if (depth >= MAX_DEPTH) return joinHtml(parts, "");
  parts.push(members(schema, depth), alternatives(schema, depth));
  if (schema.type === "array" && isObject(schema.items) && !("$ref" in schema.items))
    parts.push(nested(schema.items, depth));
  return joinHtml(parts, "");
}

/** The members of an object schema, one per line, required ones marked. */
function members(schema: Json, depth: number): SafeHtml {
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const rows = properties.map(
    ([name, member]) =>
      html`<li><code>${name}</code>${required.has(name) ? html` <span class="required">required</span>` : NOTHING}: ${schemaView(member, depth + 1)}</li>`,
  );
  const extra = schema.additionalProperties;
  if (isObject(extra))
    rows.push(html`<li><em>any other name</em>: ${schemaView(extra, depth + 1)}</li>`);
  return rows.length === 0 ? NOTHING : html`<ul class="members">${joinHtml(rows, "")}</ul>`;
}

/** anyOf / oneOf / allOf: each alternative on its line. */
function alternatives(schema: Json, depth: number): SafeHtml {
  const keyword = (["anyOf", "oneOf", "allOf"] as const).find((k) => Array.isArray(schema[k]));
  if (!keyword) return NOTHING;
  const options = schema[keyword] as unknown[];
  return html`<ul class="members">${joinHtml(
    options.map((option) => html`<li>${schemaView(option, depth + 1)}</li>`),
    "",
  )}</ul>`;
}

/** An array's items, when they are an object written in place. */
function nested(items: Json, depth: number): SafeHtml {
  const inner = joinHtml([members(items, depth), alternatives(items, depth)], "");
  return inner;
}
