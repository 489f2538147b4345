/**
 * What a contract is: the typed shape of the specification's nine parts.
 *
 * This module defines *kinds* of declaration (what an operation or a resource is), never
 * any declaration of the service itself. The service's own declarations live in
 * `src/contract/`, one file per spec part; example declarations live only in
 * `test/fixtures/`.
 */
import type { $ZodType } from "zod/v4/core";

/** Any zod v4 schema, written with the classic API or with `zod/mini`. */
export type Schema = $ZodType;

/** Part 1: what the service does. */
export interface Purpose {
  readonly title: string;
  readonly summary: string;
  readonly description?: string;
}

/** Part 3: one state machine of a resource. */
export interface StateMachine {
  /** The part 2 resource whose states these are. */
  readonly resource: string;
  readonly states: readonly string[];
  readonly initial: string;
  readonly transitions: readonly {
    readonly from: string;
    readonly to: string;
    readonly trigger: string;
  }[];
}

/** Methods an operation can declare (RFC 9110 §9.3, plus PATCH from RFC 5789). */
export const OPERATION_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

/**
 * What a request to an operation may carry. Path parameters, query, headers and cookies
 * reach their schemas as strings (a repeated query key as an array of strings), so a
 * schema that wants a number says so with coercion. `body` maps each accepted media type
 * to its schema; the platform parses JSON media types (`application/json`, `*+json`).
 */
export interface RequestDeclaration {
  readonly params?: Schema;
  readonly query?: Schema;
  readonly headers?: Schema;
  readonly cookies?: Schema;
  readonly body?: Readonly<Record<string, Schema>>;
}

/** One declared response of an operation. */
export interface ResponseDeclaration {
  readonly description: string;
  /** Media type to schema of the body; absent for a response without a body. */
  readonly content?: Readonly<Record<string, Schema>>;
  /** A schema of the response header fields the handler sets, by lower-case name. */
  readonly headers?: Schema;
}

/** Part 4: one operation, identified by the key it is declared under. */
export interface Operation {
  readonly method: OperationMethod;
  /**
   * A path template in OpenAPI style, e.g. `/items/{id}`. Each `{name}` must be a member of
   * `request.params`, and `request.params` must have no other member (checked by the
   * compiler through `defineContract`, and again when the app starts).
   */
  readonly path: string;
  readonly summary?: string;
  readonly description?: string;
  readonly request?: RequestDeclaration;
  readonly responses: Readonly<Record<number, ResponseDeclaration>>;
  /**
   * Which credentials the operation requires, as OpenAPI's `security` expresses it: a list
   * of alternatives, any one of which suffices, each naming part 5's schemes that must all
   * be satisfied. `[]` declares that the operation needs no credential. Once part 5 declares
   * any scheme, every operation must say this explicitly, so none is left open by omission.
   */
  readonly security?: readonly (readonly string[])[];
}

interface SchemeBase {
  /**
   * The name of the Worker secret that holds the expected credential. The value never
   * appears in the repository: `wrangler secret put`, or `.dev.vars` locally.
   */
  readonly secret: string;
  readonly description?: string;
}

/** An API key sent in a named header, query parameter or cookie. */
export interface ApiKeyScheme extends SchemeBase {
  readonly type: "apiKey";
  readonly in: "header" | "query" | "cookie";
  readonly name: string;
}

/** A bearer token in `Authorization` (RFC 6750 §2.1). */
export interface BearerScheme extends SchemeBase {
  readonly type: "http";
  readonly scheme: "bearer";
  /** A hint for documentation, e.g. `JWT`; the token is compared as an opaque string. */
  readonly bearerFormat?: string;
}

/** A user-id and password in `Authorization` (RFC 7617); the secret holds `user-id:password`. */
export interface BasicScheme extends SchemeBase {
  readonly type: "http";
  readonly scheme: "basic";
  /** The protection space named in the challenge; RFC 7617 §2 requires a realm. */
  readonly realm: string;
}

/** Part 5: one security scheme, in OpenAPI's terms. */
export type SecurityScheme = ApiKeyScheme | BearerScheme | BasicScheme;

/** Part 6: one event the service emits. */
export interface EventDeclaration {
  readonly summary?: string;
  readonly payload: Schema;
}

/** Part 7: one error type of the service, answered as an RFC 9457 problem. */
export interface ErrorType {
  readonly status: number;
  readonly title: string;
  readonly description?: string;
}

interface LimitBase {
  /** The ids of the part 4 operations the limit applies to. */
  readonly operations: readonly string[];
  readonly description?: string;
}

/** The largest request body the operations accept, in bytes; replaces the platform default. */
export interface BodySizeLimit extends LimitBase {
  readonly kind: "body-size";
  readonly maxBytes: number;
}

/**
 * At most `limit` requests per `period` seconds, counted by a Workers Rate Limiting binding
 * (`[[ratelimits]]` in wrangler.toml, with the same limit and period), per client address
 * or per credential.
 */
export interface RequestRateLimit extends LimitBase {
  readonly kind: "rate";
  /** The name of the rate limiting binding that counts the requests. */
  readonly binding: string;
  readonly limit: number;
  /** The binding supports these two periods only. */
  readonly period: 10 | 60;
  /** `client`: the caller's address; `credential`: the credentials that authenticated it. */
  readonly key: "client" | "credential";
}

/**
 * Bounds of a page-size style query parameter. The operation's query schema enforces them
 * (a request outside them is answered 422); the app refuses to start if the schema's bounds
 * differ from these.
 */
export interface PageSizeLimit extends LimitBase {
  readonly kind: "page-size";
  readonly parameter: string;
  readonly minimum: number;
  readonly maximum: number;
}

/** Part 8: one limit of the service. */
export type Limit = BodySizeLimit | RequestRateLimit | PageSizeLimit;

/** Part 9: how the service versions its interface. */
export interface Versioning {
  readonly current: string;
  readonly description?: string;
}

/** The whole interface: nine parts, each possibly empty ("not specified"). */
export interface Contract {
  readonly purpose: Purpose | undefined;
  readonly resources: Readonly<Record<string, Schema>>;
  readonly states: Readonly<Record<string, StateMachine>>;
  readonly operations: Readonly<Record<string, Operation>>;
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  readonly events: Readonly<Record<string, EventDeclaration>>;
  readonly errors: Readonly<Record<string, ErrorType>>;
  readonly limits: Readonly<Record<string, Limit>>;
  readonly versioning: Versioning | undefined;
}
