/**
 * The value an XML element stands for, read by its schema and the schema's `xml` objects
 * (OpenAPI 3.1 §4.8.26), so that the schema then validates it exactly as it validates JSON:
 * - an object's members are its child elements, or its attributes where a member's `xml`
 *   says `attribute`, or its own text where it says `x-nodeType: text` (OpenAPI 3.2's nodeType), each named by `xml.name` or else by the member's name, and in
 *   `xml.namespace` where one is given (any prefix the document binds to it);
 * - an array's items are the elements named by its items' `xml.name` (else by the member's
 *   name), side by side, or inside one element named after the array when it is `wrapped`;
 *   an element that repeats where the schema wants one value is read as a list, which the
 *   schema then refuses with a JSON Pointer to it;
 * - text is a string, read as a number or a boolean where the schema types it so, as query
 *   parameters are (`src/contract-language/text.ts`); an element with `xsi:nil="true"` is null;
 * - child elements no member names are kept under their own names, for the schema to strip,
 *   check or refuse, as it does the members of a JSON object it does not declare.
 */
import { NUMBER } from "../../contract-language/text";
import type { XmlElement } from "./read";
import type { SchemaReader } from "./schema";
import { XSI } from "./text";

/** Own properties only, so a member named __proto__ stays a plain member. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const matches = (
  node: { local: string; namespace: string | undefined },
  name: string,
  namespace?: string,
) => node.local === name && (namespace === undefined || node.namespace === namespace);

/** `xsi:nil="true"` (XML Schema Part 1 §2.6.2): the element stands for null. */
const isNil = (element: XmlElement) =>
  element.attributes.some(
    (a) =>
      a.local === "nil" &&
      a.namespace === XSI &&
      (a.value.trim() === "true" || a.value.trim() === "1"),
  );

/** Text as the schema types it: a number or a boolean where it says so and the text is one. */
function typedText(types: ReadonlySet<string>, text: string): unknown {
  const trimmed = text.trim();
  if ((types.has("integer") || types.has("number")) && NUMBER.test(trimmed)) return Number(trimmed);
  if (types.has("boolean") && (trimmed === "true" || trimmed === "false"))
    return trimmed === "true";
  return text;
}

/** An element read without a schema: its text, or its children as members (repeated: a list). */
function untyped(element: XmlElement): unknown {
  if (element.children.length === 0) return element.text;
  const grouped = new Map<string, unknown[]>();
  for (const child of element.children) {
    const list = grouped.get(child.local) ?? [];
    list.push(untyped(child));
    grouped.set(child.local, list);
  }
  const out: Record<string, unknown> = {};
  for (const [name, values] of grouped) put(out, name, values.length === 1 ? values[0] : values);
  return out;
}

export class ValueReader {
  readonly #schemas: SchemaReader;

  constructor(schemas: SchemaReader) {
    this.#schemas = schemas;
  }

  /** The value `element` stands for, as `schema` describes it. */
  value(schema: unknown, element: XmlElement): unknown {
    if (isNil(element)) return null;
    const types = this.#schemas.types(schema);
    if (types.size === 0) return untyped(element);
    const structured = element.children.length > 0 || element.attributes.length > 0;
    const scalar = ["string", "number", "integer", "boolean"].some((t) => types.has(t));
    if (types.has("object") && (structured || !scalar)) return this.#object(schema, element);
    if (types.has("array") && (structured || !scalar)) return this.items(schema, element);
    return element.children.length > 0 ? untyped(element) : typedText(types, element.text);
  }

  /** An array whose items are the children of `element` (named by the items' `xml.name`, if it gives one). */
  items(schema: unknown, element: XmlElement): unknown[] {
    const items = this.#schemas.items(schema);
    const { name, namespace } = this.#schemas.xml(items);
    return element.children
      .filter((child) => name === undefined || matches(child, name, namespace))
      .map((child) => this.value(items, child));
  }

  #object(schema: unknown, element: XmlElement): Record<string, unknown> {
    const schemas = this.#schemas;
    const out: Record<string, unknown> = {};
    const used = new Set<XmlElement>();
    const take = (name: string, namespace?: string) => {
      const found = element.children.filter(
        (child) => !used.has(child) && matches(child, name, namespace),
      );
      for (const child of found) used.add(child);
      return found;
    };
    const required = schemas.required(schema);
    for (const [key, member] of schemas.properties(schema)) {
      const xml = schemas.xml(member);
      const name = xml.name ?? key;
      if (xml.text) {
        // The element's own text (OpenAPI 3.2's nodeType text).
        if (element.text.trim() !== "" || required.has(key))
          put(out, key, typedText(schemas.types(member), element.text));
      } else if (xml.attribute) {
        const attribute = element.attributes.find((a) => matches(a, name, xml.namespace));
        if (attribute) put(out, key, typedText(schemas.types(member), attribute.value));
      } else if (schemas.isArray(member)) {
        const items = schemas.items(member);
        const item = schemas.xml(items);
        if (xml.wrapped) {
          const [wrapper] = take(name, xml.namespace);
          if (wrapper) put(out, key, isNil(wrapper) ? null : this.items(member, wrapper));
        } else {
          const found = take(item.name ?? key, item.namespace);
          // Side by side, no item and no member look alike: a required list is then empty.
          if (found.length > 0 || required.has(key))
            put(
              out,
              key,
              found.map((child) => this.value(items, child)),
            );
        }
      } else {
        const found = take(name, xml.namespace);
        const [only] = found;
        if (found.length === 1 && only) put(out, key, this.value(member, only));
        else if (found.length > 1)
          put(
            out,
            key,
            found.map((child) => this.value(member, child)),
          );
      }
    }
    const extra = schemas.additional(schema);
    const rest = new Map<string, XmlElement[]>();
    for (const child of element.children)
      if (!used.has(child) && !Object.hasOwn(out, child.local))
        rest.set(child.local, [...(rest.get(child.local) ?? []), child]);
    for (const [name, children] of rest) {
      const values = children.map((child) =>
        extra === undefined ? untyped(child) : this.value(extra, child),
      );
      put(out, name, values.length === 1 ? values[0] : values);
    }
    return out;
  }
}
