/**
 * The example book (src/engine/example-book.ts), made when the Worker is built: for each operation without a
 * handler, the JSON Schema of each declared answer (with zod's converter, which the Worker
 * does not ship, as the OpenAPI document writes it) and the examples it may serve. Each
 * named example is held to its answer's schema as a handler's answer is
 * (src/engine/operations/response-conformance.ts): one that does not match is left out of
 * the book and reported, with the pointer of its place in the served document and of the
 * member at fault; so is an answer no value can be made for. The build prints the findings
 * (src/build/write.ts); none stops it, so a document whose examples are wrong still imports.
 */
import { $ZodAsyncError, safeParse } from "zod/v4/core";
import {
  type Contract,
  isMediaDeclaration,
  type Operation,
  operationShapes,
  type ResponseDeclaration,
  resolveSchema,
  type Schema,
  schemaOf,
} from "../../contract-language/contract";
import { bodyKind } from "../../contract-language/media-types";
import {
  type BookAnswer,
  EMPTY_BOOK,
  type ExampleBook,
  type JsonSchema,
} from "../../engine/example-book";
import type { Convert } from "../../engine/mock-seam";
import { schemaComponents } from "../../engine/openapi/schemas";
import { describeIssue, jsonPointer } from "../../engine/zod/issues";
import { viewOf, withoutWriteOnly } from "../../engine/zod/views";
import type { JsonSchemaConverter } from "../../platform/openapi/document";
import { generateValue } from "./generate";
import { escapeToken } from "./validate";

/** The book, and what the build reports of it: one line per example it left out. */
interface MadeBook {
  readonly book: ExampleBook;
  readonly findings: readonly string[];
}

/** What the build could not check: a schema zod checks only asynchronously (a promise). */
const ASYNC = Symbol("checked when served");

/**
 * Why `value` does not match `schema` as an answer's body (the handler's check), undefined
 * when it does, `ASYNC` when only an asynchronous check can tell: the Worker checks it then.
 */
function mismatch(schema: Schema, value: unknown): string | typeof ASYNC | undefined {
  try {
    const parsed = safeParse(viewOf(schema, "response"), value);
    if (parsed.success) return undefined;
    return parsed.error.issues
      .map((issue) => `${jsonPointer(issue.path)} ${describeIssue(issue)}`)
      .join("; ");
  } catch (error) {
    if (error instanceof $ZodAsyncError) return ASYNC;
    throw error;
  }
}

/** Whether `value` holds a member `schema` marks write-only, which the Worker leaves out. */
function holdsSecrets(schema: Schema, value: unknown): boolean {
  const dropped: string[] = [];
  withoutWriteOnly(schema, value, dropped);
  return dropped.length > 0;
}

/** The place of one media type of an answer in the served document (RFC 6901). */
function pointerOf(operation: Operation, key: string, type: string): string {
  return `#/paths/${escapeToken(operation.path)}/${operation.method.toLowerCase()}/responses/${key}/content/${escapeToken(type)}`;
}

/** A media type of the book while the build makes it: `unmade` is set once it is known. */
type MadeMedia = {
  schema: JsonSchema;
  examples: string[];
  unmade?: true;
  madeBytes?: true;
  made?: unknown;
  unvetted?: true;
};

/** An answer with header fields while the build makes it: `madeHeaders` is set once made. */
type MadeAnswer = { content: BookAnswer["content"]; headers: JsonSchema; madeHeaders?: unknown };

interface Maker {
  readonly convert: Convert;
  readonly findings: string[];
  /** Answers whose header values are made once every component is made, with their seeds. */
  readonly headers: { answer: MadeAnswer; seed: string }[];
  /** Answers to hold to their schemas once every component is made. */
  readonly pending: {
    schema: Schema;
    media: MadeMedia;
    where: string;
    seed: string;
  }[];
}

