/**
 * An OpenAPI document as the contract's part files: the code of each part the document
 * declares, written with zod/mini, and every finding about what could not be carried.
 * Mapping (src/importer/README.md, "What a document becomes, part by part", says it in prose):
 * `info` → part 1 (with tags, servers, externalDocs); `components.schemas` → part 2;
 * `paths` → part 4; `securitySchemes` and `security` → part 5; `webhooks` and `callbacks`
 * → part 6; problem responses → part 7; a bounded page-size parameter → part 8;
 * `info.version` → part 9. Part 3 is not something OpenAPI carries.
 */
import { type Finding, Findings } from "./findings";
import { type LeftOut, reachingLeftOut, Units } from "./leave-out";
import type { ImportContext, PartCode } from "./parts/context";
import { ErrorTypes, errorsPart } from "./parts/errors";
import { Events } from "./parts/events";
import { PageSizes } from "./parts/limits";
import { Operations } from "./parts/operations";
import { documentTitle, purposePart } from "./parts/purpose";
import { resourceNames, resourcesPart } from "./parts/resources";
import { securityPart } from "./parts/security";
import { statesPart } from "./parts/states";
import { versioningPart } from "./parts/versions";
import { servedHere, unspecifiedParts, withoutPlatformAdditions } from "./platform-additions";
import { serverBase } from "./server-base";
import { child, isObject, type Json, type OpenApiSource } from "./source";
import { normaliseDocument, readsExtensionWebhooks } from "./walk";

export type { PartCode };

export interface ImportResult {
  /** The parts the document declares, by part name. */
  readonly parts: ReadonlyMap<string, PartCode>;
  readonly findings: readonly Finding[];
  /** The identifier of each component schema (its const in `./resources`), by component name. */
  readonly identifiers: ReadonlyMap<string, string>;
  /** The key of each component schema in `resources`, by component name (renamed if reserved). */
  readonly resourceKeys: ReadonlyMap<string, string>;
  readonly operations: number;
  /** The ids of part 4's operations, as written. */
  readonly operationIds: readonly string[];
  /** Where each operation is in the source, by id: what a finding about it points at. */
  readonly operationPointers: ReadonlyMap<string, string>;
  /** The ids of the operations that answer with each of part 7's error types, by its name. */
  readonly errorTypeUsers: ReadonlyMap<string, readonly string[]>;
  /** Part 5 declares a JWT scheme: the entry passes the JWT verifier. */
  readonly jwt: boolean;
  /** Part 4 declares an XML media type (RFC 7303): the entry passes the XML codec. */
  readonly xml: boolean;
}

interface ImportOptions {
  /** Called as the import goes, for a progress line. */
  readonly progress?: (what: string, done: number, total: number) => void;
  /** Called when a pass left units out, before the import converts again without them. */
  readonly notice?: (text: string) => void;
  /** Units (by pointer) to leave out from the start, each with its cause: what the platform refused. */
  readonly leaveOut?: LeftOut;
}

/** The kinds of `components` the parts read; any other is reported. */
const COMPONENT_KINDS = [
  "schemas",
  "responses",
  "parameters",
  "examples",
  "requestBodies",
  "headers",
  "securitySchemes",
  "callbacks",
  "pathItems",
];

/**
 * The contract a document declares, part by part (parts/), with every finding in the order
 * the parts are read: part 2, 5, then 4 (which collects 6, 7 and 8 as it goes), 6's
 * webhooks, 7, 1 and 9. Part 3 comes back only from a document served here.
 *
 * An operation, webhook or component schema that cannot be converted is left out, with a
 * finding naming the cause, never stopping the rest (src/importer/leave-out.ts): a pass
 * finds every unit that fails, and the next converts again without them (and without what
 * reaches a component left out), until one pass converts all it is given.
 */
export function importContract(source: OpenApiSource, options: ImportOptions = {}): ImportResult {
  const leftOut = new Map(options.leaveOut ?? []);
  for (;;) {
    const units = new Units(leftOut);
    const { result, document } = importPass(source, units, options.progress ?? (() => {}));
    if (units.failed.size === 0) return result;
    const before = leftOut.size;
    for (const [pointer, cause] of units.failed) leftOut.set(pointer, cause);
    // A unit that fails though it is no unit the parts leave out: nothing to leave out instead.
    if (leftOut.size === before) {
      const [pointer, cause] = [...units.failed][0] as [string, string];
      throw new Error(`${pointer}: ${cause}`);
    }
    for (const [pointer, cause] of reachingLeftOut(document, leftOut)) leftOut.set(pointer, cause);
    for (const [pointer, cause] of units.failed) options.notice?.(`left out ${pointer}: ${cause}`);
    options.notice?.("converting again without what is left out, and without what uses it");
  }
}

