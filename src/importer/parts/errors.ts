/**
 * Part 7: error types. Each problem answer an operation documents (`application/problem+json`,
 * `+xml`, an error body of the API's own JSON, or none where the platform has a failure to
 * present) becomes an error type, one per `components.responses` entry and status or per
 * identical inline answer; each presents the platform's own failures at its status where it
 * can, and an operation's own error answers say which of its failures it answers so.
 */
import type { ErrorFact } from "../../contract-language/contract";
import { ERROR_TYPE } from "../../contract-language/document-marks";
import {
  type PlatformProblem,
  PROBLEM_CATALOGUE,
  PROBLEM_OWN_MEMBERS,
  RESERVED_PROBLEM_SLUGS,
} from "../../contract-language/problem-catalogue";
import { reasonPhrase } from "../../contract-language/status";
import { type Carried, carriesOf, type ErrorMedia, errorMediaOf } from "../error-bodies";
import { causeOf } from "../leave-out";
import { pascal } from "../names";
import { ownProblemSchema } from "../platform-additions";
import { componentCall, lazyCode, literal, propertyKey, type SchemaWriter } from "../schema-code";
import { child, componentOf, follow, isObject, type Json } from "../source";
import { examplesOf } from "./content";
import { counted, fileWriter, type ImportContext, type PartCode, strings } from "./context";

/**
 * The failures of part 3's machines and part 9's versions: a document the service did not
 * write declares neither (a document served here says what each type presents itself), so
 * they never happen there.
 */
const OF_OUR_PARTS: ReadonlySet<string> = new Set([
  "state-conflict",
  "unsupported-version",
  "version-gone",
  "not-in-version",
  "operation-gone",
]);

/**
 * Which platform failures an error type at each status presents (the spec's error model
 * over the platform's): each failure part 7 may present, at its status in the catalogue;
 * and validation failures at 400 too, where many specs answer invalid input (an
 * operation's 422, where it declares one, is preferred).
 */
const PRESENTS: Readonly<Record<number, readonly PlatformProblem[]>> = presentsByStatus();

function presentsByStatus(): Record<number, PlatformProblem[]> {
  const byStatus: Record<number, PlatformProblem[]> = {};
  const add = (status: number, kind: PlatformProblem) => {
    byStatus[status] = [...(byStatus[status] ?? []), kind];
  };
  for (const entry of PROBLEM_CATALOGUE)
    if (entry.presentable && !OF_OUR_PARTS.has(entry.slug)) add(entry.status, entry.slug);
  add(400, "validation-failed");
  return byStatus;
}

const PROBLEM_JSON = "application/problem+json";
/** RFC 9457 Appendix B's XML form of a problem, which the platform serves when asked for. */
const PROBLEM_XML = "application/problem+xml";
/** The members a problem's facts take; the platform fills them, a handler never gives them. */
const OWN_MEMBERS = new Set(PROBLEM_OWN_MEMBERS);

/** The statuses an error type can have: 400 to 599. */
const errorStatus = (key: string) => /^[45]\d\d$/.test(key);

/**
 * The failures the type that presents at `status` answers for every operation: only those
 * no operation could document (a path no operation has, a method a path lacks). An
 * operation's own failures are answered as it documents them, and where it documents
 * nothing the platform's own answer stands.
 */
const globalPresents = (status: number): PlatformProblem[] =>
  (PRESENTS[status] ?? []).filter((kind) => kind === "not-found" || kind === "method-not-allowed");

interface ErrorUse {
  readonly name: string;
  readonly status: number;
  readonly response: Json;
  readonly pointer: string;
  readonly operations: Set<string>;
  /** How its body is declared: RFC 9457's, the API's own JSON, or none. */
  readonly media: ErrorMedia;
}

/** Part 7's error types as part 4's responses are read, and each operation's own. */
export class ErrorTypes {
  readonly types = new Map<string, ErrorUse>();
  /** Each operation's error types, by status: what its own failures are answered as. */
  readonly byOperation = new Map<string, Map<number, string>>();
  /** Where each operation is in the source, for its findings. */
  readonly operationPointers = new Map<string, string>();
  /** In a document served here, each operation's own presents, as it says them (`x-presents`). */
  readonly operationPresents = new Map<string, string>();
  readonly #keys = new Map<string, string>();
  readonly #reserved = new Set<string>(RESERVED_PROBLEM_SLUGS);
  readonly #ctx: ImportContext;

