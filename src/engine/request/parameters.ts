/**
 * Reading parameters as OpenAPI 3.1 §4.8.12.4 serialises them: each member of a `params`,
 * `query`, `headers` or `cookies` schema is read by the `style` and `explode` its metadata
 * declares (src/contract-language/parameters.ts), or OpenAPI's defaults, and by its kind
 * (primitive, array or object, from its schema), into what its schema then validates: a
 * string, an array of strings or an object of strings. Text not written as its style says
 * never reaches the schema: it is refused at its member's pointer, never quoted. What is
 * decided where the standards leave room (RFC 6570, RFC 3986, RFC 9110 §5.6.1, RFC 6265
 * §4.1.1, OpenAPI 3.1.2 Appendices D and E): src/engine/operations/README.md, "Parameters".
 */
import { tryDecodeURIComponent } from "hono/utils/url";
import { globalRegistry } from "zod/v4/core";
import type { Schema } from "../../contract-language/contract";
import {
  PARAMETER_STYLES,
  type ParameterLocation,
  type ParameterSerialisation,
  type ParameterStyle,
} from "../../contract-language/parameters";
import { defOf, unwrap, WRAPPERS } from "../../contract-language/zod-def";
import { isList, objectShape } from "../zod/shape";

/** What a member's values are: OpenAPI's `primitive`, `array` or `object`. */
type ValueKind = "primitive" | "array" | "object";

/** How one member is read. */
interface Member {
  readonly name: string;
  readonly kind: ValueKind;
  readonly style: ParameterStyle;
  readonly explode: boolean;
  /** A query object in style form, exploded: the names it takes (its declared members). */
  readonly properties: readonly string[];
  /** …and whether it also takes every name no other member takes (a record, a loose object). */
  readonly open: boolean;
}

/** How the members of one location's schema are read, decided when the operation is planned. */
export interface ParameterPlan {
  readonly location: ParameterLocation;
  /** Every member's name. */
  readonly declared: readonly string[];
  /** Members whose reading differs from taking the text as it comes. */
  readonly members: readonly Member[];
}

/** What was read: the value for the schema, and the members that were not well written. */
export interface ReadParameters {
  readonly value: Record<string, unknown>;
  /** Member name to what its style expects. */
  readonly malformed: ReadonlyMap<string, string>;
}

/**
 * The serialisation a member's metadata declares: the outermost declaration of each field,
 * through zod's wrappers (optional, default, a pipe such as `numberFromText`), so
 * `z.optional(z.array(…).check(z.meta({ style })))` is read as it is written.
 */
export function declaredSerialisation(schema: Schema): ParameterSerialisation {
  const found: { style?: ParameterStyle; explode?: boolean; allowReserved?: boolean } = {};
  let node: Schema | undefined = schema;
  for (let depth = 0; node !== undefined && depth < 32; depth++) {
    const meta = globalRegistry.get(node);
    if (meta?.style !== undefined) found.style ??= meta.style;
    if (meta?.explode !== undefined) found.explode ??= meta.explode;
    if (meta?.allowReserved !== undefined) found.allowReserved ??= meta.allowReserved;
    const def = defOf(node);
    if (WRAPPERS.has(def.type)) node = def.innerType as Schema;
    else if (def.type === "pipe") {
      const input = def.in as Schema;
      node = (defOf(input).type === "transform" ? def.out : input) as Schema;
    } else if (def.type === "lazy") node = (def.getter as () => Schema)();
    else node = undefined;
  }
  return found;
}

/** The style and explode a member is read with: its own, or OpenAPI's defaults for its place. */
function serialisationOf(
  location: ParameterLocation,
  schema: Schema,
): { readonly style: ParameterStyle; readonly explode: boolean } {
  const declared = declaredSerialisation(schema);
  const style = declared.style ?? (PARAMETER_STYLES[location][0] as ParameterStyle);
  return { style, explode: declared.explode ?? style === "form" };
}

