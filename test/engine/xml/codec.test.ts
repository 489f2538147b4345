/**
 * The XML codec (src/engine/xml/codec.ts) on its own, inside workerd: a schema's `xml` objects
 * (OpenAPI 3.1 §4.8.26) decide how a document is read into the value the schema describes
 * and how a value is written back; what is dangerous or not well-formed is refused (OWASP
 * XML External Entity Prevention, XML 1.0, Namespaces in XML 1.0); problems are written in
 * RFC 9457 Appendix B's format. FIXTURE schemas only.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type { Schema } from "../../../src/contract-language/contract";
import { XML_CODEC } from "../../../src/engine/xml/codec";
import type { XmlMapping } from "../../../src/platform/xml-seam";

const xml = (meta: Record<string, unknown>) => z.meta({ xml: meta });

/** A mapping as the engine makes it: from the schema's JSON Schema, with zod's converter. */
function mappingOf(schema: Schema, root = "root", item = "item"): XmlMapping {
  const json = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    cycles: "ref",
  }) as Record<string, unknown>;
  return XML_CODEC.mapping(json, { root, item });
}

const read = (mapping: XmlMapping, text: string) => {
  const result = mapping.read(text);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.value;
};
const reason = (mapping: XmlMapping, text: string) => {
  const result = mapping.read(text);
  return result.ok ? undefined : result.reason;
};

/** FIXTURE: every field of the XML Object in one schema. */
const FixtureShelf = z
  .object({
    id: z.int().check(xml({ attribute: true })),
    open: z.optional(z.boolean().check(xml({ attribute: true, name: "is-open" }))),
    label: z.string().check(xml({ name: "title", namespace: "urn:fixture:labels", prefix: "fl" })),
    books: z
      .array(
        z
          .object({ isbn: z.string().check(xml({ attribute: true })), pages: z.int() })
          .check(xml({ name: "book" })),
      )
      .check(xml({ wrapped: true })),
    tags: z.optional(z.array(z.string().check(xml({ name: "tag" })))),
    weight: z.optional(z.number()),
    note: z.optional(z.nullable(z.string())),
  })
  .check(xml({ name: "shelf", namespace: "urn:fixture:shelves" }));

const SHELF_XML =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  '<shelf xmlns="urn:fixture:shelves" id="7" is-open="true">' +
  '<fl:title xmlns:fl="urn:fixture:labels">Fixture &amp; co</fl:title>' +
  '<books><book isbn="0-1"><pages>12</pages></book><book isbn="0-2"><pages>30</pages></book></books>' +
  "<tag>a</tag><tag>b</tag><weight>2.5</weight></shelf>";

const SHELF = {
  id: 7,
  open: true,
  label: "Fixture & co",
  books: [
    { isbn: "0-1", pages: 12 },
    { isbn: "0-2", pages: 30 },
  ],
  tags: ["a", "b"],
  weight: 2.5,
};

describe("an element's own text (OpenAPI 3.2's xml nodeType text, x-nodeType in 3.1)", () => {
  // FIXTURE: the XML-to-JSON convention's `#text` member beside an attribute.
  const FixtureLabel = z
    .object({
      id: z.string().check(xml({ attribute: true })),
      "#text": z.optional(z.string().check(xml({ "x-nodeType": "text" }))),
      size: z.optional(z.int().check(xml({ attribute: true }))),
    })
    .check(xml({ name: "label" }));
  const label = mappingOf(FixtureLabel);

  it("writes the member as the element's text, escaped, and reads it back", () => {
    const written = label.write({ id: "a1", "#text": "Fixture & <co>", size: 3 });
    expect(written).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><label id="a1" size="3">Fixture &amp; &lt;co&gt;</label>',
    );
    expect(read(label, written)).toEqual({ id: "a1", "#text": "Fixture & <co>", size: 3 });
    expect(read(label, '<label id="a2"/>')).toEqual({ id: "a2" });
  });

  it("refuses a text member that holds an object, as it refuses such an attribute", () => {
    const nested = z.object({
      "#text": z.object({ a: z.string() }).check(xml({ "x-nodeType": "text" })),
    });
    expect(() => mappingOf(nested)).toThrow(/an element's text holds text/);
  });
});