  /** A document served here declares every error type in components.responses, with its status. */
  constructor(ctx: ImportContext) {
    this.#ctx = ctx;
    const responses = ctx.components.responses;
    if (!ctx.ours || !isObject(responses)) return;
    for (const [name, response] of Object.entries(responses)) {
      const own = isObject(response) ? response[ERROR_TYPE] : undefined;
      const status = isObject(own) ? Number(own.status) : Number.NaN;
      if (!isObject(response) || !Number.isInteger(status)) continue;
      this.#keys.set(`${name}\n${status}`, name);
      this.types.set(name, {
        name,
        status,
        response,
        pointer: child("#/components/responses", name),
        operations: new Set(),
        media: errorMediaOf(isObject(response.content) ? Object.keys(response.content) : []) ?? {
          kind: "none",
        },
      });
    }
  }

  /** A name no error type has, never a problem type slug of the platform's. */
  #name(base: string, status: number): string {
    let name = base.replace(/[^A-Za-z0-9._-]/g, "") || `Error${status}`;
    if (this.#reserved.has(name)) name = `${name}-${status}`;
    let unique = name;
    for (let n = 2; [...this.types.values()].some((e) => e.name === unique); n += 1)
      unique = `${name}${n}`;
    return unique;
  }

  /** The error type a problem response becomes (one per component and status, or per identical inline response). */
  typeFor(
    raw: unknown,
    response: Json,
    status: number,
    pointer: string,
    operation: string,
    media: ErrorMedia,
  ): string {
    const component =
      isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
    const fromComponent = component?.kind === "responses";
    const key = fromComponent ? `${component.name}\n${status}` : `${status}\n${literal(response)}`;
    let name = this.#keys.get(key);
    if (!name) {
      const words = problemTitle(response.description, status).split(/\s+/).slice(0, 4).join(" ");
      name = this.#name(fromComponent ? component.name : pascal(words) || `Error${status}`, status);
      if (!fromComponent)
        this.#ctx.findings.changed(
          pointer,
          `an inline problem response: part 7's error type ${name}`,
        );
      this.#keys.set(key, name);
      this.types.set(name, {
        name,
        status,
        response,
        pointer: component ? `#/components/responses/${component.name}` : pointer,
        operations: new Set(),
        media,
      });
    }
    this.types.get(name)?.operations.add(operation);
    const own = this.byOperation.get(operation) ?? new Map<number, string>();
    if (!own.has(status)) own.set(status, name);
    this.byOperation.set(operation, own);
    return name;
  }

  /** Records where an operation is and, in a document served here, what it presents. */
  noteOperation(id: string, pointer: string, op: Json, marker: string): void {
    this.operationPointers.set(id, pointer);
    const served = op[marker];
    if (this.#ctx.ours && isObject(served) && Object.keys(served).length > 0)
      this.operationPresents.set(id, `presents: ${literal(served)}`);
  }

  /** For each status, the error type that presents the platform's failures there: the most used. */
  presenting(): Map<number, string> {
    const presenting = new Map<number, string>();
    for (const error of this.types.values()) {
      const current = presenting.get(error.status);
      const other = current ? this.types.get(current) : undefined;
      if (!other || error.operations.size > other.operations.size)
        presenting.set(error.status, error.name);
    }
    return presenting;
  }

  /**
   * An operation's own error answers, where they differ from the error model's: its
   * `presents` field, or "" (`presentable`: types no required member keeps from presenting).
   */
  presentsOf(
    id: string,
    presenting: ReadonlyMap<number, string>,
    presentable: ReadonlySet<string>,
  ): string {
    if (this.#ctx.ours) return this.operationPresents.get(id) ?? "";
    const model = new Map<PlatformProblem, string>();
    for (const [status, name] of presenting)
      if (presentable.has(name)) for (const kind of globalPresents(status)) model.set(kind, name);
    const declared = this.byOperation.get(id) ?? new Map<number, string>();
    const own: Partial<Record<PlatformProblem, string>> = {};
    for (const [status, name] of declared) {
      if (!presentable.has(name)) continue;
      // An operation that documents a 422 and no 400 answers every bad body with it, a
      // malformed one too (FastAPI's): its clients expect no other status for it.
      const kinds: readonly PlatformProblem[] =
        status === 422 && !declared.has(400)
          ? [...(PRESENTS[status] ?? []), "malformed-request"]
          : (PRESENTS[status] ?? []);
      for (const kind of kinds) {
        // Validation failures are the 422 an operation declares, else its 400.
        if (kind === "validation-failed" && status === 400 && declared.has(422)) continue;
        if (model.get(kind) !== name) own[kind] = name;
      }
    }
    const kinds = Object.keys(own);
    if (kinds.length === 0) return "";
    this.#ctx.findings.changed(
      this.operationPointers.get(id) ?? "#",
      // Said without the operation's id (the pointer says which), so the console can say
      // the same answer of many operations once.
      `the operation answers the platform's own ${kinds.join(", ")} failures as ${[...new Set(Object.values(own))].join(", ")}, as it documents them`,
    );
    return `presents: ${literal(own)}`;
  }
}

