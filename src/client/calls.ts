/**
 * What a call of one operation takes, typed from its declaration: its path parameters,
 * query, headers and cookies as the operation's schemas read them, and its body in each
 * media type it declares. Types only: the client's code never loads the contract language.
 *
 * Every helper reads a schema through `Built` (src/contract-language/lazy.ts), as the
 * server's handler types do, so a declaration may give a schema or a function that builds
 * it on first use and both are typed alike.
 */
import type { input, output } from "zod/v4/core";
import type { Contract, Operation, OperationVariants, Schema } from "../contract-language/contract";
import type { Built } from "../contract-language/lazy";
import type { ReadOnly } from "../contract-language/schema";

/** The schema of a declared media type, whichever way it was written (schema, function, or `{ schema }`). */
export type MediaSchema<D> = D extends { readonly schema: infer S } ? Built<S> : Built<D>;

/** An object type spelled out, for readable hovers and messages. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeys<T> = {
  [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K;
}[keyof T];

type MembersOf<S> = S extends { readonly _zod: { readonly def: { readonly shape: infer Shape } } }
  ? Shape
  : never;

/** Members marked `readOnly` (src/contract-language/schema.ts): the server sets them, a caller may leave them out. */
type ReadOnlyKeys<S> = {
  [K in keyof MembersOf<S>]: MembersOf<S>[K] extends ReadOnly<Schema> ? K : never;
}[keyof MembersOf<S>];

/**
 * What a caller sends for schema `S`: the values the schema gives the server (its output:
 * a `numberFromText` member is a number, written as text on the wire), required where its
 * input requires them (a member with a default may be left out), and read-only members
 * optional.
 */
export type Sent<S> = S extends { readonly _zod: unknown }
  ? output<S> extends infer O
    ? O extends object
      ? O extends readonly unknown[]
        ? O
        : Simplify<
            {
              [K in keyof O as K extends RequiredKeys<input<S>> | ReadOnlyKeys<S>
                ? never
                : K]?: O[K];
            } & {
              [K in keyof O as K extends RequiredKeys<input<S>>
                ? K extends ReadOnlyKeys<S>
                  ? never
                  : K
                : never]: O[K];
            }
          >
      : O
    : never
  : never;

/** Bytes a caller may send as a body of a media type the platform hands over as bytes. */
type Bytes = Blob | ArrayBuffer | Uint8Array | ReadableStream;

/**
 * What a body of media type `M` is sent as: JSON and form fields as the schema's values;
 * multipart as those values or a `FormData`; text as a string; XML as the XML text (the
 * client writes no XML: the contract's XML objects need the server's codec); anything else
 * as bytes.
 */
export type SentBody<M, S> =
  Lowercase<M & string> extends "application/json" | `${string}/${string}+json`
    ? Sent<S>
    : Lowercase<M & string> extends "application/x-www-form-urlencoded"
      ? Sent<S>
      : Lowercase<M & string> extends "multipart/form-data"
        ? Sent<S> | FormData
        : Lowercase<M & string> extends
              | `text/${string}`
              | `${string}/${string}+xml`
              | "application/xml"
          ? string
          : Bytes;

/** Whether `T` is a union of more than one member. */
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

type RequestOf<O> = O extends { readonly request: infer Q extends object } ? Q : object;

/** One request location (`params`, `query`, `headers`, `cookies`) as an argument: required when a member is. */
type LocationArgument<Q, K extends string> = Q extends { readonly [P in K]: infer S }
  ? Sent<Built<S>> extends infer V
    ? Record<never, never> extends V
      ? { readonly [P in K]?: V }
      : { readonly [P in K]: V }
    : never
  : { readonly [P in K]?: never };

/**
 * The body as an argument: `body` in one of the declared media types, named by
 * `contentType` (which may be left out when there is one); optional where the operation
 * says a body may be left out (`bodyRequired: false`).
 */
type BodyArgument<Q> = Q extends { readonly body: infer B extends object }
  ? {
      [M in keyof B & string]: (true extends IsUnion<keyof B & string>
        ? { readonly contentType: M }
        : { readonly contentType?: M }) &
        (Q extends { readonly bodyRequired: false }
          ? { readonly body?: SentBody<M, MediaSchema<B[M]>> }
          : { readonly body: SentBody<M, MediaSchema<B[M]>> });
    }[keyof B & string]
  : { readonly body?: never; readonly contentType?: never };

/** What a call of operation shape `O` takes. */
export type CallInput<O> =
  RequestOf<O> extends infer Q
    ? LocationArgument<Q, "params"> &
        LocationArgument<Q, "query"> &
        LocationArgument<Q, "headers"> &
        LocationArgument<Q, "cookies"> &
        BodyArgument<Q>
    : never;

/** The input of any of the operation's variants (the version sent says which the server reads). */
export type InputOf<O> =
  OperationVariants<O> extends infer S ? (S extends unknown ? CallInput<S> : never) : never;

/** The media types an operation's answers are declared in. */
type AnswerMediaType<O> =
  OperationVariants<O> extends infer S
    ? S extends { readonly responses: infer R }
      ? {
          [K in keyof R]: R[K] extends { readonly content: infer C } ? keyof C & string : never;
        }[keyof R]
      : never
    : never;

/** A version part 9 declares, once it declares versions; no version otherwise. */
export type VersionOf<C extends Contract> = C["versioning"] extends {
  readonly versions: infer V extends object;
}
  ? keyof V & string
  : never;

/** What one call may say besides its input. */
export interface CallOptions<C extends Contract, O extends Operation> {
  /** The media type the answer is asked in (`Accept`, RFC 9110 §12.5.1); every declared one when absent. */
  readonly accept?: AnswerMediaType<O>;
  /** The version of part 9 this call asks for; the client's, or the current one, when absent. */
  readonly version?: VersionOf<C>;
  /** Stops the call (`fetch`'s signal). */
  readonly signal?: AbortSignal;
}