describe("reading by the xml object (OpenAPI 3.1 §4.8.26)", () => {
  const shelf = mappingOf(FixtureShelf);

  it("names elements and attributes by xml.name, else by the member; wrapped arrays inside their wrapper", () => {
    expect(read(shelf, SHELF_XML)).toEqual(SHELF);
  });

  it("reads numbers and booleans from text where the schema types them, as query parameters are", () => {
    const value = read(
      shelf,
      '<shelf xmlns="urn:fixture:shelves" id=" 7 " is-open="false"><title xmlns="urn:fixture:labels">x</title><books/><weight>1e2</weight></shelf>',
    );
    expect(value).toEqual({ id: 7, open: false, label: "x", books: [], weight: 100 });
    // Text that is not a number stays text, for the schema to refuse in its own words.
    expect(
      read(shelf, '<shelf xmlns="urn:fixture:shelves" id="seven"><books/></shelf>'),
    ).toMatchObject({ id: "seven" });
  });

  it("matches a namespace by its URI, whatever prefix the document binds to it (Namespaces in XML 1.0 §6)", () => {
    const other = read(
      shelf,
      '<s:shelf xmlns:s="urn:fixture:shelves" xmlns:x="urn:fixture:labels" id="1"><x:title>By another prefix</x:title><s:books/></s:shelf>',
    );
    expect(other).toMatchObject({ label: "By another prefix", books: [] });
    // An element of that name in another namespace is not the member.
    const wrong = read(
      shelf,
      '<shelf xmlns="urn:fixture:shelves" id="1"><title xmlns="urn:fixture:other">x</title><books/></shelf>',
    );
    expect(wrong).not.toHaveProperty("label");
  });

  it("refuses a root element other than the one xml.name names, and reads any root where none is named", () => {
    expect(reason(shelf, '<box id="1"><books/></box>')).toMatch(/root element must be shelf/);
    expect(reason(shelf, '<shelf xmlns="urn:other" id="1"/>')).toMatch(/root element/);
    const unnamed = mappingOf(z.object({ a: z.string() }));
    expect(read(unnamed, "<anything><a>x</a></anything>")).toEqual({ a: "x" });
  });

  it("reads an element that repeats where one value is declared as a list, so the schema refuses it", () => {
    const value = read(
      shelf,
      '<shelf xmlns="urn:fixture:shelves" id="1"><title xmlns="urn:fixture:labels">a</title><title xmlns="urn:fixture:labels">b</title><books/></shelf>',
    );
    expect(value).toMatchObject({ label: ["a", "b"] });
    expect(z.safeParse(FixtureShelf, value).success).toBe(false);
  });

  it("reads xsi:nil as null, CDATA as it is, and character references as the characters", () => {
    const value = read(
      shelf,
      '<shelf xmlns="urn:fixture:shelves" id="1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><title xmlns="urn:fixture:labels">&#65;&#x42;&lt;<![CDATA[<&amp;>]]></title><books/><note xsi:nil="true"/></shelf>',
    );
    expect(value).toMatchObject({ label: "AB<<&amp;>", note: null });
  });

  it("keeps elements no member names under their own names, for the schema to strip or refuse", () => {
    const strict = mappingOf(z.strictObject({ a: z.string() }));
    const value = read(strict, "<r><a>x</a><b><c>1</c></b></r>");
    expect(value).toEqual({ a: "x", b: { c: "1" } });
    expect(z.safeParse(z.strictObject({ a: z.string() }), value).success).toBe(false);
  });

  it("keeps a member named __proto__ a plain member", () => {
    const value = read(
      mappingOf(z.object({ a: z.string() })),
      "<r><a>x</a><toString>y</toString></r>",
    );
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value).toEqual({ a: "x", toString: "y" });
  });

  it("reads an array at the root as the root's children, named by the items' xml.name", () => {
    const list = mappingOf(
      z
        .array(z.object({ n: z.int() }).check(xml({ name: "entry" })))
        .check(xml({ name: "entries" })),
    );
    expect(
      read(list, "<entries><entry><n>1</n></entry><other/><entry><n>2</n></entry></entries>"),
    ).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("reads a side-by-side array with no item as empty when it is required, and absent otherwise", () => {
    const schema = z.object({
      need: z.array(z.string()),
      may: z.optional(z.array(z.string())),
    });
    expect(read(mappingOf(schema), "<r/>")).toEqual({ need: [] });
    expect(read(mappingOf(schema), "<r><may>x</may><need>y</need><need>z</need></r>")).toEqual({
      need: ["y", "z"],
      may: ["x"],
    });
  });
});

describe("writing by the xml object (OpenAPI 3.1 §4.8.26)", () => {
  const shelf = mappingOf(FixtureShelf);

  it("writes the document the same object is read from", () => {
    expect(shelf.write(SHELF)).toBe(SHELF_XML);
    expect(read(shelf, shelf.write(SHELF))).toEqual(SHELF);
  });

  it("escapes text and attributes, writes null as xsi:nil, and leaves out what is undefined", () => {
    const schema = z.object({
      a: z.string().check(xml({ attribute: true })),
      b: z.nullable(z.string()),
      c: z.optional(z.string()),
    });
    const text = mappingOf(schema, "FixtureThing").write({ a: 'x"<\n', b: null, c: undefined });
    expect(text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><FixtureThing a="x&quot;&lt;&#10;"><b xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/></FixtureThing>',
    );
    expect(read(mappingOf(schema), text)).toEqual({ a: 'x"<\n', b: null });
  });

  it("names the root by the fallback (a resource's name) and an array's items likewise", () => {
    const list = mappingOf(z.array(z.object({ n: z.int() })), "FixtureList", "FixtureEntry");
    expect(list.write([{ n: 1 }])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><FixtureList><FixtureEntry><n>1</n></FixtureEntry></FixtureList>',
    );
  });

  it("refuses to write what XML cannot carry as the schema says, never String(value)", () => {
    const schema = z.object({ a: z.string() });
    expect(() => mappingOf(schema).write({ a: { nested: true } })).toThrow(TypeError);
    expect(() => mappingOf(schema).write({ a: "bell \u0007" })).toThrow(TypeError);
    expect(() => mappingOf(z.object({ n: z.number() })).write({ n: Number.NaN })).toThrow(
      TypeError,
    );
    expect(() => mappingOf(schema).write("text")).not.toThrow();
  });

  it("writes members the schema does not declare only where it allows any", () => {
    expect(mappingOf(z.object({ a: z.string() })).write({ a: "x", extra: "y" })).not.toContain(
      "extra",
    );
    expect(mappingOf(z.looseObject({ a: z.string() })).write({ a: "x", extra: "y" })).toContain(
      "<extra>y</extra>",
    );
    expect(() => mappingOf(z.looseObject({})).write({ "not a name": 1 })).toThrow(TypeError);
  });
});

describe("refused before anything is parsed (OWASP XML External Entity Prevention)", () => {
  const any = mappingOf(z.object({ a: z.optional(z.string()) }));

  it.each([
    [
      "an internal subset that expands an entity (billion laughs)",
      '<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><r><a>&b;</a></r>',
    ],
    [
      "an external entity",
      '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r><a>&x;</a></r>',
    ],
    ["a DOCTYPE alone", "<!DOCTYPE r><r/>"],
    ["a doctype in other letters", "<!doctype r><r/>"],
  ])("a DOCTYPE: %s", (_name, text) => {
    expect(reason(any, text)).toMatch(/DOCTYPE/);
  });

  it.each([
    ["an entity XML does not predefine", "<r><a>&nbsp;</a></r>", /entity/],
    ["a bare &", "<r><a>a & b</a></r>", /./],
    ["a character reference to a character XML forbids", "<r><a>&#0;</a></r>", /character/],
    ["a control character", "<r><a>\u0001</a></r>", /character/],
    ["two root elements", "<r/><r/>", /one root/],
    ["no element", "text", /./],
    ["an empty body", "  ", /empty/],
    ["an unclosed element", "<r><a>x</r>", /well-formed/],
    ["a repeated attribute", '<r a="1" a="2"/>', /well-formed/],
    ["an undeclared prefix", "<p:r/>", /prefix/],
    ["a name with two colons", '<r xmlns:a="urn:a"><a:b:c/></r>', /qualified name/],
    ["a < in an attribute", '<r a="<"/>', /</],
    ["an element named __proto__", "<r><__proto__>x</__proto__></r>", /__proto__/],
    ["elements nested more than 100 deep", `${"<a>".repeat(150)}${"</a>".repeat(150)}`, /100/],
  ])("%s", (_name, text, expected) => {
    expect(reason(any, text)).toMatch(expected);
  });

  it("never quotes the document it refuses", () => {
    expect(reason(any, "<r><secret-value>x</r>")).not.toContain("secret-value");
  });
});

describe("xml objects XML cannot be written by are refused when the mapping is made", () => {
  it.each([
    [
      "a prefix without a namespace",
      z.object({ a: z.string().check(xml({ prefix: "p" })) }),
      /needs an xml.namespace/,
    ],
    ["a relative namespace", z.object({}).check(xml({ namespace: "fixture" })), /absolute URI/],
    [
      "a name that is not an XML name",
      z.object({ a: z.string().check(xml({ name: "1a" })) }),
      /not an XML name/,
    ],
    ["a member whose name is not an XML name", z.object({ "a b": z.string() }), /not an XML name/],
    [
      "an attribute holding an object",
      z.object({ a: z.object({}).check(xml({ attribute: true })) }),
      /attribute holds text/,
    ],
    [
      "a namespaced attribute without a prefix",
      z.object({ a: z.string().check(xml({ attribute: true, namespace: "urn:a" })) }),
      /needs an xml.prefix/,
    ],
  ])("%s", (_name, schema, expected) => {
    expect(() => mappingOf(schema)).toThrow(expected);
  });

  it("takes a member whose name is not an XML name once xml.name gives it one", () => {
    const mapping = mappingOf(z.object({ "a b": z.string().check(xml({ name: "ab" })) }));
    expect(read(mapping, "<r><ab>x</ab></r>")).toEqual({ "a b": "x" });
  });
});

describe("problems in RFC 9457 Appendix B's XML format", () => {
  it("writes the members in the urn:ietf:rfc:7807 namespace, arrays as i elements, objects as elements", () => {
    expect(
      XML_CODEC.problem({
        type: "/_service/problems/validation-failed",
        title: "Validation failed",
        status: 422,
        detail: "1 < 2 & more",
        errors: [{ in: "body", pointer: "#/name", detail: "Is required." }],
        missingPart: { number: 4, name: "endpoints" },
        empty: [],
      }),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><problem xmlns="urn:ietf:rfc:7807">' +
        "<type>/_service/problems/validation-failed</type><title>Validation failed</title>" +
        "<status>422</status><detail>1 &lt; 2 &amp; more</detail>" +
        "<errors><i><in>body</in><pointer>#/name</pointer><detail>Is required.</detail></i></errors>" +
        "<missingPart><number>4</number><name>endpoints</name></missingPart><empty/></problem>",
    );
  });

  it("gives undefined (the problem stays JSON) when a member's name cannot be an element's", () => {
    expect(XML_CODEC.problem({ type: "about:blank", "not a name": 1 })).toBeUndefined();
    expect(XML_CODEC.problem({ type: "about:blank", nested: { "1x": 1 } })).toBeUndefined();
  });
});
