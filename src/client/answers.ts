/**
 * What a call of one operation can answer, typed from its declaration: each declared
 * response in each of its media types, each of part 7's error types it declares, and each
 * of the platform's own failures it can meet (the problem catalogue's, worked out from what
 * it declares as the engine works them out: src/engine/operations/failures.ts), presented
 * as part 7 presents them. One union, discriminated by `status`. Types only.
 */
import type { output } from "zod/v4/core";
import type {
  Contract,
  OperationVariants,
  Schema,
  StatusRange,
} from "../contract-language/contract";
import type { Built } from "../contract-language/lazy";
import type { PROBLEM_CATALOGUE } from "../contract-language/problem-catalogue";
import type { ResponseValue } from "../contract-language/schema";
import type { MediaSchema, Simplify } from "./calls";

/** One answer: its status, the media type its body came in, the body, and the header fields. */
export interface Answer<Status, MediaType, Body> {
  readonly status: Status;
  /** The declared media type the body came in (its `Content-Type`); undefined without a body. */
  readonly mediaType: MediaType;
  readonly body: Body;
  readonly headers: Headers;
}

/**
 * A body of media type `M` as the client reads it: JSON parsed (typed by its schema, with
 * write-only members optional), text and XML as their text, anything else as bytes.
 */
export type ReceivedBody<M, S> =
  Lowercase<M & string> extends "application/json" | `${string}/${string}+json`
    ? S extends Schema
      ? ResponseValue<S>
      : unknown
    : Lowercase<M & string> extends
          | `text/${string}`
          | `${string}/${string}+xml`
          | "application/xml"
          | "application/x-www-form-urlencoded"
      ? string
      : Uint8Array;

type DeclaredAnswer<Status, R> = R extends { readonly content: infer C extends object }
  ? {
      [M in keyof C & string]: Answer<Status, M, ReceivedBody<M, MediaSchema<C[M]>>>;
    }[keyof C & string]
  : Answer<Status, undefined, undefined>;

/** The declared responses: an exact status as itself, a range or `default` as any number. */
type DeclaredAnswers<O> = O extends { readonly responses: infer R }
  ?
      | { [S in keyof R & number]: DeclaredAnswer<S, R[S]> }[keyof R & number]
      | { [K in keyof R & StatusRange]: DeclaredAnswer<number, R[K]> }[keyof R & StatusRange]
  : never;

// ---- Problems ----

type Catalogued = (typeof PROBLEM_CATALOGUE)[number];
type Entry<Slug> = Extract<Catalogued, { readonly slug: Slug }>;

/** A catalogued member's JSON Schema as a type (the few keywords the catalogue uses). */
type FromJsonSchema<J> = J extends { readonly enum: readonly (infer E)[] }
  ? E
  : J extends { readonly type: "string" }
    ? string
    : J extends { readonly type: "integer" | "number" }
      ? number
      : J extends { readonly type: "boolean" }
        ? boolean
        : J extends { readonly type: "array"; readonly items: infer I }
          ? FromJsonSchema<I>[]
          : J extends { readonly type: "object" }
            ? ObjectFromJsonSchema<J>
            : unknown;

type ObjectFromJsonSchema<J> = Simplify<
  (J extends {
    readonly properties: infer P;
    readonly required?: readonly (infer Required)[];
  }
    ? { [K in keyof P as K extends Required ? K : never]: FromJsonSchema<P[K]> } & {
        [K in keyof P as K extends Required ? never : K]?: FromJsonSchema<P[K]>;
      }
    : unknown) &
    (J extends { readonly additionalProperties: infer A }
      ? Readonly<Record<string, FromJsonSchema<A>>>
      : unknown)
>;

/** The extension members a catalogued problem fills (RFC 9457 §3.2). */
type CataloguedMembers<E> = E extends { readonly schemas: infer S }
  ? { [K in keyof S]: FromJsonSchema<S[K]> }
  : unknown;

