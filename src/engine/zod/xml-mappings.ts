/**
 * The XML mapping of each schema an XML media type declares (src/engine/xml.ts does the
 * reading and writing), made from the schema's JSON Schema, where its `xml` objects are
 * (OpenAPI 3.1 §4.8.26), once per schema and direction.
 */
import type { Contract, Schema } from "../../contract-language/contract";
import type { XmlCodec, XmlMapping } from "../../platform/engine-seam";
import type { JsonSchemaConverter } from "../../platform/openapi/document";

/** The mapping of `schema` as a request's body or as an answer's. */
export type XmlMappings = (schema: Schema, direction: "request" | "response") => XmlMapping;

/**
 * Mappings with the names OpenAPI tools give an element whose schema names none: a part 2
 * resource's name for the root (or the items of an array at the root), else `root`/`item`.
 */
export function xmlMappings(
  contract: Contract,
  codec: XmlCodec,
  jsonSchema: JsonSchemaConverter,
): XmlMappings {
  const names = new Map<Schema, string>(
    Object.entries(contract.resources).map(([name, schema]) => [schema, name]),
  );
  const made = {
    request: new WeakMap<Schema, XmlMapping>(),
    response: new WeakMap<Schema, XmlMapping>(),
  };
  return (schema, direction) => {
    const known = made[direction].get(schema);
    if (known) return known;
    const json = jsonSchema(schema, {
      target: "draft-2020-12",
      io: direction === "request" ? "input" : "output",
      unrepresentable: "any",
      cycles: "ref",
    });
    const def = schema._zod.def as { readonly type: string; readonly element?: Schema };
    const element = def.type === "array" ? def.element : undefined;
    const mapping = codec.mapping(json, {
      root: names.get(schema) ?? "root",
      item: (element && names.get(element)) ?? "item",
    });
    made[direction].set(schema, mapping);
    return mapping;
  };
}