/** One pass of an import: every unit not left out, each failure kept in `units`. */
function importPass(
  source: OpenApiSource,
  units: Units,
  progress: (what: string, done: number, total: number) => void,
): { result: ImportResult; document: Json } {
  const findings = new Findings();
  for (const { pointer, message } of source.conversionWarnings ?? [])
    findings.changed(pointer, `converted from ${source.convertedFrom} with a loss: ${message}`);
  for (const { pointer, message } of source.danglingReferences ?? [])
    findings.lost(pointer, message);
  for (const { kind, pointer, message } of source.mistyped ?? [])
    findings.add(kind, pointer, message);
  // A document this platform served is read without what the platform adds to it.
  const ours = servedHere(source.document);
  // What a document served here says is not specified stays so (its info.version, say).
  const unspecified = ours ? unspecifiedParts(source.document) : new Set<number>();
  const document = withoutPlatformAdditions(
    normaliseDocument(source.document, source.major),
    findings,
  );
  if (readsExtensionWebhooks(source.document))
    findings.changed(
      "#/x-webhooks",
      "read as the document's webhooks (OpenAPI 3.1 §4.8.1 declares them in `webhooks`), served there",
    );
  documentFindings(document, findings);
  const components = isObject(document.components) ? document.components : {};
  const schemas = schemasKept(components, units, findings);
  const names = resourceNames(schemas, findings);
  const { base, kept } = serverBase(source.document);
  if (base !== "")
    findings.changed(
      "#/servers",
      `the servers' path ${base} is written in front of every path (${base}/…), and each server without it: the same URLs, served by the Worker as its servers serve them`,
    );
  else if (kept) findings.changed("#/servers", kept);
  const ctx: ImportContext = { document, components, findings, ours, units, base, ...names };
  const parts = new Map<string, PartCode>();
  const set = (name: string, part: PartCode | undefined) => part && parts.set(name, part);

  const resources = resourcesPart(ctx, schemas, progress);
  set("states", statesPart(schemas, names.resourceKeys));
  set("resources", resources);
  const security = securityPart(ctx, documentTitle(document));
  set("authentication", security.part);
  const errorTypes = new ErrorTypes(ctx);
  const events = new Events(ctx);
  const limits = new PageSizes();
  const operations = new Operations(ctx, { security, errors: errorTypes, limits, events });
  operations.addPaths(progress);
  events.addWebhooks();
  const errors = errorsPart(ctx, errorTypes);
  const endpoints = operations.part((id) =>
    errorTypes.presentsOf(id, errors.presenting, errors.presentable),
  );
  set("errors", errors.part);
  set("endpoints", endpoints);
  set("events", events.part());
  set("limits", limits.part());
  set("purpose", purposePart(ctx, operations.tagsUsed));
  set("versioning", versioningPart(document, unspecified));
  componentFindings(components, findings);
  const result: ImportResult = {
    parts,
    findings: findings.list,
    identifiers: names.identifiers,
    resourceKeys: names.resourceKeys,
    operations: operations.ids.size,
    operationIds: [...operations.ids],
    operationPointers: operations.pointers,
    errorTypeUsers: new Map(
      [...errorTypes.types].map(([name, use]) => [name, [...use.operations]]),
    ),
    jwt: security.jwt.size > 0,
    xml: operations.xml,
  };
  return { result, document };
}

/** The component schemas but those left out, each of which is reported. */
function schemasKept(components: Json, units: Units, findings: Findings): Json {
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const kept: Json = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const pointer = child("#", "components", "schemas", name);
    const cause = units.leftOut.get(pointer);
    if (cause === undefined) kept[name] = schema;
    else findings.lost(pointer, `left out: ${cause}`);
  }
  return kept;
}

/** The document's own extensions, and a JSON Schema dialect other than OpenAPI 3.1's. */
function documentFindings(document: Json, findings: Findings): void {
  for (const key of Object.keys(document))
    if (key.startsWith("x-"))
      findings.lost(child("#", key), `${key}: an extension of the document`);
  if (
    typeof document.jsonSchemaDialect === "string" &&
    document.jsonSchemaDialect !== "https://spec.openapis.org/oas/3.1/dialect/base"
  )
    findings.lost(
      "#/jsonSchemaDialect",
      "another JSON Schema dialect: schemas are read as OpenAPI 3.1's",
    );
}

/** Components no part reads, and links. */
function componentFindings(components: Json, findings: Findings): void {
  for (const kind of Object.keys(components))
    if (!COMPONENT_KINDS.includes(kind))
      findings.lost(child("#/components", kind), `components.${kind}: not carried`);
  if (isObject(components.links)) findings.lost("#/components/links", "links: not carried");
}
