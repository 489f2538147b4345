/**
 * What the codec reads of a JSON Schema (OpenAPI 3.1's dialect): each schema's `xml` object
 * (OpenAPI 3.1 §4.8.26), what kind of value it describes (an object, an array, text to be
 * read as a number or a boolean), its members and its items, following `$ref`s (with their
 * siblings, which 3.1 allows) and `allOf`, `anyOf` and `oneOf`.
 */
import { NCNAME } from "./text";

export type Json = Readonly<Record<string, unknown>>;

/** A schema's `xml` object, as the codec applies it. */
export interface XmlInfo {
  readonly name?: string;
  readonly namespace?: string;
  readonly prefix?: string;
  readonly attribute: boolean;
  readonly wrapped: boolean;
  /**
   * The member is the element's own text, not a child element: OpenAPI 3.2's
   * `xml.nodeType: text` (§4.8.26), which a 3.1 document writes as `x-nodeType`.
   */
  readonly text: boolean;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const BRANCHES = ["allOf", "anyOf", "oneOf"] as const;
const NO_XML: XmlInfo = { attribute: false, wrapped: false, text: false };

/** Reads schemas of one document (the schema itself, or the OpenAPI document it sits in). */
export class SchemaReader {
  readonly #document: Json;
  readonly #resolved = new WeakMap<Json, Json>();

  constructor(document: Json) {
    this.#document = document;
  }

  /** The schema a `$ref` points to, with the `$ref`'s siblings over it; `{}` for any value. */
  resolve(schema: unknown): Json {
    if (!isObject(schema)) return {};
    const known = this.#resolved.get(schema);
    if (known) return known;
    let current: Json = schema;
    const siblings: Json[] = [];
    for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops++) {
      const { $ref, ...rest } = current;
      siblings.unshift(rest);
      current = this.#at($ref as string);
    }
    const { $ref: _unresolved, ...target } = current;
    const resolved = Object.assign({}, target, ...siblings) as Json;
    this.#resolved.set(schema, resolved);
    return resolved;
  }

  #at(ref: string): Json {
    if (!ref.startsWith("#")) return {};
    let node: unknown = this.#document;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      node = isObject(node) && Object.hasOwn(node, token) ? node[token] : undefined;
    }
    return isObject(node) ? node : {};
  }

  /** The schema's `xml` object: its own, or the one of the schema it refers to. */
  xml(schema: unknown): XmlInfo {
    const xml = this.resolve(schema).xml;
    if (!isObject(xml)) return NO_XML;
    const text = (key: string) => (typeof xml[key] === "string" ? (xml[key] as string) : undefined);
    const [name, namespace, prefix] = [text("name"), text("namespace"), text("prefix")];
    return {
      ...(name === undefined ? {} : { name }),
      ...(namespace === undefined ? {} : { namespace }),
      ...(prefix === undefined ? {} : { prefix }),
      attribute: xml.attribute === true,
      wrapped: xml.wrapped === true,
      text: xml["x-nodeType"] === "text" || xml.nodeType === "text",
    };
  }

  /** The JSON types a value of the schema may have; empty when it says nothing of them. */
  types(schema: unknown, depth = 0): ReadonlySet<string> {
    const found = new Set<string>();
    const s = this.resolve(schema);
    if (depth > 32) return found;
    if (typeof s.type === "string") found.add(s.type);
    else if (Array.isArray(s.type)) for (const t of s.type) found.add(String(t));
    else {
      const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : [];
      for (const v of values)
        found.add(
          v === null
            ? "null"
            : Array.isArray(v)
              ? "array"
              : typeof v === "number"
                ? "number"
                : typeof v,
        );
      if (isObject(s.properties) || "additionalProperties" in s) found.add("object");
      if ("items" in s || "prefixItems" in s) found.add("array");
    }
    for (const key of BRANCHES)
      if (Array.isArray(s[key]))
        for (const branch of s[key] as unknown[])
          for (const t of this.types(branch, depth + 1)) found.add(t);
    return found;
  }

  /** The members an object of the schema may have, its own first, then its branches'. */
  properties(schema: unknown, depth = 0): ReadonlyMap<string, unknown> {
    const members = new Map<string, unknown>();
    const s = this.resolve(schema);
    if (depth > 32) return members;
    if (isObject(s.properties))
      for (const [key, member] of Object.entries(s.properties)) members.set(key, member);
    for (const key of BRANCHES)
      if (Array.isArray(s[key]))
        for (const branch of s[key] as unknown[])
          for (const [name, member] of this.properties(branch, depth + 1))
            if (!members.has(name)) members.set(name, member);
    return members;
  }

  /** The members the schema (or an `allOf` branch of it) requires. */
  required(schema: unknown, depth = 0): ReadonlySet<string> {
    const s = this.resolve(schema);
    const names = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
    if (depth <= 32 && Array.isArray(s.allOf))
      for (const branch of s.allOf)
        for (const name of this.required(branch, depth + 1)) names.add(name);
    return names;
  }

  /** The schema of an array's items (`{}`, any value, when it says none). */
  items(schema: unknown, depth = 0): unknown {
    const s = this.resolve(schema);
    if (isObject(s.items)) return s.items;
    if (Array.isArray(s.prefixItems) && s.prefixItems.length > 0) return { anyOf: s.prefixItems };
    if (depth <= 32)
      for (const key of BRANCHES)
        if (Array.isArray(s[key]))
          for (const branch of s[key] as unknown[])
            if (this.types(branch).has("array")) return this.items(branch, depth + 1);
    return {};
  }

  /** The schema of members beyond the declared ones, when the schema allows any. */
  additional(schema: unknown): unknown {
    const extra = this.resolve(schema).additionalProperties;
    if (extra === true) return {};
    return isObject(extra) ? extra : undefined;
  }

  /** Whether a value of the schema is written as an array (and not as an object). */
  isArray(schema: unknown): boolean {
    const types = this.types(schema);
    return types.has("array") && !types.has("object");
  }
}