/** An error answer's media, when it is an error type's (see ErrorTypes); undefined otherwise. */
export function errorMediaOfResponse(
  ctx: ImportContext,
  status: string,
  response: Json,
): ErrorMedia | undefined {
  const types = isObject(response.content) ? Object.keys(response.content) : [];
  // An error answer without a body is an error type only where the platform has a
  // failure it could present so; a document served here marks its error types itself.
  const found = errorStatus(status) ? errorMediaOf(types) : undefined;
  return found?.kind === "none" && (ctx.ours || !(Number(status) in PRESENTS)) ? undefined : found;
}

/** Part 7's file, and what each operation's `presents` is decided by. */
interface ErrorsPart {
  readonly part: PartCode | undefined;
  readonly presenting: ReadonlyMap<number, string>;
  /** Error types that could answer the platform's failures: nothing required is left unfilled. */
  readonly presentable: ReadonlySet<string>;
}

/** Part 7's file: each error type, presenting the platform's failures at its status. */
export function errorsPart(ctx: ImportContext, errors: ErrorTypes): ErrorsPart {
  const { writer, context } = fileWriter(ctx);
  const lines: string[] = [];
  const presenting = errors.presenting();
  const presentable = new Set<string>();
  for (const error of errors.types.values()) {
    const written = errorTypeOf(ctx, errors, error, () =>
      errorTypeFields(ctx, writer, context.referenced, error),
    );
    if (!written) continue;
    const { fields, requiredMembers, requiredNames, carried } = written;
    if (carried?.object === false)
      ctx.findings.changed(
        error.pointer,
        `${error.name}'s body is no JSON object of its own members (a list, a string, or only oneOf, anyOf or allOf), so it presents none of the platform's own failures: they are answered as problems (RFC 9457)`,
      );
    else if (requiredMembers === 0) presentable.add(error.name);
    else if (!ctx.ours && (PRESENTS[error.status] ?? []).length > 0)
      ctx.findings.changed(
        error.pointer,
        `${error.name} requires ${requiredNames.join(", ")}, which none of the platform's own failures fills, so those at ${error.status} are answered as problems (RFC 9457); a handler answers ${error.name} whole`,
      );
    fields.push(...presentsFields(ctx, error, presenting, requiredMembers, carried));
    lines.push(`${propertyKey(error.name)}: { ${fields.join(", ")} },`);
  }
  const part =
    lines.length > 0
      ? {
          body: `export const errors = {\n${lines.join("\n")}\n} as const satisfies Readonly<Record<string, ErrorType>>;`,
          count: lines.length,
          summary: counted(lines.length, "error type"),
          uses: context.uses,
          referenced: context.referenced,
        }
      : undefined;
  return { part, presenting, presentable };
}

