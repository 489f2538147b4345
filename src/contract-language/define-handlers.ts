/**
 * What a handler of an operation is: a function of the operation's validated input whose
 * result must be one of the operation's declared responses, or one of the error types it
 * declares. Both sides are typed from the declaration, so a handler cannot read an
 * undeclared field, answer an undeclared status or an undeclared error.
 */
import type { output } from "zod/v4/core";
import type {
  Built,
  Contract,
  MediaDeclaration,
  Operation,
  OperationVariants,
  SchemaDeclaration,
  StatusRange,
} from "./contract";
import type { ResourceStore, Store } from "./handler-store";
import type { RequestValue, ResponseValue } from "./schema";

type Declared<O extends Operation> = O["request"] extends object ? O["request"] : object;

type PartOf<O extends Operation, K extends "params" | "query" | "headers" | "cookies"> =
  Declared<O> extends { readonly [P in K]: infer S extends SchemaDeclaration }
    ? output<Built<S>>
    : undefined;

/** The schema of a declared media type, whichever way it was written (a function: what it builds). */
type SchemaOf<D> = D extends MediaDeclaration
  ? Built<D["schema"]>
  : D extends SchemaDeclaration
    ? Built<D>
    : never;

type BodyOf<O extends Operation> =
  Declared<O> extends { readonly body: infer B extends object }
    ?
        | {
            [M in keyof B & string]: {
              readonly mediaType: M;
              readonly value: RequestValue<SchemaOf<B[M]>>;
            };
          }[keyof B & string]
        | (Declared<O> extends { readonly bodyRequired: false } ? undefined : never)
    : undefined;

/** The validated input of an operation, one member per request part. */
export interface OperationInput<O extends Operation> {
  readonly params: PartOf<O, "params">;
  readonly query: PartOf<O, "query">;
  readonly headers: PartOf<O, "headers">;
  readonly cookies: PartOf<O, "cookies">;
  readonly body: BodyOf<O>;
}

/** The body every declared media type of `C` can be written from (their intersection). */
type EveryBody<C> = {
  [M in keyof C & string]: (body: ResponseValue<SchemaOf<C[M]>>) => void;
}[keyof C & string] extends (body: infer B) => void
  ? B
  : never;

type ResultFor<S extends number, R> = R extends { readonly content: infer C extends object }
  ?
      | {
          [M in keyof C & string]: {
            readonly status: S;
            /** Which declared media type the body is written as. */
            readonly mediaType: M;
            readonly body: ResponseValue<SchemaOf<C[M]>>;
            readonly headers?: Readonly<Record<string, string>>;
          };
        }[keyof C & string]
      | {
          readonly status: S;
          /**
           * Absent: the platform chooses among the declared media types from the request's
           * `Accept` (RFC 9110 §12.5.1), so the body must be one each of them can be written
           * from (JSON and XML of one object schema take the same object; a text type takes
           * a string, which no object is), or the answer does not compile.
           */
          readonly mediaType?: undefined;
          readonly body: EveryBody<C>;
          readonly headers?: Readonly<Record<string, string>>;
        }
  : {
      readonly status: S;
      readonly body?: undefined;
      readonly headers?: Readonly<Record<string, string>>;
    };

/** Members of a part 7 error type, as the handler gives them: optional where the schema allows absence. */
type MembersOf<M> = {
  readonly [K in keyof M as undefined extends MemberValue<M[K]> ? never : K]: MemberValue<M[K]>;
} & {
  readonly [K in keyof M as undefined extends MemberValue<M[K]> ? K : never]?: MemberValue<M[K]>;
};

/** The value of one member of an error type, from its schema (or what its function builds). */
type MemberValue<D> = output<Built<D> & SchemaDeclaration & object>;

/** An answer of one of part 7's error types: the platform adds status, type, title and request id. */
type ErrorResultFor<C extends Contract, N extends keyof C["errors"]> = {
  readonly error: N;
  /** A sentence for this occurrence (RFC 9457 §3.1.4); never what the client sent. */
  readonly detail?: string;
  readonly headers?: Readonly<Record<string, string>>;
} & (C["errors"][N] extends { readonly members: infer M extends object }
  ? { readonly members: MembersOf<M> }
  : { readonly members?: undefined });

type ErrorResultOf<C extends Contract, O extends Operation> = O extends {
  readonly errors: readonly (infer N)[];
}
  ? { [K in N & keyof C["errors"]]: ErrorResultFor<C, K> }[N & keyof C["errors"]]
  : never;