/** Whether a schema's values are arrays, objects, or neither (OpenAPI's primitives). */
export function valueKind(schema: Schema): ValueKind {
  if (isList(schema)) return "array";
  const def = defOf(unwrap(schema));
  if (def.type === "object" || def.type === "record") return "object";
  if (def.type === "intersection")
    return valueKind(def.left as Schema) === "object" ? "object" : "primitive";
  if (def.type === "union")
    return (def.options as Schema[]).some((option) => valueKind(option) === "object")
      ? "object"
      : "primitive";
  return "primitive";
}

/** Whether an object schema takes members it does not declare (a record, a loose object, a catchall). */
function isOpen(schema: Schema): boolean {
  const def = defOf(unwrap(schema));
  if (def.type === "record") return true;
  const catchall = def.catchall as Schema | undefined;
  return def.type === "object" && catchall !== undefined && defOf(catchall).type !== "never";
}

/** Plans the reading of one location's members; undefined when the location declares no schema. */
export function planParameters(
  location: ParameterLocation,
  schema: Schema | undefined,
): ParameterPlan | undefined {
  if (!schema) return undefined;
  const members: Member[] = [];
  const shape = objectShape(schema) ?? {};
  for (const [name, member] of Object.entries(shape)) {
    const { style, explode } = serialisationOf(location, member);
    const kind = valueKind(member);
    // A primitive in its location's default style is taken as it comes, as ever.
    if (kind === "primitive" && style === PARAMETER_STYLES[location][0]) continue;
    members.push({
      name,
      kind,
      style,
      explode,
      properties: kind === "object" ? Object.keys(objectShape(member) ?? {}) : [],
      open: kind === "object" && isOpen(member),
    });
  }
  return { location, declared: Object.keys(shape), members };
}

// ---- Text ----

/** `application/x-www-form-urlencoded` decoding (a `+` is a space), as the URL Standard does it. */
function formDecode(text: string): string {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Bytes that are not UTF-8, or a `%` that starts no escape: as the URL Standard reads them.
    return new URLSearchParams(`v=${text.replaceAll("&", "%26")}`).get("v") ?? spaced;
  }
}

/** Key, value, key, value… as an object; undefined when a key has no value. */
function alternating(items: readonly string[]): [string, string][] | undefined {
  if (items.length % 2 !== 0) return undefined;
  const pairs: [string, string][] = [];
  for (let i = 0; i < items.length; i += 2)
    pairs.push([items[i] as string, items[i + 1] as string]);
  return pairs;
}

/** `key=value` pieces as pairs (a piece without `=` has the empty value, RFC 6570 §3.2.7). */
function assigned(pieces: readonly string[], decode: (text: string) => string): [string, string][] {
  return pieces.map((piece) => {
    const at = piece.indexOf("=");
    return at === -1
      ? [decode(piece), ""]
      : [decode(piece.slice(0, at)), decode(piece.slice(at + 1))];
  });
}

/** The values of each name, in the order given; the names in `hidden` (credentials) left out. */
function groupByName<T>(
  entries: Iterable<readonly [string, T]>,
  hidden: ReadonlySet<string> = NO_NAMES,
): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const [name, value] of entries) {
    if (hidden.has(name)) continue;
    const values = grouped.get(name);
    if (values) values.push(value);
    else grouped.set(name, [value]);
  }
  return grouped;
}

/**
 * Named fields (a query, a form, pairs of a deepObject or exploded object) as an object of
 * own properties: one value a string (or a `File`), a repeated name an array, and a name the
 * schema declares as an array (`lists`) always an array, so `?tag=a` and `?tag=a&tag=b` read
 * alike. Names in `hidden` (credentials) are left out. `fromEntries` defines own properties,
 * so a field named __proto__ stays a plain field.
 */
