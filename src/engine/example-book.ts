/**
 * The example book: what an operation without a handler answers from under the `examples`
 * setting (src/engine/operations/unhandled.ts), made when the Worker is built
 * (`makeExampleBook`, src/mocks/examples/make-book.ts) and read in the Worker
 * (src/mocks/examples/answer.ts). It holds JSON
 * Schemas, because the Worker ships no JSON Schema converter, and the names of the examples
 * the build found to match their schemas, because an example that does not is reported
 * when the Worker is built and never served. The examples' values stay in the contract.
 */

/** A JSON Schema (2020-12, as zod writes it and the build keeps it): an object, or `true` / `false`. */
export type JsonSchema = boolean | Readonly<Record<string, unknown>>;

/** One media type of an answer. */
export interface BookMedia {
  readonly schema: JsonSchema;
  readonly examples: readonly string[];
  /**
   * Set when it has no example that matches and the value made from its schema does not
   * match it either (the build reports why): it is answered 501, as without the setting.
   */
  readonly unmade?: true;
  /**
   * Set for a binary answer with no example: it is answered with bytes made for it (no
   * image or file of the API's, but an answer in its media type, never a 501).
   */
  readonly madeBytes?: true;
  /**
   * The value made from its schema when it has no example that matches, as the build made
   * and checked it (the same seed the Worker would use): served as it is, so an answer from
   * examples runs no generator unless `Prefer: dynamic=true` asks for a fresh value.
   */
  readonly made?: unknown;
  /**
   * Set where a value it serves could be checked against its schema only asynchronously,
   * which the build does not do, or holds a member its schema marks write-only, which the
   * Worker leaves out as it serves it. Without it, every value served as it is (an example,
   * the value made) was held to the answer's schema by the build, as the Worker's answer
   * check holds a handler's, and holds no secret, so the Worker neither checks it again nor
   * looks for one (./operations/steps.ts).
   */
  readonly unvetted?: true;
}

/** One declared answer (a status, a range or `default`) of an operation. */
export interface BookAnswer {
  /**
   * Each media type's body: its JSON Schema (as the OpenAPI document writes an answer's, its
   * `$ref`s into `components`) and the names of its examples that match it, in the order
   * they are declared.
   */
  readonly content: Readonly<Record<string, BookMedia>>;
  /** The JSON Schema of its header fields, as text (what a request-side parse reads). */
  readonly headers?: JsonSchema;
  /** The header fields' values the build made from `headers` (as `made`), when it could. */
  readonly madeHeaders?: unknown;
}

/** The example book of a contract: only its operations without a handler are in it. */
export interface ExampleBook {
  /** What `#/components/schemas/<name>` refers to: part 2's resources and derived schemas. */
  readonly components: { readonly schemas: Readonly<Record<string, JsonSchema>> };
  /**
   * By operation id, then by variant (part 9; the operation's own declaration first), by
   * response key as declared (`"200"`, `"2XX"`, `"default"`).
   */
  readonly operations: Readonly<Record<string, readonly Readonly<Record<string, BookAnswer>>[]>>;
  /** Part 7's error types those operations may answer with: their members as one object. */
  readonly errors: Readonly<Record<string, JsonSchema>>;
}

/** The book of a contract that needs none (every operation has a handler, or none is declared). */
export const EMPTY_BOOK: ExampleBook = {
  components: { schemas: {} },
  operations: {},
  errors: {},
};

const COMPONENT = "#/components/schemas/";

/** The component names `value` refers to (`$ref`s and discriminator mappings alike, RFC 6901). */
function referred(value: unknown, into: Set<string>): void {
  if (typeof value === "string") {
    if (!value.startsWith(COMPONENT)) return;
    const token = value.slice(COMPONENT.length).split("/")[0] ?? "";
    into.add(decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~"));
  } else if (Array.isArray(value)) for (const item of value) referred(item, into);
  else if (value && typeof value === "object")
    for (const item of Object.values(value)) referred(item, into);
}

/**
 * The book of one operation: its answers, the error types it names and only the components
 * they reach. The Worker reads it on that operation's first answer from examples, so a
 * call reads what it needs, never the whole API's book.
 */
export function chapterOf(book: ExampleBook, id: string, errors: readonly string[]): ExampleBook {
  const answers = book.operations[id];
  const own = Object.fromEntries(
    errors.flatMap((name) => (book.errors[name] === undefined ? [] : [[name, book.errors[name]]])),
  );
  const reached = new Set<string>();
  referred([answers, own], reached);
  // No prototype: a component may be named like one of Object's own members.
  const schemas: Record<string, JsonSchema> = Object.create(null);
  for (const name of reached) {
    const schema = Object.hasOwn(book.components.schemas, name)
      ? book.components.schemas[name]
      : undefined;
    if (schema === undefined || Object.hasOwn(schemas, name)) continue;
    schemas[name] = schema;
    const further = new Set<string>();
    referred(schema, further);
    for (const next of further) reached.add(next);
  }
  return {
    components: { schemas },
    operations: answers ? { [id]: answers } : {},
    errors: own,
  };
}
