/**
 * What the sandbox is given to answer one operation (answer.ts): what a handler gets, and
 * the caller's records; and what it gives back.
 */
import type { Contract } from "../../contract-language/contract";
import type { AnyResult } from "../../contract-language/define-handlers";
import type { Refusal } from "../../engine/refusal";
import type { Making } from "./made";
import type { SandboxRecords } from "./records";

/** What the sandbox is given: what a handler gets, and the caller's records. */
export interface SandboxCall {
  readonly contract: Contract;
  readonly operationId: string;
  /** The validated request (`ValidatedInput`). */
  readonly input: {
    readonly params?: unknown;
    readonly query?: unknown;
    readonly body?: { readonly mediaType: string; readonly value: unknown } | undefined;
  };
  readonly records: SandboxRecords;
  /** The request's header fields, for its preconditions (RFC 9110 §13). */
  readonly headers?: Headers;
  /** The request's URL, for the links of a page. */
  readonly url?: string;
  /** The contract's servers' origins and the deployment's, for URLs made on them (made.ts). */
  readonly origins?: Making["origins"];
  /** The run path's own helpers, as a handler gets them. */
  readonly emit: (event: string, payload: unknown) => void;
  readonly transition: (current: string) => string;
}

/** A handler's result, or a refusal the run path answers as a problem. */
export type SandboxAnswer = { readonly result: AnyResult } | { readonly refusal: Refusal };
