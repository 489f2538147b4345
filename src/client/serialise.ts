/**
 * Writing parameters as OpenAPI 3.1 §4.8.12.4 (Style Values) serialises them, by the
 * `style` and `explode` a member's metadata declares (src/contract-language/parameters.ts)
 * or OpenAPI's defaults for its location: the inverse of the engine's reading
 * (src/engine/request/parameters.ts), which a test holds it to. What kind a value is
 * (primitive, array, object) is read from the value itself.
 *
 * Where RFC 6570's delimiters are used (`,` `.` `;` `=`), each value is percent-encoded
 * and the delimiters are not, so a value may hold one (RFC 6570 §3.2.1). `spaceDelimited`
 * and `pipeDelimited` delimiters are encoded too (OpenAPI 3.1.2 Appendix E). Header values
 * are not percent-encoded; a cookie's whole value is (RFC 6265 §4.1.1: commas are no
 * cookie-octets).
 */
import { type $ZodType, globalRegistry } from "zod/v4/core";
import { defOf, innerOf } from "../contract-language/zod-def";

type Location = "path" | "query" | "header" | "cookie";

/** OpenAPI's default style of each location (§4.8.12.4's table). */
const DEFAULT_STYLE: Readonly<Record<Location, string>> = {
  path: "simple",
  query: "form",
  header: "simple",
  cookie: "form",
};

/** The members of an object schema, through its wrappers; none for any other. */
export function membersOf(schema: unknown): Readonly<Record<string, unknown>> {
  let node = schema as $ZodType | undefined;
  for (let depth = 0; node?._zod !== undefined && depth < 32; depth++) {
    const def = defOf(node);
    if (def.type === "object") return def.shape ?? {};
    node = innerOf(node);
  }
  return {};
}

/** The style and explode a member declares, through zod's wrappers; OpenAPI's defaults otherwise. */
function serialisationOf(
  location: Location,
  member: unknown,
): { readonly style: string; readonly explode: boolean } {
  let style: string | undefined;
  let explode: boolean | undefined;
  let node = member as $ZodType | undefined;
  for (let depth = 0; node?._zod !== undefined && depth < 32; depth++) {
    const meta = globalRegistry.get(node as never) as
      | { style?: string; explode?: boolean }
      | undefined;
    style ??= meta?.style;
    explode ??= meta?.explode;
    node = innerOf(node);
  }
  const chosen = style ?? DEFAULT_STYLE[location];
  return { style: chosen, explode: explode ?? chosen === "form" };
}

/** A primitive as text: a string as it is, a date in ISO 8601, anything else as `String` writes it. */
function text(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

type Shaped =
  | { readonly kind: "primitive"; readonly value: string }
  | { readonly kind: "array"; readonly items: readonly string[] }
  | { readonly kind: "object"; readonly pairs: readonly (readonly [string, string])[] };

function shaped(value: unknown): Shaped {
  if (Array.isArray(value)) return { kind: "array", items: value.map(text) };
  if (value !== null && typeof value === "object" && !(value instanceof Date))
    return {
      kind: "object",
      pairs: Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, text(v)]),
    };
  return { kind: "primitive", value: text(value) };
}

const enc = (text: string): string => encodeURIComponent(text);
const asIs = (text: string): string => text;

/** RFC 6570's value of a list or an object: items (or key, value…) joined, each encoded. */
function joined(value: Shaped, explode: boolean, separator: string, encode = enc): string {
  if (value.kind === "primitive") return encode(value.value);
  if (value.kind === "array") return value.items.map(encode).join(separator);
  return explode
    ? value.pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join(separator)
    : value.pairs.flatMap(([k, v]) => [encode(k), encode(v)]).join(separator);
}

/** A path parameter's text, in its style: `simple`, `label` (`.`) or `matrix` (`;name=`). */
export function pathText(name: string, member: unknown, value: unknown): string {
  const { style, explode } = serialisationOf("path", member);
  const shape = shaped(value);
  if (style === "label") return `.${joined(shape, explode, explode ? "." : ",")}`;
  if (style === "matrix") {
    if (explode && shape.kind === "array")
      return shape.items.map((item) => `;${enc(name)}=${enc(item)}`).join("");
    if (explode && shape.kind === "object") return `;${joined(shape, true, ";")}`;
    return `;${enc(name)}=${joined(shape, false, ",")}`;
  }
  return joined(shape, explode, ",");
}

/** A query parameter's `name=value` pieces, in its style. */
export function queryPieces(name: string, member: unknown, value: unknown): string[] {
  const { style, explode } = serialisationOf("query", member);
  const shape = shaped(value);
  const key = enc(name);
  if (shape.kind === "array" && shape.items.length === 0) return [];
  if (style === "deepObject" && shape.kind === "object")
    return shape.pairs.map(([k, v]) => `${enc(`${name}[${k}]`)}=${enc(v)}`);
  if (style === "spaceDelimited" || style === "pipeDelimited") {
    // Appendix E: the delimiter itself is encoded, so the engine decodes, then splits.
    const separator = style === "spaceDelimited" ? "%20" : "%7C";
    return [`${key}=${joined(shape, false, separator)}`];
  }
  if (explode && shape.kind === "array") return shape.items.map((item) => `${key}=${enc(item)}`);
  if (explode && shape.kind === "object") return [joined(shape, true, "&")];
  return [`${key}=${joined(shape, false, ",")}`];
}

/** A header field's value: `simple`, never percent-encoded (OpenAPI 3.1.2, Parameter Object). */
export function headerText(member: unknown, value: unknown): string {
  const { explode } = serialisationOf("header", member);
  return joined(shaped(value), explode, ",", asIs);
}

/** A cookie's `name=value`: the value joined as `form` says, then encoded whole. */
export function cookiePair(name: string, member: unknown, value: unknown): string {
  const { explode } = serialisationOf("cookie", member);
  return `${name}=${enc(joined(shaped(value), explode, ",", asIs))}`;
}
