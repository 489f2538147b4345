/**
 * The XML mapping of each schema an XML media type declares (src/engine/xml/codec.ts does the
 * reading and writing), made from the schema's JSON Schema, where its `xml` objects are
 * (OpenAPI 3.1 §4.8.26), once per schema and direction. The JSON Schemas are made when the
 * Worker is built (`xmlSchemas`), so the Worker ships no converter; it makes each mapping
 * from them on the schema's first use (`xmlMappings`). Each JSON Schema says which media
 * types it is the schema of (`at`: the operation, its variant, the media type's place), so
 * the Worker finds an operation's among them by its own declarations alone, building no
 * other operation's schemas.
 */
import {
  type Contract,
  isXmlMediaType,
  type Operation,
  operationShapes,
  type Schema,
  schemaOf,
} from "../../contract-language/contract";
import { defOf } from "../../contract-language/zod-def";
import type { JsonSchemaConverter } from "../../platform/openapi/document";
import type { XmlCodec, XmlMapping, XmlSchema } from "../../platform/xml-seam";

type Direction = "request" | "response";

/** The mapping of `schema` (one of an operation's) as a request's body or as an answer's. */
export type XmlMappings = (schema: Schema, direction: Direction) => XmlMapping;

/** The mappings of one shape of an operation (itself, or one of its part 9 variants). */
export type XmlShapes = (shape: Operation) => XmlMappings;

/** A schema an XML media type declares, and where it is declared. */
interface XmlDeclaration {
  readonly schema: Schema;
  readonly direction: Direction;
  /** `operation <id>: its <media type> <body | answer of <status>>`, for a refusal. */
  readonly where: string;
  /** The operation's id, the shape's index and the media type's, in the order walked. */
  readonly at: string;
}

/**
 * The XML media types of one shape of an operation, their schemas built, in order: the
 * body's, then each answer's.
 */
function shapeXml(id: string, shape: Operation, index: number): XmlDeclaration[] {
  const found: XmlDeclaration[] = [];
  const declared = [
    ["body", shape.request?.body, "request"] as const,
    ...Object.entries(shape.responses).map(
      ([status, r]) => [`answer of ${status}`, r?.content, "response"] as const,
    ),
  ];
  for (const [where, content, direction] of declared)
    for (const [type, media] of Object.entries(content ?? {})) {
      if (!isXmlMediaType(type)) continue;
      const at = [id, index, found.length].join("\n");
      found.push({
        schema: schemaOf(media),
        direction,
        where: `operation ${id}: its ${type} ${where}`,
        at,
      });
    }
  return found;
}

/** Each XML media type of the contract, in the order of the operations and their variants. */
function xmlDeclarations(contract: Contract): XmlDeclaration[] {
  return Object.entries(contract.operations).flatMap(([id, operation]) =>
    operationShapes(operation).flatMap((shape, index) => shapeXml(id, shape, index)),
  );
}

/**
 * The names OpenAPI tools give an element whose schema names none: a part 2 resource's name
 * for the root (or the items of an array at the root), else `root`/`item`.
 */
function namesOf(contract: Contract): (schema: Schema) => { root: string; item: string } {
  const names = new Map<Schema, string>(
    Object.entries(contract.resources).map(([name, schema]) => [schemaOf(schema), name]),
  );
  return (schema) => {
    const def = defOf(schema);
    const element = def.type === "array" ? def.element : undefined;
    return { root: names.get(schema) ?? "root", item: (element && names.get(element)) ?? "item" };
  };
}

/**
 * The JSON Schema of each schema an XML media type declares, made when the Worker is built,
 * once per schema and direction, with every place it is declared at. Each is made into its
 * mapping once here, so an `xml` object XML cannot be written by is refused before the
 * Worker is uploaded, naming the operation.
 */
export function xmlSchemas(
  contract: Contract,
  jsonSchema: JsonSchemaConverter,
  codec: XmlCodec,
): XmlSchema[] {
  const names = namesOf(contract);
  const made: (XmlSchema & { at: string[] })[] = [];
  const seen = { request: new Map<Schema, number>(), response: new Map<Schema, number>() };
  for (const { schema, direction, where, at } of xmlDeclarations(contract)) {
    const known = seen[direction].get(schema);
    if (known !== undefined) {
      made[known]?.at.push(at);
      continue;
    }
    const json = jsonSchema(schema, {
      target: "draft-2020-12",
      io: direction === "request" ? "input" : "output",
      unrepresentable: "any",
      cycles: "ref",
    });
    const schemaMade = { json, ...names(schema), at: [at] };
    try {
      codec.mapping(schemaMade.json, schemaMade);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${where}: ${reason}`);
    }
    seen[direction].set(schema, made.length);
    made.push(schemaMade);
  }
  return made;
}

/**
 * The mappings, from the JSON Schemas the build made (`xmlSchemas` of the same contract),
 * for each shape of operation `id`: each on its schema's first use, never when the Worker
 * starts, and found by where the shape declares it (only its own schemas are built).
 */
export function xmlMappings(
  codec: XmlCodec,
  schemas: readonly XmlSchema[],
): (id: string, shapes: readonly Operation[]) => XmlShapes {
  let byPlace: Map<string, number> | undefined;
  const mappings = new Map<number, XmlMapping>();
  const mappingAt = (index: number): XmlMapping => {
    const known = mappings.get(index);
    if (known) return known;
    const built = schemas[index];
    if (!built) throw new Error("an XML schema the build did not see: build the Worker again");
    const mapping = codec.mapping(built.json, built);
    mappings.set(index, mapping);
    return mapping;
  };
  return (id, shapes) => (shape) => {
    let index: Record<Direction, Map<Schema, number>> | undefined;
    return (schema, direction) => {
      if (!index) {
        byPlace ??= new Map(schemas.flatMap((s, i) => s.at.map((at) => [at, i] as const)));
        const places = byPlace;
        const found = { request: new Map<Schema, number>(), response: new Map<Schema, number>() };
        for (const declared of shapeXml(id, shape, Math.max(0, shapes.indexOf(shape))))
          found[declared.direction].set(declared.schema, places.get(declared.at) ?? -1);
        index = found;
      }
      return mappingAt(index[direction].get(schema) ?? -1);
    };
  };
}
