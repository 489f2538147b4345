/**
 * One comparison's shared state: the source (in 3.1's dialect), the served document, the
 * items recorded so far, the import's renames and the schema comparer.
 */
import { Renames } from "../renames";
import { isObject, type Json } from "../source";
import { brief, type Category, type Item, type Record_, sameJson } from "./items";
import { SchemaComparer } from "./schemas";

export const METHODS = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
] as const;

/** The served webhook a source webhook or callback operation is sent as. */
export interface Event {
  /** The event's name: the served webhook's, and its operationId. */
  readonly name: string;
  /** Why it is not the source's name, when it is not (one `changed` item). */
  readonly renamed?: string;
}

export const paths = (document: Json): Json => (isObject(document.paths) ? document.paths : {});

/** The components of one kind (`schemas`, `securitySchemes`) of a document. */
export const components = (document: Json, kind: string): Json =>
  isObject(document.components) && isObject(document.components[kind])
    ? (document.components[kind] as Json)
    : {};

/** The comparison of one source with the served document: each category's functions record into it. */
export class Comparer {
  readonly source: Json;
  readonly served: Json;
  readonly items: Item[] = [];
  readonly schemas: SchemaComparer;
  readonly renames: Renames;
  /** The security schemes the source declares and the served document does not. */
  readonly unserved: ReadonlySet<string>;

  constructor(source: Json, served: Json) {
    this.source = source;
    this.served = served;
    this.renames = new Renames(served);
    const servedSchemes = components(served, "securitySchemes");
    this.unserved = new Set(
      Object.keys(components(source, "securitySchemes")).filter(
        (name) => !Object.hasOwn(servedSchemes, name),
      ),
    );
    this.schemas = new SchemaComparer(source, served, this.renames, this.record);
  }

  readonly record: Record_ = (category, pointer, kept, note) => {
    this.items.push({ category, pointer, kept, ...(kept || !note ? {} : { note }) });
  };

  /** One item kept under another name or shape: the change is counted here, once. */
  change(category: Category, pointer: string, changed: string): void {
    this.items.push({ category, pointer, kept: true, changed });
  }

  /** One item: the source's value (when it states one) equals the served one. */
  same(category: Category, pointer: string, a: unknown, b: unknown, what: string): void {
    if (a === undefined) return;
    const kept = sameJson(a, b);
    this.record(
      category,
      pointer,
      kept,
      kept ? undefined : `${what}: ${brief(a)} is ${b === undefined ? "missing" : brief(b)}`,
    );
  }

  /** As same, for text: the whitespace around it is not what a reader reads. */
  text(category: Category, pointer: string, a: unknown, b: unknown, what: string): void {
    this.same(
      category,
      pointer,
      typeof a === "string" ? a.trim() : a,
      typeof b === "string" ? b.trim() : b,
      what,
    );
  }
}
