/**
 * An XML request body as a tree of elements, read safely. fast-xml-parser is lenient by
 * design, so what XML 1.0 and Namespaces in XML 1.0 require of a well-formed document is
 * checked around it: one root element, only characters XML allows, only the five predefined
 * entities and character references, every prefix declared. Dangerous input is refused
 * before anything is parsed (OWASP XML External Entity Prevention Cheat Sheet): a DOCTYPE,
 * which is where external entities and entity expansion live, is a 400, and the parser
 * expands no entity at all. Elements nest at most 100 deep (the parser's bound).
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { NOT_XML_CHAR, XML_NAMESPACE } from "./text";

/** One attribute, its name resolved against the namespaces in scope. */
interface XmlAttribute {
  readonly local: string;
  readonly namespace: string | undefined;
  readonly value: string;
}

/** One element, its name resolved against the namespaces in scope. */
export interface XmlElement {
  readonly local: string;
  readonly namespace: string | undefined;
  readonly attributes: readonly XmlAttribute[];
  readonly children: readonly XmlElement[];
  /** The character data directly inside it (text and CDATA), references replaced. */
  readonly text: string;
}

type TreeResult =
  | { readonly ok: true; readonly root: XmlElement }
  | { readonly ok: false; readonly reason: string };

class Malformed extends Error {}

const ATTRIBUTES = ":@";
const TEXT = "#text";
const CDATA = "#cdata";

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: CDATA,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // No entity is expanded by the parser: the predefined ones and character references are
  // replaced below, and any other is refused (no DOCTYPE can declare one).
  processEntities: false,
  htmlEntities: false,
  maxNestedTags: 100,
  // Names stay as written: they only ever become keys of objects the parser makes for each
  // node, and are read back with Object.keys (it still refuses __proto__ and constructor).
  onDangerousProperty: (name) => name,
});

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
};

/** XML 1.0 §2.2's Char, for a character reference. */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

/** Character data with its references replaced (XML 1.0 §4.1, §4.6); any other `&` is refused. */
function decode(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(
    /&(?:([A-Za-z]+)|#([0-9]{1,7})|#x([0-9A-Fa-f]{1,6}));|&/g,
    (_match, name: string | undefined, decimal: string | undefined, hex: string | undefined) => {
      if (name !== undefined) {
        const value = PREDEFINED[name];
        if (value === undefined || !Object.hasOwn(PREDEFINED, name))
          throw new Malformed("The request body refers to an entity XML does not predefine.");
        return value;
      }
      if (decimal === undefined && hex === undefined)
        throw new Malformed("The request body has an & that starts no reference (XML 1.0 §2.4).");
      const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex as string, 16);
      if (!isXmlChar(code))
        throw new Malformed("The request body refers to a character XML 1.0 does not allow.");
      return String.fromCodePoint(code);
    },
  );
}

type Node = Readonly<Record<string, unknown>>;
type Scope = ReadonlyMap<string, string>;

/** A qualified name split, its prefix resolved (Namespaces in XML 1.0 §4, §6). */
function resolveName(
  qualified: string,
  scope: Scope,
  attribute: boolean,
): { local: string; namespace: string | undefined } {
  const parts = qualified.split(":");
  if (parts.length > 2 || parts.some((part) => part === ""))
    throw new Malformed("The request body has a name that is not a qualified name.");
  if (parts.length === 1)
    // An unprefixed element is in the default namespace; an unprefixed attribute in none.
    return { local: qualified, namespace: attribute ? undefined : scope.get("") || undefined };
  const [prefix = "", local = ""] = parts;
  const namespace = scope.get(prefix);
  if (namespace === undefined || prefix === "xmlns")
    throw new Malformed("The request body uses a namespace prefix it does not declare.");
  return { local, namespace };
}

/** One element of the parser's output (`{ name: children, ":@": attributes }`) as an element. */
function elementOf(node: Node, outer: Scope): XmlElement {
  const name = Object.keys(node).find((key) => key !== ATTRIBUTES) ?? "";
  const raw = (node[ATTRIBUTES] ?? {}) as Readonly<Record<string, unknown>>;
  const scope = new Map(outer);
  const declared: [string, string][] = [];
  for (const [qualified, value] of Object.entries(raw)) {
    const text = String(value);
    // XML 1.0 §3.1: an attribute value may not hold "<".
    if (text.includes("<")) throw new Malformed("The request body has a < in an attribute.");
    // XML 1.0 §3.3.3: white space in an attribute value is a space, references aside.
    const normalised = decode(text.replace(/[\t\n]/g, " "));
    if (qualified === "xmlns") scope.set("", normalised);
    else if (qualified.startsWith("xmlns:")) scope.set(qualified.slice(6), normalised);
    else declared.push([qualified, normalised]);
  }
  const attributes = declared.map(([qualified, value]) => ({
    ...resolveName(qualified, scope, true),
    value,
  }));
  const children: XmlElement[] = [];
  let text = "";
  for (const child of (node[name] ?? []) as Node[]) {
    if (TEXT in child) text += decode(String(child[TEXT]));
    else if (CDATA in child)
      for (const part of (child[CDATA] ?? []) as Node[]) text += String(part[TEXT] ?? "");
    else children.push(elementOf(child, scope));
  }
  return { ...resolveName(name, scope, false), attributes, children, text };
}

const WELL_FORMED = (line: number) =>
  `The request body is not well-formed XML (XML 1.0; line ${line}).`;

/** The document's root element, or why the text is not a document the platform reads. */
export function readTree(source: string): TreeResult {
  // XML 1.0 §2.11: every line end is read as a line feed.
  const text = source.replace(/\r\n?/g, "\n");
  if (text.trim() === "") return { ok: false, reason: "The request body is empty." };
  if (/<!DOCTYPE/i.test(text))
    return {
      ok: false,
      reason:
        "The request body has a DOCTYPE, which is refused: it is where external entities and entity expansion live (OWASP XML External Entity Prevention).",
    };
  if (NOT_XML_CHAR.test(text))
    return { ok: false, reason: "The request body holds a character XML 1.0 does not allow." };
  // fast-xml-parser's own validator finds unclosed and mismatched tags, repeated
  // attributes and text outside the root; the parser itself would read them leniently.
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, reason: WELL_FORMED(valid.err.line) };
  let nodes: Node[];
  try {
    nodes = parser.parse(text) as Node[];
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    return {
      ok: false,
      reason: message.includes("[SECURITY]")
        ? "The request body has an element named __proto__, constructor or prototype, which is not allowed."
        : message.includes("nested")
          ? "The request body nests elements more than 100 deep."
          : WELL_FORMED(1),
    };
  }
  const elements = nodes.filter((node) => !(TEXT in node));
  if (elements.length !== 1 || !elements[0])
    return {
      ok: false,
      reason: "The request body must have exactly one root element (XML 1.0 §2.1).",
    };
  try {
    return { ok: true, root: elementOf(elements[0], new Map([["xml", XML_NAMESPACE]])) };
  } catch (error) {
    if (error instanceof Malformed) return { ok: false, reason: error.message };
    throw error;
  }
}
