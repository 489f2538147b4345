/**
 * What a handler of an operation is: a function of the operation's validated input whose
 * result must be one of the operation's declared responses. Both sides are typed from the
 * declaration, so a handler cannot read an undeclared field or answer an undeclared status.
 */
import type { output } from "zod/v4/core";
import type { Contract, Operation, Schema } from "./contract";

type Declared<O extends Operation> = O["request"] extends object ? O["request"] : object;

type PartOf<O extends Operation, K extends "params" | "query" | "headers" | "cookies"> =
  Declared<O> extends { readonly [P in K]: infer S extends Schema } ? output<S> : undefined;

type BodyOf<O extends Operation> =
  Declared<O> extends { readonly body: infer B extends Readonly<Record<string, Schema>> }
    ? { [M in keyof B & string]: { readonly mediaType: M; readonly value: output<B[M]> } }[keyof B &
        string]
    : undefined;

/** The validated input of an operation, one member per request part. */
export interface OperationInput<O extends Operation> {
  readonly params: PartOf<O, "params">;
  readonly query: PartOf<O, "query">;
  readonly headers: PartOf<O, "headers">;
  readonly cookies: PartOf<O, "cookies">;
  readonly body: BodyOf<O>;
}

type ResultFor<S extends number, R> = R extends {
  readonly content: infer C extends Readonly<Record<string, Schema>>;
}
  ? {
      [M in keyof C & string]: {
        readonly status: S;
        /** Which declared media type the body is; the first declared one when absent. */
        readonly mediaType?: M;
        readonly body: output<C[M]>;
        readonly headers?: Readonly<Record<string, string>>;
      };
    }[keyof C & string]
  : {
      readonly status: S;
      readonly body?: undefined;
      readonly headers?: Readonly<Record<string, string>>;
    };

/** One of the operation's declared responses. */
export type OperationResult<O extends Operation> = {
  [S in keyof O["responses"] & number]: ResultFor<S, O["responses"][S]>;
}[keyof O["responses"] & number];

/**
 * What a handler may use besides its validated input. It never holds the raw request, so
 * a credential the platform checked (and kept from the schemas) cannot reach a handler.
 */
export interface HandlerContext {
  /** The id of this request, as sent back in `X-Request-Id`: quote it in log lines. */
  readonly requestId: string;
  /** The Worker's bindings (storage, queues, vars), for the handler's own use. */
  readonly env: Env;
  /** Work that may finish after the answer is sent (`ExecutionContext.waitUntil`). */
  readonly waitUntil: (promise: Promise<unknown>) => void;
}

export type OperationHandler<O extends Operation> = (
  input: OperationInput<O>,
  context: HandlerContext,
) => OperationResult<O> | Promise<OperationResult<O>>;

/** Handlers by operation id; an operation without one is a validating placeholder (501). */
export type Handlers<C extends Contract> = {
  readonly [K in keyof C["operations"]]?: OperationHandler<C["operations"][K]>;
};

/** The loose shape the platform runs handlers through, once their types have been checked. */
export interface AnyResult {
  readonly status: number;
  readonly mediaType?: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}
export type AnyHandler = (
  input: unknown,
  context: HandlerContext,
) => AnyResult | Promise<AnyResult>;

/** Attaches handlers to a contract's operations by id, checking each against its declaration. */
export function defineHandlers<C extends Contract>(
  _contract: C,
  handlers: NoInfer<Handlers<C>>,
): Handlers<C> {
  return handlers;
}