/**
 * One of the operation's declared responses, or one of the error types it declares. A
 * range (`4XX`) or `default` lets the handler choose the status; that it falls in the range
 * (or is not declared otherwise, for `default`) is checked with the answer.
 */
export type OperationResult<O extends Operation, C extends Contract = Contract> =
  | {
      [S in keyof O["responses"] & number]: ResultFor<S, O["responses"][S]>;
    }[keyof O["responses"] & number]
  | {
      [R in keyof O["responses"] & StatusRange]: ResultFor<number, O["responses"][R]>;
    }[keyof O["responses"] & StatusRange]
  | ErrorResultOf<C, O>;

/** Who made the request, as the platform verified it; never the credential itself. */
export interface Authenticated<S extends string = string> {
  /** The index, in the operation's `security`, of the requirement that was satisfied. */
  readonly requirement: number;
  /** The schemes of that requirement. */
  readonly schemes: readonly S[];
  /** The verified token's `sub` (a JWT's, or as introspection answered), when the requirement has one. */
  readonly subject: string | undefined;
  /** The scopes the verified token grants (empty without one). */
  readonly scopes: readonly string[];
}

/** `undefined` for an operation that requires no credential; otherwise who was let in. */
export type AuthOf<O extends Operation> = O extends {
  readonly security: readonly (infer R)[];
}
  ? [R] extends [never]
    ? undefined
    : R extends object
      ? Authenticated<keyof R & string>
      : never
  : undefined;

/**
 * What a handler may use besides its validated input. It never holds the raw request, so
 * a credential the platform checked (and kept from the schemas) cannot reach a handler.
 */
/** The events operation `O` declares it may emit. */
type EmitsOf<O extends Operation> = O extends {
  readonly emits: readonly (infer E extends string)[];
}
  ? E
  : never;

/** What `emit` takes for event `E` of contract `C`: its payload as the receiver will read it. */
type PayloadOf<C extends Contract, E> = E extends keyof C["events"]
  ? ResponseValue<Built<C["events"][E]["payload"]>>
  : never;

/** The part 3 machine operation `O` moves, if it declares a transition. */
type MachineOf<O extends Operation, C extends Contract> = O extends {
  readonly transition: { readonly machine: infer M extends keyof C["states"] };
}
  ? C["states"][M]
  : never;

/** The states of that machine. */
type StateOf<O extends Operation, C extends Contract> =
  MachineOf<O, C> extends {
    readonly states: readonly (infer S extends string)[];
  }
    ? S
    : never;

/** The states of the machine whose states operation `O` acts in, only (`allowedIn`). */
type GuardedStateOf<O extends Operation, C extends Contract> = O extends {
  readonly allowedIn: { readonly machine: infer M extends keyof C["states"] };
}
  ? C["states"][M] extends { readonly states: readonly (infer S extends string)[] }
    ? S
    : never
  : never;

/** The states the operation's trigger leads to. */
type TargetOf<O extends Operation, C extends Contract> = O extends {
  readonly transition: { readonly trigger: infer T };
}
  ? MachineOf<O, C> extends { readonly transitions: readonly (infer X)[] }
    ? X extends { readonly trigger: T; readonly to: infer To extends string }
      ? To
      : never
    : never
  : never;