/** One answer's media types: their JSON Schemas and the examples that match them. */
function answerOf(maker: Maker, id: string, shape: Operation, key: string): BookAnswer {
  const declared = (shape.responses as Readonly<Record<string, ResponseDeclaration>>)[key];
  const content: Record<string, BookAnswer["content"][string]> = {};
  for (const [type, media] of Object.entries(declared?.content ?? {})) {
    const schema = schemaOf(media);
    const json = maker.convert(schema, "output", `${id}${key}`);
    const where = pointerOf(shape, key, type);
    const examples: string[] = [];
    let unvetted: true | undefined;
    const declaredExamples = isMediaDeclaration(media) ? media.examples : undefined;
    for (const [name, example] of Object.entries(declaredExamples ?? {})) {
      const reason = mismatch(schema, example.value);
      const served = reason === undefined || reason === ASYNC;
      if (reason === ASYNC || (served && holdsSecrets(schema, example.value))) unvetted = true;
      if (served) examples.push(name);
      else
        maker.findings.push(
          `operation ${id}: example ${name} (${where}/examples/${escapeToken(name)}) does not match its schema, so it is not served: ${reason}`,
        );
    }
    const made: MadeMedia = { schema: json, examples, ...(unvetted ? { unvetted } : {}) };
    content[type] = made;
    if (examples.length > 0) continue;
    // Binary bodies are served as their example's bytes; without one, with bytes made for
    // the answer (seeded, so the same every time): an answer in its media type, never a 501.
    if (bodyKind(type) === "binary") {
      made.madeBytes = true;
      maker.findings.push(
        `${where}: a binary answer with no example: answered with bytes made for it, not the API's own`,
      );
    } else maker.pending.push({ schema, media: made, where, seed: `${id} ${key} ${type}` });
  }
  const headers = declared?.headers;
  if (!headers) return { content };
  const answer: MadeAnswer = {
    content,
    headers: maker.convert(headers, "input", `${id}${key}Headers`),
  };
  maker.headers.push({ answer, seed: `${id} ${key}` });
  return answer;
}

/** Part 7's error type `name`, its members as one object (a member that may be absent is not required). */
function errorMembers(contract: Contract, name: string, convert: Convert): JsonSchema {
  const members = contract.errors[name]?.members ?? {};
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [member, schema] of Object.entries(members)) {
    properties[member] = convert(schema, "output", `${name}${member}`);
    if (resolveSchema(schema)._zod.optout !== "optional") required.push(member);
  }
  return { type: "object", properties, required };
}

/**
 * The book of `contract` for the operations `handled` does not name, with a finding for
 * each example left out and each answer no value can be made for.
 */
export function makeExampleBook(
  contract: Contract,
  jsonSchema: JsonSchemaConverter,
  handled: ReadonlySet<string>,
): MadeBook {
  // Every operation has a handler: the Worker has no examples feature to read a book, so it
  // carries none of the schemas either.
  if (Object.keys(contract.operations).every((id) => handled.has(id)))
    return { book: EMPTY_BOOK, findings: [] };
  const { convert, schemas } = schemaComponents(contract, jsonSchema);
  const maker: Maker = { convert, findings: [], pending: [], headers: [] };
  const operations: Record<string, Record<string, BookAnswer>[]> = {};
  const errors: Record<string, JsonSchema> = {};
  for (const [id, operation] of Object.entries(contract.operations)) {
    if (handled.has(id)) continue;
    operations[id] = operationShapes(operation).map((shape) =>
      Object.fromEntries(
        Object.keys(shape.responses).map((key) => [key, answerOf(maker, id, shape, key)]),
      ),
    );
    for (const name of operation.errors ?? [])
      errors[name] ??= errorMembers(contract, name, convert);
  }
  const components = { schemas: schemas as Record<string, JsonSchema> };
  // The value an answer without a matching example is made of, held to its schema as served.
  for (const { schema, media, where, seed } of maker.pending) {
    const made = generateValue(media.schema, { root: { components }, direction: "response", seed });
    const found = made.ok ? mismatch(schema, made.value) : made.reason;
    if (found === ASYNC || (made.ok && holdsSecrets(schema, made.value))) media.unvetted = true;
    const reason = found === ASYNC ? undefined : found;
    // Kept, so the Worker serves what was checked here rather than making it again.
    if (reason === undefined && made.ok) media.made = made.value;
    if (reason === undefined) continue;
    media.unmade = true;
    maker.findings.push(
      `${where}: no example, and no value made from its schema matches it (${reason}); it is answered 501`,
    );
  }
  // Each answer's header values, made as the Worker would make them (the same seed).
  for (const { answer, seed } of maker.headers) {
    const made = generateValue(answer.headers, { root: { components }, seed });
    if (made.ok) answer.madeHeaders = made.value;
  }
  return { book: { components, operations, errors }, findings: maker.findings };
}