/**
 * An error type's fields; when they cannot be converted, the operations that answer with
 * it are kept in the pass's units, to be left out of the next (src/importer/leave-out.ts).
 */
function errorTypeOf<T>(
  ctx: ImportContext,
  errors: ErrorTypes,
  error: ErrorUse,
  convert: () => T,
): T | undefined {
  try {
    return convert();
  } catch (thrown) {
    const using = [...error.operations].flatMap((id) => errors.operationPointers.get(id) ?? []);
    if (using.length === 0) throw thrown;
    const cause = `its error answer ${error.pointer} could not be converted (${causeOf(thrown)})`;
    for (const pointer of using) ctx.units.fail(pointer, cause);
    return undefined;
  }
}

/** Where an error type's body is in the source: its media type, media object and schema. */
interface ErrorBody {
  readonly mediaType: string | undefined;
  readonly media: unknown;
  readonly schema: unknown;
  readonly mediaPointer: string;
  readonly schemaPointer: string;
}

function errorBody(error: ErrorUse): ErrorBody {
  const mediaType = error.media.kind === "none" ? undefined : error.media.mediaType;
  const media = mediaType ? (error.response.content as Json)[mediaType] : undefined;
  const mediaPointer = child(error.pointer, "content", mediaType ?? PROBLEM_JSON);
  return {
    mediaType,
    media,
    schema: isObject(media) ? media.schema : undefined,
    mediaPointer,
    schemaPointer: child(mediaPointer, "schema"),
  };
}

/** One error type's fields but `presents`, and how many members a handler must give. */
function errorTypeFields(
  ctx: ImportContext,
  writer: SchemaWriter,
  referenced: Set<string>,
  error: ErrorUse,
): {
  fields: string[];
  requiredMembers: number;
  requiredNames: readonly string[];
  carried: Carried | undefined;
} {
  const { response, pointer } = error;
  const body = errorBody(error);
  // An error answer may have no body at all (`content` absent), as many documents say a 400.
  const xmlType = Object.keys(isObject(response.content) ? response.content : {}).find(
    (type) => type.toLowerCase() === PROBLEM_XML,
  );
  // RFC 9457 Appendix B's form of the same problem, negotiated by Accept.
  const xml = xmlType !== undefined && error.media.kind === "problem";
  // A document served here says the type's own title and description apart.
  const own = ownErrorType(response);
  const ownTitle = typeof own?.title === "string" ? own.title : undefined;
  const ownDescription = typeof own?.description === "string" ? own.description : undefined;
  const text = String(response.description ?? "").trim();
  const title = ownTitle ?? problemTitle(text, error.status);
  // The whole text, where the title is only its summary (a document served here says both).
  const description = own ? ownDescription : text !== title ? text : undefined;
  const fields: string[] = [
    `status: ${error.status}`,
    `title: ${literal(title)}`,
    ...(description ? [`description: ${literal(description)}`] : []),
    ...(xml ? ["xml: true"] : []),
  ];
  // An error body of the API's own shape: where the platform's facts go in it.
  const carried =
    error.media.kind === "json" && body.schema !== undefined
      ? carriesOf(ctx.document, body.schema, body.schemaPointer)
      : undefined;
  if (carried && error.media.kind === "json")
    fields.push(
      `body: ${literal({
        mediaType: error.media.mediaType,
        carries: carried.carries,
        ...(Object.keys(carried.fixed).length > 0 ? { fixed: carried.fixed } : {}),
        ...(carried.violations ? { violations: carried.violations } : {}),
      })}`,
    );
  const members = new MemberWriter(ctx, writer, carried);
  if (body.schema !== undefined && ctx.ours)
    fields.push(...servedSchemaFields(ctx, writer, members, body));
  else if (body.schema !== undefined)
    fields.push(...sourceSchemaFields(ctx, writer, referenced, members, body));
  if (own && typeof own.type === "string") fields.push(`type: ${literal(own.type)}`);
  const headers = headerFields(ctx, writer, response, pointer);
  if (headers) fields.push(`headers: ${headers}`);
  const examples = isObject(body.media)
    ? examplesOf(ctx, body.media, body.mediaPointer)
    : undefined;
  if (examples) fields.push(`examples: ${examples}`);
  errorTypeLosses(ctx, error, body);
  return {
    fields,
    requiredMembers: members.required,
    requiredNames: members.requiredNames,
    carried,
  };
}

