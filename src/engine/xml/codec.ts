/**
 * The XML codec: a schema's mapping (read a body into the value it describes, write an
 * answer from the value a handler returns), and RFC 9457's XML problems.
 */
import type { XmlCodec, XmlMapping, XmlNames } from "../../platform/xml-seam";
import { problemXml } from "./problem";
import { readTree } from "./read";
import { checkXmlObjects, type Json, SchemaReader } from "./schema";
import { ValueReader } from "./values";
import { ValueWriter } from "./write";

function mapping(schema: Json, names: XmlNames): XmlMapping {
  const schemas = new SchemaReader(names.document ?? schema);
  checkXmlObjects(schemas, schema);
  const values = new ValueReader(schemas);
  const writer = new ValueWriter(schemas);
  const root = schemas.xml(schema);
  const array = schemas.isArray(schema);
  // Named only where the schema names it: a client may call an unnamed root what it likes.
  const where = root.namespace === undefined ? "" : ` in the namespace ${root.namespace}`;
  const misnamed = `The request body's root element must be ${root.name ?? ""}${where}, as its schema's xml object says.`;
  return {
    read(text) {
      const tree = readTree(text);
      if (!tree.ok) return tree;
      const element = tree.root;
      if (
        root.name !== undefined &&
        (element.local !== root.name ||
          (root.namespace !== undefined && element.namespace !== root.namespace))
      )
        return { ok: false, reason: misnamed };
      return {
        ok: true,
        value: array ? values.items(schema, element) : values.value(schema, element),
      };
    },
    write: (value) => writer.document(schema, value, names.root, names.item),
  };
}

/** `createApp(contract, { …, xml: XML_CODEC })`, for a contract that declares XML. */
export const XML_CODEC: XmlCodec = { mapping, problem: problemXml };
