/**
 * What an operation may answer, planned once, on its first request: per status, its media
 * types (each with how it is written and its schema's answer view, where write-only members
 * may be left out), its header schema; the part 7 error types it may answer with; and what
 * `Accept` can decide (406 before the handler runs, `Vary: Accept` on the answer).
 *
 * The schemas (an error type's members too) are built when an answer is first checked or
 * made from them, not with the plan: an operation answered 501, or refused before its
 * handler, never reads them, and a large API's first requests would otherwise build (and
 * keep) every answer's schema, which cost a fresh isolate's first requests of the
 * 300-operation bench contract milliseconds of building and of garbage collection each.
 */
import {
  type Contract,
  type ErrorBody,
  type MediaDeclaration,
  type Operation,
  type ResponseDeclaration,
  resolveSchema,
  type Schema,
  type SchemaDeclaration,
  schemaOf,
} from "../../contract-language/contract";
import { type BodyKind, bodyKind } from "../../contract-language/media-types";
import { errorTypeUri } from "../../platform/problem-presenter";
import type { XmlMapping } from "../../platform/xml-seam";
import { viewOf } from "../zod/views";
import type { XmlMappings } from "../zod/xml-mappings";
import { successTypes } from "./failures";

export interface MediaPlan {
  readonly kind: BodyKind;
  /** The answer's view of the declared schema (write-only members not required). */
  readonly schema: Schema;
  /** The declared schema itself, where some member is write-only; undefined where none is. */
  readonly writeOnly: Schema | undefined;
  /** For XML: how the answer is written from the value the handler returns. */
  readonly xml?: XmlMapping;
}

export interface StatusPlan {
  /** The declared media types, in declaration order (the first is the default). */
  readonly types: readonly string[];
  readonly media: ReadonlyMap<string, MediaPlan>;
  readonly headers: Schema | undefined;
}

export interface DeclaredError {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly members: Readonly<Record<string, Schema>>;
  /** Its own body, where part 7 gives it one instead of RFC 9457's document. */
  readonly body?: ErrorBody;
}

export interface ResponsePlan {
  /** Exact statuses; a range (`4XX`) under its first digit times -1 (-4); `default` under 0. */
  readonly statuses: ReadonlyMap<number, StatusPlan>;
  /** The media types every success answer is one of, or `undefined` (the 406 rule, `successTypes`). */
  readonly successTypes: readonly string[] | undefined;
  /** Whether `Accept` chooses among several media types of one status (RFC 9110 §12.5.5). */
  readonly vary: boolean;
  readonly errors: ReadonlyMap<string, DeclaredError>;
}

const RANGE_KEY = /^([1-5])XX$/;
const DEFAULT_KEY = 0;

/** Where a response key is kept in `ResponsePlan.statuses`. */
function statusKey(code: string): number {
  if (code === "default") return DEFAULT_KEY;
  const range = RANGE_KEY.exec(code);
  return range ? -Number(range[1]) : Number(code);
}

/**
 * The declaration an answer of `status` is checked against: its exact status, else its
 * range, else `default` (OpenAPI 3.1 §4.8.16.2).
 */
export function statusPlan(plan: ResponsePlan, status: number): StatusPlan | undefined {
  return (
    plan.statuses.get(status) ??
    plan.statuses.get(-Math.floor(status / 100)) ??
    plan.statuses.get(DEFAULT_KEY)
  );
}

/** A value made on its first read, then kept. */
function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

function mediaPlan(
  type: string,
  content: SchemaDeclaration | MediaDeclaration,
  xml?: XmlMappings,
): MediaPlan {
  const kind = bodyKind(type);
  // schemaOf builds the declared schema once and keeps it (contract-language/lazy.ts).
  // Write-only members (a secret a client sent) are not required in an answer.
  const schema = once(() => viewOf(schemaOf(content), "response", "checking"));
  const mapping =
    kind === "xml" && xml ? once(() => xml(schemaOf(content), "response")) : undefined;
  // A schema with no mark is its own view (src/engine/zod/views.ts), worked out once.
  const writeOnly = once(() => {
    const declared = schemaOf(content);
    return viewOf(declared, "response") === declared ? undefined : declared;
  });
  return {
    kind,
    get schema() {
      return schema();
    },
    get writeOnly() {
      return writeOnly();
    },
    get xml() {
      return mapping?.();
    },
  };
}

export function planResponses(
  contract: Contract,
  operation: Operation,
  xml?: XmlMappings,
): ResponsePlan {
  const statuses = new Map<number, StatusPlan>();
  let vary = false;
  for (const [code, declared] of Object.entries(operation.responses) as [
    string,
    ResponseDeclaration,
  ][]) {
    const status = statusKey(code);
    const media = new Map<string, MediaPlan>(
      Object.entries(declared.content ?? {}).map(([type, content]): [string, MediaPlan] => [
        type,
        mediaPlan(type, content, xml),
      ]),
    );
    const types = [...media.keys()];
    const headers = once(() => resolveSchema(declared.headers));
    statuses.set(status, {
      types,
      media,
      get headers() {
        return headers();
      },
    });
    if (types.length > 1) vary = true;
  }
  const errors = new Map<string, DeclaredError>();
  for (const name of operation.errors ?? []) {
    const error = contract.errors[name];
    if (!error) continue;
    const members = once(() =>
      Object.fromEntries(
        Object.entries(error.members ?? {}).map(([member, schema]) => [
          member,
          resolveSchema(schema),
        ]),
      ),
    );
    errors.set(name, {
      type: errorTypeUri(name, error),
      title: error.title,
      status: error.status,
      get members() {
        return members();
      },
      ...(error.body ? { body: error.body } : {}),
    });
  }
  return {
    statuses,
    successTypes: successTypes(operation),
    vary,
    errors,
  };
}
