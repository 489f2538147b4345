/**
 * A value written as XML by its schema's `xml` objects (OpenAPI 3.1 §4.8.26), the inverse
 * of reading (`values.ts`): members as child elements or, where `xml.attribute` says so,
 * attributes, or the element's own text where its `xml` says that is what the member is; arrays' items side by side or inside a wrapper; names and namespaces as the
 * `xml` objects give them, each prefix declared where it is first used; null as
 * `xsi:nil="true"`. A value XML cannot carry as the schema says (an object where text is
 * declared, a number that is not finite, a character XML 1.0 does not allow) is an error,
 * never `String(value)`; members the schema does not declare are written only where it
 * allows any (`additionalProperties`).
 */
import type { SchemaReader, XmlInfo } from "./schema";
import { DECLARATION, escapeAttribute, escapeText, NCNAME, XSI } from "./text";

interface Scope {
  /** Prefixes bound, and the default namespace under "". */
  readonly bindings: ReadonlyMap<string, string>;
}

interface Qualified {
  readonly name: string;
  /** The `xmlns` attributes this element must carry for it. */
  readonly declarations: readonly string[];
  readonly scope: Scope;
}

/** `name` with the prefix and namespace of `xml`, declaring them unless already in scope. */
function qualify(name: string, xml: XmlInfo, scope: Scope, attribute = false): Qualified {
  const namespace = xml.namespace;
  if (namespace === undefined) return { name, declarations: [], scope };
  const prefix = xml.prefix ?? (attribute ? undefined : "");
  if (prefix === undefined) return { name, declarations: [], scope };
  const qualified = prefix === "" ? name : `${prefix}:${name}`;
  if (scope.bindings.get(prefix) === namespace) return { name: qualified, declarations: [], scope };
  const bindings = new Map(scope.bindings).set(prefix, namespace);
  const attributeName = prefix === "" ? "xmlns" : `xmlns:${prefix}`;
  return {
    name: qualified,
    declarations: [`${attributeName}="${escapeAttribute(namespace)}"`],
    scope: { bindings },
  };
}

/** A scalar as text: a string as it is, a finite number or a boolean as JSON writes it. */
function scalarText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new TypeError(
    `an XML text or attribute cannot hold ${typeof value === "number" ? "a non-finite number" : `a ${typeof value}`}`,
  );
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  value !== null &&
  typeof value === "object" &&
  !Array.isArray(value) &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** The scope at a document's root: no prefix is bound yet. */
const DOCUMENT_SCOPE: Scope = { bindings: new Map() };

const element = (name: string, attributes: readonly string[], content: string) => {
  const open = [name, ...attributes].join(" ");
  return content === "" ? `<${open}/>` : `<${open}>${content}</${name}>`;
};

export class ValueWriter {
  readonly #schemas: SchemaReader;

  constructor(schemas: SchemaReader) {
    this.#schemas = schemas;
  }

  /**
   * A whole document: its root element named by the schema's `xml.name`, else `root`; an
   * array at the root is always wrapped by it (a document has one root, XML 1.0 §2.1), its
   * items named by their `xml.name`, else `item`.
   */
  document(schema: unknown, value: unknown, root: string, item: string): string {
    const xml = this.#schemas.xml(schema);
    const name = xml.name ?? root;
    if (!Array.isArray(value) || !this.#schemas.isArray(schema))
      return DECLARATION + this.element(schema, value, name, xml, DOCUMENT_SCOPE);
    const own = qualify(name, xml, DOCUMENT_SCOPE);
    return (
      DECLARATION + element(own.name, own.declarations, this.items(schema, value, item, own.scope))
    );
  }

  /** `value` as the element `name` (with `xml`'s namespace), as `schema` describes it. */
  element(schema: unknown, value: unknown, name: string, xml: XmlInfo, scope: Scope): string {
    if (value === undefined) return "";
    const own = qualify(name, xml, scope);
    if (value === null)
      return element(own.name, [...own.declarations, `xsi:nil="true"`, `xmlns:xsi="${XSI}"`], "");
    const types = this.#schemas.types(schema);
    if (Array.isArray(value)) {
      if (types.size > 0 && !types.has("array"))
        throw new TypeError(`element ${name}: an array where the schema declares none`);
      return element(own.name, own.declarations, this.items(schema, value, name, own.scope));
    }
    if (isRecord(value)) {
      if (types.size > 0 && !types.has("object"))
        throw new TypeError(`element ${name}: an object where the schema declares none`);
      return this.#object(schema, value, own);
    }
    return element(own.name, own.declarations, escapeText(scalarText(value)));
  }

  /** The items of an array, each an element named by the items' `xml.name`, else `name`. */
  items(schema: unknown, values: readonly unknown[], name: string, scope: Scope): string {
    const items = this.#schemas.items(schema);
    const xml = this.#schemas.xml(items);
    return values.map((item) => this.element(items, item, xml.name ?? name, xml, scope)).join("");
  }

  #object(schema: unknown, value: Readonly<Record<string, unknown>>, own: Qualified): string {
    const schemas = this.#schemas;
    const attributes = [...own.declarations];
    let scope = own.scope;
    const members = schemas.properties(schema);
    // Attributes first: a prefix one of them declares is then in scope for the children.
    for (const [key, member] of members) {
      const xml = schemas.xml(member);
      const field = Object.hasOwn(value, key) ? value[key] : undefined;
      if (!xml.attribute || field === undefined || field === null) continue;
      const attribute = qualify(xml.name ?? key, xml, scope, true);
      scope = attribute.scope;
      attributes.push(
        ...attribute.declarations,
        `${attribute.name}="${escapeAttribute(scalarText(field))}"`,
      );
    }
    let content = "";
    for (const [key, member] of members) {
      const xml = schemas.xml(member);
      const field = Object.hasOwn(value, key) ? value[key] : undefined;
      if (xml.attribute || field === undefined) continue;
      if (xml.text) {
        if (field !== null) content += escapeText(scalarText(field));
        continue;
      }
      if (Array.isArray(field) && schemas.isArray(member)) {
        const itemName = schemas.xml(schemas.items(member)).name ?? key;
        if (!xml.wrapped) content += this.items(member, field, itemName, scope);
        else {
          const wrapper = qualify(xml.name ?? key, xml, scope);
          content += element(
            wrapper.name,
            wrapper.declarations,
            this.items(member, field, itemName, wrapper.scope),
          );
        }
      } else content += this.element(member, field, xml.name ?? key, xml, scope);
    }
    const extra = schemas.additional(schema);
    if (extra !== undefined)
      for (const [key, field] of Object.entries(value)) {
        if (members.has(key) || field === undefined) continue;
        if (!NCNAME.test(key)) throw new TypeError("a member's name is not an XML name");
        content += this.element(extra, field, key, schemas.xml(extra), scope);
      }
    return element(own.name, attributes, content);
  }
}