/** A name the codec writes as an element's or an attribute's: it must be an NCName. */
function checkName(name: string, where: string): void {
  if (!NCNAME.test(name))
    throw new Error(
      `${where}: ${JSON.stringify(name)} is not an XML name (Namespaces in XML 1.0 §3): give it an xml.name`,
    );
}

/**
 * Refuses what XML cannot be written by (OpenAPI 3.1 §4.8.26): a name or prefix that is not
 * an XML name, a prefix without the namespace it stands for, a namespace that is not an
 * absolute URI, an attribute holding an object or an array, and an attribute in a namespace
 * without a prefix (an unprefixed attribute is in none, Namespaces in XML 1.0 §6.3).
 */
export function checkXmlObjects(reader: SchemaReader, root: unknown): void {
  const seen = new Set<Json>();
  const visit = (schema: unknown, where: string, key: string | undefined): void => {
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    const xml = reader.xml(schema);
    if (xml.prefix !== undefined) {
      checkName(xml.prefix, `${where} xml.prefix`);
      if (xml.namespace === undefined)
        throw new Error(`${where}: xml.prefix ${xml.prefix} needs an xml.namespace to be bound to`);
    }
    if (xml.namespace !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(xml.namespace))
      throw new Error(`${where}: xml.namespace must be an absolute URI (OpenAPI 3.1 §4.8.26.1)`);
    if (xml.text) {
      // The element's own text: no name of its own, and text only.
      const types = reader.types(schema);
      if (types.has("object") || types.has("array"))
        throw new Error(`${where}: an element's text holds text, not an object or an array`);
      return;
    }
    if (xml.name !== undefined) checkName(xml.name, `${where} xml.name`);
    else if (key !== undefined) checkName(key, `${where}`);
    if (xml.attribute) {
      const types = reader.types(schema);
      if (types.has("object") || types.has("array"))
        throw new Error(`${where}: an attribute holds text, not an object or an array`);
      if (xml.namespace !== undefined && xml.prefix === undefined)
        throw new Error(`${where}: an attribute in a namespace needs an xml.prefix`);
    }
    const s = reader.resolve(schema);
    for (const [name, member] of reader.properties(s)) visit(member, `${where}/${name}`, name);
    if (reader.types(s).has("array")) visit(reader.items(s), `${where}/items`, undefined);
    visit(reader.additional(s), `${where}/additionalProperties`, undefined);
  };
  visit(root, "#", undefined);
}
