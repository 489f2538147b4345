/**
 * The XML mapping of each schema an XML media type declares (src/engine/xml.ts does the
 * reading and writing), made from the schema's JSON Schema, where its `xml` objects are
 * (OpenAPI 3.1 §4.8.26), once per schema and direction. The JSON Schemas are made when the
 * Worker is built (`xmlSchemas`), so the Worker ships no converter; it makes each mapping
 * from them on the schema's first use (`xmlMappings`).
 */
import {
  type Contract,
  isXmlMediaType,
  operationShapes,
  type Schema,
  schemaOf,
} from "../../contract-language/contract";
import type { XmlCodec, XmlMapping, XmlSchema } from "../../platform/engine-seam";
import type { JsonSchemaConverter } from "../../platform/openapi/document";

type Direction = "request" | "response";

/** The mapping of `schema` as a request's body or as an answer's. */
export type XmlMappings = (schema: Schema, direction: Direction) => XmlMapping;

/** A schema an XML media type declares, and where it is first declared. */
interface XmlDeclaration {
  readonly schema: Schema;
  readonly direction: Direction;
  /** `operation <id>: its <media type> <body | answer of <status>>`, for a refusal. */
  readonly where: string;
}

/**
 * Each schema an XML media type declares, once per direction, in the order of the
 * operations, their variants, the body and then each answer: the order the build writes
 * their JSON Schemas in and the Worker reads them back in.
 */
function xmlDeclarations(contract: Contract): XmlDeclaration[] {
  const seen = { request: new Set<Schema>(), response: new Set<Schema>() };
  const found: XmlDeclaration[] = [];
  for (const [id, operation] of Object.entries(contract.operations))
    for (const shape of operationShapes(operation)) {
      const declared = [
        ["body", shape.request?.body, "request"] as const,
        ...Object.entries(shape.responses).map(
          ([status, r]) => [`answer of ${status}`, r?.content, "response"] as const,
        ),
      ];
      for (const [where, content, direction] of declared)
        for (const [type, media] of Object.entries(content ?? {})) {
          const schema = schemaOf(media);
          if (!isXmlMediaType(type) || seen[direction].has(schema)) continue;
          seen[direction].add(schema);
          found.push({ schema, direction, where: `operation ${id}: its ${type} ${where}` });
        }
    }
  return found;
}

/**
 * The names OpenAPI tools give an element whose schema names none: a part 2 resource's name
 * for the root (or the items of an array at the root), else `root`/`item`.
 */
function namesOf(contract: Contract): (schema: Schema) => { root: string; item: string } {
  const names = new Map<Schema, string>(
    Object.entries(contract.resources).map(([name, schema]) => [schema, name]),
  );
  return (schema) => {
    const def = schema._zod.def as { readonly type: string; readonly element?: Schema };
    const element = def.type === "array" ? def.element : undefined;
    return { root: names.get(schema) ?? "root", item: (element && names.get(element)) ?? "item" };
  };
}

/**
 * The JSON Schema of each schema an XML media type declares, made when the Worker is built.
 * Each is made into its mapping once here, so an `xml` object XML cannot be written by is
 * refused before the Worker is uploaded, naming the operation.
 */
export function xmlSchemas(
  contract: Contract,
  jsonSchema: JsonSchemaConverter,
  codec: XmlCodec,
): XmlSchema[] {
  const names = namesOf(contract);
  return xmlDeclarations(contract).map(({ schema, direction, where }) => {
    const json = jsonSchema(schema, {
      target: "draft-2020-12",
      io: direction === "request" ? "input" : "output",
      unrepresentable: "any",
      cycles: "ref",
    });
    const made = { json, ...names(schema) };
    try {
      codec.mapping(made.json, made);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${where}: ${reason}`);
    }
    return made;
  });
}

/**
 * The mappings, from the JSON Schemas the build made (`xmlSchemas` of the same contract):
 * each on its schema's first use, never when the Worker starts.
 */
export function xmlMappings(
  contract: Contract,
  codec: XmlCodec,
  schemas: readonly XmlSchema[],
): XmlMappings {
  let index: Record<Direction, Map<Schema, number>> | undefined;
  const made = { request: new Map<Schema, XmlMapping>(), response: new Map<Schema, XmlMapping>() };
  return (schema, direction) => {
    const known = made[direction].get(schema);
    if (known) return known;
    if (!index) {
      const found = { request: new Map<Schema, number>(), response: new Map<Schema, number>() };
      xmlDeclarations(contract).forEach(({ schema, direction }, i) => {
        found[direction].set(schema, i);
      });
      index = found;
    }
    const built = schemas[index[direction].get(schema) ?? -1];
    if (!built) throw new Error("an XML schema the build did not see: build the Worker again");
    const mapping = codec.mapping(built.json, built);
    made[direction].set(schema, mapping);
    return mapping;
  };
}