/** The longest title a description is cut to, at a word's end. */
const TITLE_LENGTH = 80;

/**
 * A problem type's title from a response's description (RFC 9457 §3.1.3: "a short,
 * human-readable summary"): its first line's first sentence as plain text, without the
 * Markdown and HTML documents write there and past lines that only state a code, cut at a
 * word's end; the status's reason phrase (RFC 9110 §15) where the description says nothing.
 */
function problemTitle(description: unknown, status: number): string {
  const plain = String(description ?? "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]+/g, "")
    .replace(/^\s*#+\s*/gm, "");
  const lines = plain
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter((l) => /[A-Za-z0-9]/.test(l));
  // A line that only states a code (Zoom's "HTTP Status Code: 404", "Error Code: 2001")
  // says less than the first one after it.
  const reason = reasonPhrase(status).replace(/ /g, "\\s+");
  const code = new RegExp(
    `^(?:HTTP\\s+)?(?:status|response|error)?\\s*code\\s*:?\\s*\\d+\\.?(?:\\s+${reason}\\.?)?$`,
    "i",
  );
  const line = lines.find((l) => !code.test(l)) ?? lines[0];
  if (!line) return reasonPhrase(status);
  const sentence = line.split(/(?<=[.!?])\s/)[0]?.replace(/[:;,]$/, "") ?? line;
  if (sentence.length <= TITLE_LENGTH) return sentence;
  const cut = sentence.slice(0, TITLE_LENGTH + 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), TITLE_LENGTH / 2)).trimEnd()}…`;
}

const ownErrorType = (response: Json): Json | undefined =>
  isObject(response[ERROR_TYPE]) ? (response[ERROR_TYPE] as Json) : undefined;

/**
 * An error answer's headers, for the OpenAPI document: each as its schema says, with its
 * description, none required (no one but the spec sets an API's own header).
 */
function headerFields(
  ctx: ImportContext,
  writer: SchemaWriter,
  response: Json,
  pointer: string,
): string | undefined {
  if (!isObject(response.headers)) return undefined;
  const members: string[] = [];
  for (const [name, raw] of Object.entries(response.headers)) {
    const at = child(pointer, "headers", name);
    const { node: header } = follow(ctx.document, raw, at);
    if (!isObject(header) || name.toLowerCase() === "content-type") continue;
    const schema = isObject(header.schema) ? { ...header.schema } : {};
    if (typeof header.description === "string") schema.description = header.description;
    members.push(`${propertyKey(name.toLowerCase())}: ${writer.member(schema, at, false, "json")}`);
    if (header.required === true)
      ctx.findings.changed(
        at,
        `${name}: documented on the error answer but not required, since neither the platform nor a handler sets it`,
      );
  }
  return members.length > 0 ? lazyCode(`z.object({ ${members.join(", ")} })`) : undefined;
}

/** What an error type does not carry: links, other media types. */
function errorTypeLosses(ctx: ImportContext, error: ErrorUse, body: ErrorBody): void {
  const { response, pointer } = error;
  if (isObject(response.links))
    ctx.findings.lost(
      child(pointer, "links"),
      "links of a problem response: error types carry none",
    );
  for (const type of Object.keys(isObject(response.content) ? response.content : {}))
    if (
      type !== body.mediaType &&
      !(error.media.kind === "problem" && type.toLowerCase() === PROBLEM_XML)
    )
      ctx.findings.changed(
        child(pointer, "content", type),
        `${type}: the error type is answered as ${body.mediaType}${/xml/i.test(type) ? " (an XML alternative is served as RFC 9457 Appendix B's problem+xml where negotiated)" : ""}`,
      );
}

/** The members a handler gives an error type (those the platform fills left out), counting the required. */
class MemberWriter {
  required = 0;
  /** The required members a handler must give, so none of the platform's failures fills. */
  readonly requiredNames: string[] = [];
  readonly #ctx: ImportContext;
  readonly #writer: SchemaWriter;
  readonly #carried: Carried | undefined;

  constructor(ctx: ImportContext, writer: SchemaWriter, carried: Carried | undefined) {
    this.#ctx = ctx;
    this.#writer = writer;
    this.#carried = carried;
  }

  lines(object: Json, at: string, shapeOf?: string): string[] {
    const required = new Set(strings(object.required));
    const lines: string[] = [];
    for (const [member, sub] of Object.entries(
      isObject(object.properties) ? object.properties : {},
    )) {
      // RFC 9457's members, or in a body of its own those the platform fills, are not
      // given by a handler.
      if (this.#carried ? this.#carried.members.has(member) : OWN_MEMBERS.has(member)) continue;
      // A body of its own may name a member like a problem's fact without holding it (a
      // `status` that is a string): a handler cannot give it under that name, and the
      // platform does not fill it. Optional, answers leave it out; required, none could.
      if (OWN_MEMBERS.has(member)) {
        // Required, no answer of the type could be whole: the platform's own failures are
        // answered as problems (RFC 9457) instead, and the operation is kept.
        if (required.has(member)) {
          this.required += 1;
          this.requiredNames.push(member);
          this.#ctx.findings.lost(
            child(at, "properties", member),
            `required member ${member} of an error body: named like a problem's own member (RFC 9457 §3.1) but of another type, so neither the platform nor a handler can give it under that name; the platform's own failures at this status are answered as problems (RFC 9457) instead`,
          );
          continue;
        }
        this.#ctx.findings.lost(
          child(at, "properties", member),
          `member ${member} of an error body: named like a problem's own member (RFC 9457 §3.1) but of another type, so the platform does not fill it and a handler cannot give it; answers leave it out`,
        );
        continue;
      }
      if (required.has(member)) {
        this.required += 1;
        this.requiredNames.push(member);
      }
      const shape = shapeOf
        ? `${componentCall(shapeOf)}.shape${/^[A-Za-z_$][\w$]*$/.test(member) ? `.${member}` : `[${literal(member)}]`}`
        : this.#writer.member(sub, child(at, "properties", member), required.has(member), "json");
      lines.push(`${propertyKey(member)}: ${lazyCode(shape)}`);
    }
    return lines;
  }
}

