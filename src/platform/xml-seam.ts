/**
 * The seam between the platform and the XML codec (src/engine/xml/codec.ts): what the engine asks
 * of it. Types only, so the codec and the tools that read XML with it (the conformance
 * checker) need nothing else of the platform.
 */
/** What reading an XML body concluded: the value its schema describes, or why there is none. */
type XmlRead =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/**
 * How the values of one schema are read from XML and written as XML, by its `xml` objects
 * (OpenAPI 3.1 §4.8.26). `read` refuses what is not well-formed or is dangerous (a DOCTYPE,
 * an undeclared entity: OWASP XML External Entity Prevention); `write` throws for a value
 * XML cannot carry as the schema says (never `String(value)`).
 */
export interface XmlMapping {
  readonly read: (text: string) => XmlRead;
  readonly write: (value: unknown) => string;
}

/** Names an XML mapping falls back on where the schema's `xml` objects give none. */
export interface XmlNames {
  /** The root element's (a part 2 resource's name, as OpenAPI tools name it). */
  readonly root: string;
  /** The items' of an array at the root. */
  readonly item: string;
  /** Where the schema's `$ref`s point (an OpenAPI document); the schema itself by default. */
  readonly document?: Readonly<Record<string, unknown>>;
}

/**
 * XML bodies and answers (src/engine/xml/codec.ts, with fast-xml-parser). Passed to the app only
 * when the contract declares an XML media type, so a Worker without one does not ship it.
 */
export interface XmlCodec {
  /**
   * The mapping of the schema whose JSON Schema is `schema`; it throws, with the reason, for
   * an `xml` object XML cannot be written by (a name that is not an XML name, a prefix
   * without a namespace), so the app refuses it when it starts.
   */
  readonly mapping: (schema: Readonly<Record<string, unknown>>, names: XmlNames) => XmlMapping;
  /**
   * A problem (RFC 9457) in Appendix B's XML format (namespace `urn:ietf:rfc:7807`);
   * undefined when a member's name cannot be an element's, so it stays JSON.
   */
  readonly problem: (problem: Readonly<Record<string, unknown>>) => string | undefined;
}

/**
 * What an XML mapping is made from, computed when the Worker is built: a schema's JSON
 * Schema (where its `xml` objects are) and the names it falls back on. Plain JSON, so the
 * Worker needs no JSON Schema converter to read and write XML.
 */
export interface XmlSchema {
  readonly json: Readonly<Record<string, unknown>>;
  readonly root: string;
  readonly item: string;
  /**
   * Where it is declared: each operation's id, the index of its shape (part 9's variants
   * after the operation itself) and of the XML media type in it, so the Worker finds an
   * operation's schemas without building any other's.
   */
  readonly at: readonly string[];
}