export function fieldsOf<T>(
  entries: Iterable<readonly [string, T]>,
  lists: ReadonlySet<string> = NO_NAMES,
  hidden: ReadonlySet<string> = NO_NAMES,
): Record<string, T | T[]> {
  return Object.fromEntries(
    [...groupByName(entries, hidden)].map(([name, values]) => [
      name,
      values.length === 1 && !lists.has(name) ? (values[0] as T) : values,
    ]),
  );
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** What a style expects of a member, said with placeholders (OpenAPI 3.1 §4.8.12.4, Style Examples). */
function expectedShape(member: Pick<Member, "name" | "kind" | "style" | "explode">): string {
  const { name, kind, style, explode } = member;
  const list = kind === "array" ? ["a", "b"] : ["k", "v", "k2", "v2"];
  const pairs = ["k=v", "k2=v2"];
  const value = (separator: string) =>
    kind === "primitive"
      ? "value"
      : kind === "object" && explode
        ? pairs.join(separator)
        : list.join(separator);
  switch (style) {
    case "matrix":
      if (!explode || kind === "primitive") return `;${name}=${value(",")}`;
      return kind === "array" ? `;${name}=a;${name}=b` : `;${pairs.join(";")}`;
    case "label":
      return `.${value(explode ? "." : ",")}`;
    case "simple":
      return value(",");
    case "form":
      if (!explode || kind === "primitive") return `${name}=${value(",")}`;
      return kind === "array" ? `${name}=a&${name}=b` : pairs.join("&");
    case "spaceDelimited":
      return `${name}=${kind === "primitive" ? "value" : list.join("%20")}`;
    case "pipeDelimited":
      return `${name}=${kind === "primitive" ? "value" : list.join("|")}`;
    case "deepObject":
      return `${name}[k]=v&${name}[k2]=v2`;
  }
}

const malformedDetail = (member: Member) =>
  `Must be serialised in style ${member.style}, explode ${member.explode} (OpenAPI 3.1 §4.8.12.4), as in ${JSON.stringify(expectedShape(member))}.`;

/** Items of a list (`a,b`), split, then each decoded; the empty text is the empty list. */
const items = (text: string, separator: string | RegExp, decode: (t: string) => string) =>
  text === "" ? [] : text.split(separator).map(decode);

/**
 * One RFC 6570 value (simple, label, matrix's value, form explode false, a cookie), from
 * its text after any prefix: split at `separator` before `decode`.
 */
function delimited(
  member: Member,
  text: string,
  separator: string | RegExp,
  decode: (t: string) => string,
): unknown {
  if (member.kind === "primitive") return decode(text);
  if (member.kind === "array") return items(text, separator, decode);
  const pieces = text === "" ? [] : text.split(separator);
  const pairs = member.explode ? assigned(pieces, decode) : alternating(pieces.map(decode));
  return pairs === undefined ? MALFORMED : fieldsOf(pairs);
}

/** A member whose text is not its style's. */
const MALFORMED = Symbol("malformed");
const NONE: ReadonlyMap<string, string> = new Map();

// ---- Path ----

function pathValue(member: Member, raw: string): unknown {
  const decode = tryDecodeURIComponent;
  switch (member.style) {
    case "label": {
      if (!raw.startsWith(".")) return MALFORMED;
      return delimited(member, raw.slice(1), member.explode ? "." : ",", decode);
    }
    case "matrix": {
      if (!raw.startsWith(";")) return MALFORMED;
      const pieces = assigned(raw.slice(1).split(";"), (t) => t);
      const own = pieces.every(([key]) => decode(key) === member.name);
      if (member.explode && member.kind === "object")
        return fieldsOf(pieces.map(([k, v]) => [decode(k), decode(v)]));
      if (!own) return MALFORMED;
      if (member.explode && member.kind === "array") return pieces.map(([, v]) => decode(v));
      if (pieces.length !== 1) return MALFORMED;
      return delimited(member, pieces[0]?.[1] ?? "", ",", decode);
    }
    default:
      return delimited(member, raw, ",", decode);
  }
}

// ---- Query ----

/** The query's name=value pairs, names decoded, values as they came (split before decoding). */
function queryPairs(search: string, hidden: ReadonlySet<string>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const piece of search.split("&")) {
    if (piece === "") continue;
    const at = piece.indexOf("=");
    const name = formDecode(at === -1 ? piece : piece.slice(0, at));
    if (hidden.has(name)) continue;
    pairs.push([name, at === -1 ? "" : piece.slice(at + 1)]);
  }
  return pairs;
}

const DELIMITER: Readonly<Record<string, RegExp>> = { spaceDelimited: / /, pipeDelimited: /\|/ };

