/**
 * What every part of an import shares: the document read without what the platform adds
 * to it, the findings, the names of the component schemas, and the code of one part file.
 */
import type { Findings } from "../findings";
import type { Units } from "../leave-out";
import { type Helper, literal, type SchemaContext, SchemaWriter } from "../schema-code";
import { child, type Json } from "../source";

/** The code of one part file's declarations, with what it needs imported. */
export interface PartCode {
  /** The declarations: consts, then `export const <part> = …`. */
  readonly body: string;
  readonly count: number;
  /** What the part declares, in a few words, for the summary. */
  readonly summary: string;
  readonly uses: ReadonlySet<Helper>;
  /** Component schemas it refers to (imported from `./resources`). */
  readonly referenced: ReadonlySet<string>;
  /** The type its declarations satisfy, where it is not the part's own (`SchemaDeclaration`). */
  readonly type?: string;
}

/** One import's shared state: read by every part, findings added in the order parts are read. */
export interface ImportContext {
  /** The document in 3.1's dialect, without the platform's own parts. */
  readonly document: Json;
  readonly components: Json;
  readonly findings: Findings;
  /** What this pass leaves out, and each unit that fails in it (src/importer/leave-out.ts). */
  readonly units: Units;
  /** A document this platform served: read back as the contract it was served from. */
  readonly ours: boolean;
  /** The identifier of each component schema (its const in `./resources`), by component name. */
  readonly identifiers: ReadonlyMap<string, string>;
  /** The key of each component schema in `resources`, by component name (renamed if reserved). */
  readonly resourceKeys: ReadonlyMap<string, string>;
  /** The path the servers put in front of every path, moved into each (src/importer/server-base.ts); "" for none. */
  readonly base: string;
}

/** A writer of one part file: its own record of helpers and referenced components. */
export function fileWriter(
  ctx: ImportContext,
  deferred: (name: string) => boolean = () => false,
): { writer: SchemaWriter; context: SchemaContext } {
  const context: SchemaContext = {
    document: ctx.document,
    findings: ctx.findings,
    identifiers: ctx.identifiers,
    resourceKeys: ctx.resourceKeys,
    deferred,
    uses: new Set(),
    referenced: new Set(),
  };
  return { writer: new SchemaWriter(context), context };
}

/** A part that needs no helper and refers to no component. */
export function plainPart(body: string, count: number, summary: string): PartCode {
  return { body, count, summary, uses: new Set(), referenced: new Set() };
}

/** `1 operation`, `2 operations`. */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

export const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** A response's key in a declaration: a status, a quoted range (`"2XX"`), `default`, or none. */
export function responseKey(status: string): string | undefined {
  if (/^[2-5]\d\d$/.test(status)) return status;
  if (/^[2-5]XX$/i.test(status)) return literal(status.toUpperCase());
  return status === "default" ? "default" : undefined;
}

/** `x-` members of an object (but those it `keeps`), each reported lost as an extension of `what`. */
export function extensionsLost(
  ctx: ImportContext,
  node: Json,
  pointer: string,
  what: string,
  keeps: readonly string[] = [],
): void {
  for (const key of Object.keys(node))
    if (key.startsWith("x-") && !keeps.includes(key))
      ctx.findings.lost(child(pointer, key), `${key}: an extension of ${what}`);
}