/** A problem type's URI: its page here, or `about:blank` (RFC 9457 §4.2.1). */
type TypeUri<E> = E extends { readonly uri: "about:blank" }
  ? "about:blank"
  : E extends { readonly slug: infer Slug extends string }
    ? `/_service/problems/${Slug}`
    : string;

/** RFC 9457 §3.1's members, and the request id every platform problem carries. */
interface ProblemCore<Type, Status> {
  readonly type: Type;
  readonly title: string;
  readonly status: Status;
  readonly detail?: string;
  readonly requestId: string;
}

/** A problem of the catalogue, as the platform answers it. */
type CataloguedAnswer<E> = E extends { readonly status: infer Status }
  ? Answer<
      Status,
      "application/problem+json",
      Simplify<ProblemCore<TypeUri<E>, Status> & CataloguedMembers<E>>
    >
  : never;

/** A problem with no meaning beyond its status (RFC 9457 §4.2.1). */
type PlainAnswer<Status> = Answer<
  Status,
  "application/problem+json",
  ProblemCore<"about:blank", Status>
>;

/** The members of one of part 7's error types: optional where the schema allows absence. */
type ErrorMembers<E> = E extends { readonly members: infer M }
  ? Simplify<
      {
        readonly [K in keyof M as undefined extends output<Built<M[K]>> ? never : K]: output<
          Built<M[K]>
        >;
      } & {
        readonly [K in keyof M as undefined extends output<Built<M[K]>> ? K : never]?: output<
          Built<M[K]>
        >;
      }
    >
  : unknown;

/**
 * An answer of one of part 7's error types: an RFC 9457 problem with its members (and, when
 * it presents a platform failure, the members the platform fills), or its own body.
 */
type ErrorTypeAnswer<E, Filled = unknown> = E extends {
  readonly status: infer Status;
}
  ? E extends { readonly body: { readonly mediaType: infer M } }
    ? Answer<Status, M, Simplify<ErrorMembers<E> & Readonly<Record<string, unknown>>>>
    : Answer<
        Status,
        "application/problem+json",
        Simplify<ProblemCore<string, Status> & ErrorMembers<E> & Filled>
      >
  : never;

/** The error types the operation's handler may answer with (`errors`). */
type DeclaredErrors<C extends Contract, O> = O extends {
  readonly errors: readonly (infer N)[];
}
  ? N extends keyof C["errors"]
    ? ErrorTypeAnswer<C["errors"][N]>
    : never
  : never;

/** The error type part 7 answers failure `K` of operation `O` as: the operation's own choice first. */
type PresenterOf<C extends Contract, O, K> = O extends { readonly presents: infer P }
  ? K extends keyof P
    ? P[K]
    : ByErrorModel<C, K>
  : ByErrorModel<C, K>;

type ByErrorModel<C extends Contract, K> = {
  [N in keyof C["errors"]]: C["errors"][N] extends { readonly presents: readonly (infer F)[] }
    ? K extends F
      ? N
      : never
    : never;
}[keyof C["errors"]];

type FailureAnswer<C extends Contract, O, K> =
  PresenterOf<C, O, K> extends infer N
    ? [N] extends [never]
      ? CataloguedAnswer<Entry<K>>
      : N extends keyof C["errors"]
        ? ErrorTypeAnswer<C["errors"][N], CataloguedMembers<Entry<K>>>
        : never
    : never;

// ---- Which failures an operation can meet (src/engine/operations/failures.ts) ----

type RequestOf<O> = O extends { readonly request: infer Q extends object } ? Q : object;
/** Whether `T` has any of the members `K`. */
type Has<T, K extends string> = true extends (
  K extends unknown
    ? T extends { readonly [P in K]: unknown }
      ? true
      : false
    : never
)
  ? true
  : false;

type Requirements<O> = O extends { readonly security: readonly (infer R)[] } ? R : never;

/** Part 5: a requirement names scopes (RFC 6750 §3.1's insufficient_scope). */
type Scoped<O> = true extends (
  Requirements<O> extends infer R
    ? R extends object
      ? { [K in keyof R]: R[K] extends readonly [] ? false : true }[keyof R]
      : false
    : false
)
  ? true
  : false;