function queryValue(member: Member, raws: readonly string[]): unknown {
  const { kind, style, explode } = member;
  const separator = DELIMITER[style];
  if (kind === "primitive") {
    const values = raws.map(formDecode);
    return values.length === 1 ? values[0] : values;
  }
  if (separator) {
    // Decoded first: the delimiter itself must be encoded (OpenAPI 3.1.2 Appendix E).
    const decoded = raws.map(formDecode);
    if (kind === "array") return decoded.flatMap((text) => items(text, separator, (t) => t));
    if (decoded.length !== 1) return MALFORMED;
    const pairs = alternating(items(decoded[0] as string, separator, (t) => t));
    return pairs === undefined ? MALFORMED : fieldsOf(pairs);
  }
  // form
  if (kind === "array")
    return explode ? raws.map(formDecode) : raws.flatMap((raw) => items(raw, ",", formDecode));
  if (raws.length !== 1) return MALFORMED;
  return delimited(member, raws[0] as string, ",", formDecode);
}

/** A deepObject's members: `name[key]=value` (OpenAPI 3.1 §4.8.12.4), names decoded. */
function deepObjectValue(
  member: Member,
  grouped: Map<string, string[]>,
  taken: Set<string>,
): unknown {
  const prefix = `${member.name}[`;
  const pairs: [string, string][] = [];
  // The name alone (`color=…`) is no deepObject's.
  let malformed = grouped.has(member.name);
  taken.add(member.name);
  for (const [name, raws] of grouped) {
    if (!name.startsWith(prefix)) continue;
    taken.add(name);
    const key = name.slice(prefix.length, -1);
    if (!name.endsWith("]") || /[[\]]/.test(key)) malformed = true;
    for (const raw of raws) pairs.push([key, formDecode(raw)]);
  }
  if (malformed) return MALFORMED;
  return pairs.length === 0 ? undefined : fieldsOf(pairs);
}

/** The query, each declared member read by its style; other names as they come. */
function readQuery(
  plan: ParameterPlan,
  search: string,
  hidden: ReadonlySet<string>,
): ReadParameters {
  const grouped = groupByName(queryPairs(search, hidden));
  const value: Record<string, unknown> = {};
  const malformed = new Map<string, string>();
  /** Names a member was read from. */
  const taken = new Set<string>();
  const set = (member: Member, read: unknown) => {
    if (read === MALFORMED) malformed.set(member.name, malformedDetail(member));
    else if (read !== undefined) Object.defineProperty(value, member.name, OWN(read));
  };
  const spread: Member[] = [];
  for (const member of plan.members) {
    if (member.style === "deepObject") set(member, deepObjectValue(member, grouped, taken));
    else if (member.kind === "object" && member.style === "form" && member.explode)
      spread.push(member);
    else {
      const raws = grouped.get(member.name);
      taken.add(member.name);
      if (raws) set(member, queryValue(member, raws));
    }
  }
  // Form, exploded: an object's members are names of the query (`R=100&G=200`); an open
  // object (a record) also takes every name no member declares.
  const declared = new Set([...plan.declared, ...spread.flatMap((m) => m.properties)]);
  for (const member of spread) {
    const names = [...grouped.keys()].filter(
      (name) =>
        !taken.has(name) &&
        (member.properties.includes(name) || (member.open && !declared.has(name))),
    );
    const pairs = names.flatMap((name) => {
      taken.add(name);
      return (grouped.get(name) ?? []).map((raw): [string, string] => [name, formDecode(raw)]);
    });
    if (pairs.length > 0) set(member, fieldsOf(pairs));
  }
  for (const [name, raws] of grouped) {
    if (taken.has(name)) continue;
    const values = raws.map(formDecode);
    Object.defineProperty(value, name, OWN(values.length === 1 ? values[0] : values));
  }
  return { value, malformed };
}

/** An own, enumerable, writable property: a name such as `__proto__` stays a plain member. */
const OWN = (value: unknown): PropertyDescriptor => ({
  value,
  enumerable: true,
  writable: true,
  configurable: true,
});

// ---- Path, headers, cookies: one value per name ----