/** A document served here: the spec's schema and the members, around the platform's Problem. */
function servedSchemaFields(
  ctx: ImportContext,
  writer: SchemaWriter,
  members: MemberWriter,
  body: ErrorBody,
): string[] {
  const fields: string[] = [];
  const problem = ownProblemSchema(ctx.document, body.schema);
  if (problem.schema !== undefined)
    fields.push(`schema: ${lazyCode(writer.schema(problem.schema, body.schemaPointer, "json"))}`);
  const lines = problem.members ? members.lines(problem.members, body.schemaPointer) : [];
  if (lines.length > 0) fields.push(`members: { ${lines.join(", ")} }`);
  return fields;
}

/** Any other document: its type URI where it gives one, its schema, and the members a handler gives. */
function sourceSchemaFields(
  ctx: ImportContext,
  writer: SchemaWriter,
  referenced: Set<string>,
  members: MemberWriter,
  body: ErrorBody,
): string[] {
  const fields: string[] = [];
  const followed = follow(ctx.document, body.schema, body.schemaPointer);
  const problem = followed.node;
  if (!isObject(problem)) return fields;
  const typeUri = problemTypeUri(ctx.document, problem, body.schemaPointer);
  if (typeof typeUri === "string" && /^[a-z][a-z0-9+.-]*:/i.test(typeUri))
    fields.push(`type: ${literal(typeUri)}`);
  fields.push(`schema: ${lazyCode(writer.schema(body.schema, body.schemaPointer, "json"))}`);
  const component = componentOf(followed.pointer);
  const id = component?.kind === "schemas" ? ctx.identifiers.get(component.name) : undefined;
  // A component object lends its members as they are (the same schema, by reference), where
  // its code is a plain object schema: a nullable one (`type: [object, null]`, 3.0's
  // `nullable: true`), an enum or a composition has no `.shape` to lend them from.
  const lend =
    id !== undefined &&
    isObject(problem.properties) &&
    plainObject(problem) &&
    !["allOf", "oneOf", "anyOf", "not", "enum", "const", "$ref"].some((key) => key in problem);
  const lines = members.lines(problem, followed.pointer, lend ? id : undefined);
  if (lend && lines.length > 0 && component) referenced.add(component.name);
  if (lines.length > 0) fields.push(`members: { ${lines.join(", ")} }`);
  return fields;
}