/** Part 5: a scheme whose tokens an issuer vouches for (a JWT key set, introspection): 503 when unreachable. */
type Vouched<C extends Contract, O> = true extends (
  Requirements<O> extends infer R
    ? R extends object
      ? {
          [K in keyof R]: K extends keyof C["securitySchemes"]
            ? C["securitySchemes"][K] extends
                | { readonly jwt: object }
                | { readonly introspection: object }
              ? true
              : false
            : false;
        }[keyof R]
      : false
    : false
)
  ? true
  : false;

/** RFC 9110 §15.5.7: every success answer has a body, so `Accept` can rule a request out. */
type Acceptable<O> = O extends { readonly responses: infer R }
  ? {
      [K in keyof R]: K extends "2XX"
        ? K
        : K extends number
          ? `${K}` extends `2${string}`
            ? K
            : never
          : never;
    }[keyof R] extends infer S
    ? [S] extends [never]
      ? false
      : false extends {
            [K in S & keyof R]: R[K] extends { readonly content: object } ? true : false;
          }[S & keyof R]
        ? false
        : true
    : false
  : false;

type RateLimited<C extends Contract, Id> = true extends {
  [L in keyof C["limits"]]: C["limits"][L] extends {
    readonly kind: "rate";
    readonly operations: readonly (infer I)[];
  }
    ? Id extends I
      ? true
      : false
    : false;
}[keyof C["limits"]]
  ? true
  : false;

type Negotiated<C extends Contract> = C["versioning"] extends {
  readonly versions: object;
  readonly placement: object;
}
  ? true
  : false;

type SunsetVersion<C extends Contract> = C["versioning"] extends { readonly versions: infer V }
  ? true extends {
      [K in keyof V]: V[K] extends { readonly sunset: string } ? true : false;
    }[keyof V]
    ? true
    : false
  : false;

type When<Condition, Slug> = Condition extends true ? Slug : never;

/** The catalogue's failures operation shape `O` (of id `Id`) can meet, by slug. */
type FailureSlugs<C extends Contract, Id, O> =
  | When<[Requirements<O>] extends [never] ? false : true, "authentication-required">
  | When<Scoped<O>, "insufficient-scope">
  | When<Acceptable<O>, "not-acceptable">
  | When<Has<O, "transition">, "state-conflict">
  | When<Has<RequestOf<O>, "body">, "malformed-request" | "content-too-large">
  | "unsupported-media-type"
  | When<
      Has<RequestOf<O>, "params" | "query" | "headers" | "cookies" | "body">,
      "validation-failed"
    >
  | When<RateLimited<C, Id>, "rate-limit-exceeded">
  | When<Negotiated<C>, "unsupported-version">
  | When<Negotiated<C> extends true ? SunsetVersion<C> : false, "version-gone">
  | When<
      Negotiated<C> extends true
        ? O extends { readonly versions: { readonly added: string } | { readonly removed: string } }
          ? true
          : false
        : false,
      "not-in-version"
    >
  | When<
      O extends { readonly deprecated: { readonly sunset: string } } ? true : false,
      "operation-gone"
    >
  | "internal-error"
  | "operation-not-implemented";

/** 503s, plain: an issuer that could not be asked, events that could not be queued. */
type Unavailable<C extends Contract, O> = true extends
  | Vouched<C, O>
  | (O extends { readonly emits: readonly (infer E)[] }
      ? [E] extends [never]
        ? false
        : true
      : false)
  ? PlainAnswer<503>
  : never;

type Failures<C extends Contract, Id, O> =
  FailureSlugs<C, Id, O> extends infer K
    ? K extends unknown
      ? FailureAnswer<C, O, K>
      : never
    : never;

/** Every answer a call of operation `Id` of contract `C` can get, in any of its variants. */
export type AnswerOf<C extends Contract, Id extends keyof C["operations"]> =
  OperationVariants<C["operations"][Id]> extends infer O
    ? O extends unknown
      ? DeclaredAnswers<O> | DeclaredErrors<C, O> | Failures<C, Id, O> | Unavailable<C, O>
      : never
    : never;