/**
 * Path parameters (their text as the request's path has it, percent-escapes of reserved
 * characters kept), header fields (by lower-case name) or cookies (decoded), each declared
 * member read by its style.
 */
function readValues(plan: ParameterPlan, texts: Readonly<Record<string, string>>): ReadParameters {
  if (plan.members.length === 0 && plan.location !== "path")
    return { value: texts as Record<string, unknown>, malformed: NONE };
  const value: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(texts)) Object.defineProperty(value, name, OWN(text));
  const malformed = new Map<string, string>();
  for (const member of plan.members) {
    const text = Object.hasOwn(texts, member.name) ? texts[member.name] : undefined;
    if (text === undefined) continue;
    const read =
      plan.location === "path"
        ? pathValue(member, text)
        : plan.location === "header"
          ? // A header's list: commas with optional whitespace around them (RFC 9110 §5.6.1).
            delimited(member, text.trim(), /[ \t]*,[ \t]*/, (t) => t)
          : delimited(member, text, ",", (t) => t);
    if (read === MALFORMED) {
      malformed.set(member.name, malformedDetail(member));
      delete value[member.name];
    } else value[member.name] = read;
  }
  // A path parameter in the default style, primitive: decoded whole, as the router would.
  if (plan.location === "path")
    for (const name of Object.keys(texts))
      if (!plan.members.some((m) => m.name === name))
        value[name] = tryDecodeURIComponent(texts[name] as string);
  return { value, malformed };
}

/**
 * The Cookie header's pairs (RFC 6265 §4.2.1, `; `-separated), each value unquoted and
 * percent-decoded; the first of a name wins, as user agents send the most specific first
 * (RFC 6265 §5.4). Read leniently: a comma, which is no cookie-octet (§4.1.1) but which
 * user agents store and send (§5.2), is kept.
 */
function cookiesOf(header: string | null, hidden: ReadonlySet<string>): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at === -1) continue;
    const name = pair.slice(0, at).trim();
    if (name === "" || hidden.has(name) || Object.hasOwn(cookies, name)) continue;
    let text = pair.slice(at + 1).trim();
    if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
    Object.defineProperty(cookies, name, OWN(tryDecodeURIComponent(text)));
  }
  return cookies;
}

/** The query of a URL, as it was written (RFC 3986 §3.4): after `?`, before any `#`. */
function searchOf(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return "";
  const end = url.indexOf("#", start);
  return url.slice(start + 1, end === -1 ? undefined : end);
}

/** Own properties only, so a key named __proto__ stays a plain key. */
function withoutKeys<T>(
  entries: Iterable<[string, T]>,
  hidden: ReadonlySet<string>,
): Record<string, T> {
  return Object.fromEntries([...entries].filter(([key]) => !hidden.has(key)));
}

/**
 * A request's parameters, each declared location's read by its plan in one pass: the path
 * parameters' text as the path has it (`pathTexts`), the query as written, header fields
 * and cookies, each without the fields that carry credentials (`hidden`), which a handler
 * never receives. A location without a plan (nothing declared there) is not read.
 */
export function readParameters(
  plans: {
    readonly path?: ParameterPlan;
    readonly query?: ParameterPlan;
    readonly header?: ParameterPlan;
    readonly cookie?: ParameterPlan;
  },
  hidden: {
    readonly path?: ReadonlySet<string>;
    readonly header: ReadonlySet<string>;
    readonly query: ReadonlySet<string>;
    readonly cookie: ReadonlySet<string>;
  },
  request: Request,
  pathTexts: () => Record<string, string>,
): { readonly [L in ParameterLocation]?: ReadParameters } {
  const { path, query, header, cookie } = plans;
  return {
    ...(path && {
      path: readValues(
        path,
        hidden.path ? withoutKeys(Object.entries(pathTexts()), hidden.path) : pathTexts(),
      ),
    }),
    ...(query && { query: readQuery(query, searchOf(request.url), hidden.query) }),
    ...(header && { header: readValues(header, withoutKeys(request.headers, hidden.header)) }),
    ...(cookie && {
      cookie: readValues(cookie, cookiesOf(request.headers.get("cookie"), hidden.cookie)),
    }),
  };
}