export interface HandlerContext<O extends Operation = Operation, C extends Contract = Contract> {
  /** The id of this request, as sent back in `X-Request-Id`: quote it in log lines. */
  readonly requestId: string;
  /** The Worker's bindings (storage, queues, vars), for the handler's own use. */
  readonly env: Env;
  /** Work that may finish after the answer is sent (`ExecutionContext.waitUntil`). */
  readonly waitUntil: (promise: Promise<unknown>) => void;
  /** Who made the request, for an operation that requires credentials. */
  readonly auth: AuthOf<O>;
  /**
   * The declared media type an answer of `status` will be given in, chosen from the
   * request's `Accept` (RFC 9110 §12.5.1), so a handler can write the body that type needs.
   */
  readonly mediaTypeFor: <S extends keyof O["responses"] & number>(
    status: S,
  ) => MediaTypeOf<O["responses"][S]> | undefined;
  /**
   * Emits one of the events the operation declares in `emits` (part 6). The payload is
   * checked against its schema under `RESPONSE_VALIDATION`, and each event is queued for
   * delivery once the handler answers with a 2xx, before the answer is sent: delivery
   * itself never delays it. An operation that declares no `emits` can emit nothing.
   */
  readonly emit: <E extends EmitsOf<O>>(event: E, payload: PayloadOf<C, E>) => void;
  /**
   * For an operation that declares a `transition`: given the resource's current state (the
   * handler owns storage), the state its trigger leads to. When the machine allows no such
   * transition from `current`, it throws, and the platform answers 409 Conflict naming the
   * current state and the triggers allowed from it; nothing after the call runs.
   */
  readonly transition: (current: StateOf<O, C>) => TargetOf<O, C>;
  /**
   * For an operation that declares `allowedIn`: given the resource's current state, returns
   * where the operation acts in it; otherwise it throws, and the platform answers 409
   * Conflict naming the states it acts in (part 7's body where a type presents
   * `state-conflict`); nothing after the call runs.
   */
  readonly requireState: (current: GuardedStateOf<O, C>) => void;
  /** The version of part 9 the request was resolved to; undefined while none is negotiated. */
  readonly version: VersionOf<C>;
  /**
   * Part 2's resources as the sandbox stores them, in the caller's sandbox (the same data
   * the sandbox's own answers keep), so one operation at a time can be given a handler of
   * its own. It needs the sandbox's Durable Object binding: without one, using it fails
   * (a 500), as any missing binding does.
   */
  readonly store: Store<C>;
}

/** A version identifier of contract `C`, once part 9 declares versions. */
type VersionOf<C extends Contract> = C["versioning"] extends {
  readonly versions: infer V extends object;
}
  ? keyof V & string
  : undefined;

type MediaTypeOf<R> = R extends { readonly content: infer C extends object }
  ? keyof C & string
  : never;

/** The input of any of the operation's variants (the handler's `version` says which). */
type InputOf<O extends Operation> =
  OperationVariants<O> extends infer S ? (S extends Operation ? OperationInput<S> : never) : never;

/** An answer any of the operation's variants declares. */
type ResultOf<O extends Operation, C extends Contract> =
  OperationVariants<O> extends infer S
    ? S extends Operation
      ? OperationResult<S, C>
      : never
    : never;

export type OperationHandler<O extends Operation, C extends Contract = Contract> = (
  input: InputOf<O>,
  context: HandlerContext<O, C>,
) => ResultOf<O, C> | Promise<ResultOf<O, C>>;

/** Handlers by operation id; an operation without one is a validating placeholder (501). */
export type Handlers<C extends Contract> = {
  readonly [K in keyof C["operations"]]?: OperationHandler<C["operations"][K], C>;
};

/** The loose shape the platform runs handlers through, once their types have been checked. */
export type AnyResult =
  | {
      readonly status: number;
      readonly error?: undefined;
      readonly mediaType?: string;
      readonly body?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      readonly error: string;
      readonly detail?: string;
      readonly members?: Readonly<Record<string, unknown>>;
      readonly headers?: Readonly<Record<string, string>>;
    };
export type AnyHandler = (
  input: unknown,
  context: Omit<
    HandlerContext,
    "auth" | "mediaTypeFor" | "emit" | "transition" | "requireState" | "version" | "store"
  > & {
    readonly version: string | undefined;
    readonly auth: Authenticated | undefined;
    readonly mediaTypeFor: (status: number) => string | undefined;
    readonly emit: (event: string, payload: unknown) => void;
    readonly transition: (current: string) => string;
    readonly requireState: (current: string) => void;
    readonly store: Readonly<Record<string, ResourceStore<unknown>>>;
  },
) => AnyResult | Promise<AnyResult>;

/**
 * Attaches handlers to a contract's operations by id, checking each against its declaration:
 * `defineHandlers<typeof contract>({ … })` with `import type { contract }`, so the Worker's
 * bundle holds only the contract it serves (src/build/served-contract.ts), or
 * `defineHandlers(contract, { … })`, which imports the declared contract as a value (the
 * tests' FIXTURE contracts, which are not served copies).
 */
export function defineHandlers<C extends Contract>(handlers: Handlers<C>): Handlers<C>;
export function defineHandlers<C extends Contract>(
  contract: C,
  handlers: NoInfer<Handlers<C>>,
): Handlers<C>;
export function defineHandlers<C extends Contract>(
  ...given: [Handlers<C>] | [C, Handlers<C>]
): Handlers<C> {
  return given.length === 1 ? given[0] : given[1];
}