/** Whether `schema` is written as an object and nothing else: no `null` beside it. */
function plainObject(schema: Json): boolean {
  if (schema.nullable === true) return false;
  const type = schema.type;
  return (
    type === undefined ||
    type === "object" ||
    (Array.isArray(type) && type.length === 1 && type[0] === "object")
  );
}

/** The one value a problem schema's `type` member can have (const, a single enum, or its default). */
function problemTypeUri(document: Json, problem: Json, pointer: string): unknown {
  const typeMember = isObject(problem.properties)
    ? follow(document, problem.properties.type, pointer).node
    : undefined;
  if (!isObject(typeMember)) return undefined;
  if ("const" in typeMember) return typeMember.const;
  return Array.isArray(typeMember.enum) && typeMember.enum.length === 1
    ? typeMember.enum[0]
    : typeMember.default;
}

const FACT_WORDS: Readonly<Record<ErrorFact, string>> = {
  status: "status",
  statusString: "status",
  title: "title",
  detail: "detail",
  type: "type",
  requestId: "request id",
  timestamp: "time",
  retryAfter: "seconds to wait",
  allowedMethods: "allowed methods",
  supportedVersions: "supported versions",
  errors: "violations",
  fieldErrors: "violations by field",
  fieldErrorLists: "violations by field",
};

/**
 * What the platform's failures look like when `error` answers them: a problem (RFC 9457)
 * with the type's status, type and title, or the type's own JSON body with the facts it
 * carries, which may be none (then an empty object: said, never filled by a guess).
 */
function presentedAs(carried: Carried | undefined): string {
  if (!carried) return "(its status, type and title)";
  const facts = [
    ...new Set([
      ...(Object.keys(carried.carries) as ErrorFact[]).map((fact) => FACT_WORDS[fact]),
      ...(carried.violations ? [`violations (each ${itemWords(carried.violations)})`] : []),
    ]),
  ];
  return facts.length > 0
    ? `in its own body, which carries their ${facts.join(", ")}`
    : "with a body of {}: its schema has no member for any of their facts (status, title, detail, request id), so only the status and headers tell what failed";
}

/** What an item of a violation list holds, in words: `{ loc: segments, msg: message }`. */
function itemWords(list: NonNullable<Carried["violations"]>): string {
  const members = Object.entries(list.item).map(([fact, at]) => `${at?.slice(1)}: ${fact}`);
  return `{ ${members.join(", ")} } at ${list.at}`;
}

/** An error type's `presents`: as a document served here says, else the global failures at its status. */
function presentsFields(
  ctx: ImportContext,
  error: ErrorUse,
  presenting: ReadonlyMap<number, string>,
  requiredMembers: number,
  carried: Carried | undefined,
): string[] {
  if (ctx.ours) {
    // A document served here says what each type presents.
    const own = ownErrorType(error.response);
    const presents = own && Array.isArray(own.presents) ? own.presents : [];
    return presents.length > 0 ? [`presents: ${literal(presents)}`] : [];
  }
  const presents = globalPresents(error.status);
  if (presenting.get(error.status) !== error.name || presents.length === 0) return [];
  if (carried?.object === false) return [];
  // Said where its fields are written (errorsPart).
  if (requiredMembers > 0) return [];
  ctx.findings.changed(
    error.pointer,
    `${error.name} also answers the platform's own ${presents.join(" and ")} failures ${presentedAs(carried)}`,
  );
  return [`presents: ${literal(presents)}`];
}
