/**
 * What a contract is: the typed shape of the specification's nine parts, in OpenAPI's
 * vocabulary wherever OpenAPI has a word for it, so a spec written as OpenAPI maps onto it
 * one to one.
 *
 * This module defines *kinds* of declaration (what an operation or a resource is), never
 * any declaration of the service itself. The service's own declarations live in
 * `src/contract/`, one file per spec part; example declarations live only in
 * `test/fixtures/`.
 */
import type { $ZodType } from "zod/v4/core";
import { type Lazy, resolveSchema } from "./lazy";
import type { PlatformProblem } from "./problem-catalogue";

export type { Built, Lazy } from "./lazy";
export { component, resolveSchema } from "./lazy";

/**
 * Any zod v4 schema, written with the classic API or with `zod/mini`. A member marked
 * `readOnly` in its metadata (`z.meta({ readOnly: true })`) is not required in requests, one
 * marked `writeOnly` is not required in answers: one schema serves both directions.
 */
export type Schema = $ZodType;

/**
 * A schema where the contract declares one: the schema, or a function that builds it on
 * first use (`() => z.object({ … })`, or a `component`), so that no schema is built while
 * the Worker starts (src/contract-language/lazy.ts). Read through `resolveSchema`.
 */
export type SchemaDeclaration = Lazy;

/** OpenAPI's Example Object: a named example of a value. */
export interface Example {
  readonly summary?: string;
  readonly description?: string;
  readonly value: unknown;
}

/** Where more documentation lives (OpenAPI's External Documentation Object). */
export interface ExternalDocs {
  readonly url: string;
  readonly description?: string;
}

/** A group of operations, with what it means. */
export interface TagDeclaration {
  readonly description?: string;
  readonly externalDocs?: ExternalDocs;
}

/** Where the service is served (OpenAPI's Server Object). */
export interface Server {
  readonly url: string;
  readonly description?: string;
  readonly variables?: Readonly<
    Record<
      string,
      { readonly default: string; readonly enum?: readonly string[]; readonly description?: string }
    >
  >;
}

/** Part 1: what the service does, who answers for it, where it is served. */
export interface Purpose {
  readonly title: string;
  readonly summary?: string;
  readonly description?: string;
  readonly termsOfService?: string;
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  /** An SPDX `identifier` or a `url`, not both (OpenAPI 3.1 §4.8.4). */
  readonly license?: { readonly name: string; readonly identifier?: string; readonly url?: string };
  readonly externalDocs?: ExternalDocs;
  /** The groups operations are tagged with, by name. */
  readonly tags?: Readonly<Record<string, TagDeclaration>>;
  readonly servers?: readonly Server[];
}

/** Part 3: one state machine of a resource. */
export interface StateMachine {
  /** The part 2 resource whose states these are. */
  readonly resource: string;
  /**
   * The resource's member that holds its state, when it has one: its schema must allow
   * exactly `states`, and the answer of a transition must carry the state it reached there.
   */
  readonly field?: string;
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

/** One media type of a body, with its examples (OpenAPI's Media Type Object). */
export interface MediaDeclaration {
  readonly schema: SchemaDeclaration;
  readonly examples?: Readonly<Record<string, Example>>;
}

/**
 * A body's media types, each with its schema (or a `MediaDeclaration` with examples). What
 * the schema validates is what the platform reads for that type:
 * - JSON (`application/json`, `*+json`): the parsed value;
 * - XML (`application/xml`, `text/xml`, `*+xml`, RFC 7303): the value the XML stands for,
 *   read by the schema and its `xml` objects (`XmlObject`), so the same object schema serves
 *   JSON and XML; an answer is written from the object the handler returns;
 * - `application/x-www-form-urlencoded`: an object of strings (a repeated name: an array);
 * - `multipart/form-data`: an object of strings and `File`s (a repeated name: an array);
 * - `text/plain` and other `text/*`: the text, as a string;
 * - any other type (`application/octet-stream`, `image/png`, …): the bytes, a `Uint8Array`.
 */
export type Content = Readonly<Record<string, SchemaDeclaration | MediaDeclaration>>;

export type {
  ParameterLocation,
  ParameterSerialisation,
  ParameterStyle,
} from "./parameters";

/**
 * OpenAPI's XML Object (3.1 §4.8.26): how a schema's value is written as XML, given as the
 * schema's metadata, on the schema and on each member it concerns:
 * `z.object({ id: z.string().check(z.meta({ xml: { attribute: true } })) }).check(z.meta({ xml: { name: "pet" } }))`.
 */
export interface XmlObject {
  /** The element's or attribute's name; by default the member's name. */
  readonly name?: string;
  /** The namespace's URI (absolute, OpenAPI 3.1 §4.8.26.1). */
  readonly namespace?: string;
  /** The prefix the name is written with; it needs a `namespace` to be bound to. */
  readonly prefix?: string;
  /** The member is an attribute of its object's element, not an element of its own. */
  readonly attribute?: boolean;
  /** An array's items sit inside one element named after the array (it has none otherwise). */
  readonly wrapped?: boolean;
}

/** XML media types (RFC 7303 §3, §9.2): `application/xml`, `text/xml` and any `+xml` type. */
export function isXmlMediaType(type: string): boolean {
  const essence = (type.split(";")[0] ?? "").trim().toLowerCase();
  return (
    essence === "application/xml" ||
    essence === "text/xml" ||
    (essence.endsWith("+xml") && essence.includes("/"))
  );
}

/**
 * What a request to an operation may carry. `params`, `query`, `headers` and `cookies` are
 * object schemas whose members are the parameters of that location (OpenAPI's `in`).
 *
 * A parameter is serialised as OpenAPI 3.1 §4.8.12.4 (Style Values) says, by the `style`
 * and `explode` its member's metadata declares, or by OpenAPI's defaults (query and
 * cookie: `form`, explode true; path and header: `simple`, explode false):
 *
 * ```ts
 * query: z.object({
 *   // ?metrics=opened,clicked
 *   metrics: z.array(z.string()).check(z.meta({ style: "form", explode: false })),
 *   // ?filter[status]=open&filter[owner]=me
 *   filter: z.object({ status: z.string() }).check(z.meta({ style: "deepObject", explode: true })),
 * }),
 * ```
 *
 * Path: `simple`, `label`, `matrix`; query: `form`, `spaceDelimited`, `pipeDelimited`,
 * `deepObject`; header: `simple`; cookie: `form` (`src/contract-language/parameters.ts`). Whatever the
 * style, a value reaches its member's schema as text: a string for a primitive, an array of
 * strings for an array member, an object of strings for an object member (each member's
 * kind is read from its schema), so a schema that wants a number reads it from text
 * (`numberFromText`, src/contract-language/text.ts). A value that is not serialised as its style says
 * is refused (422) at its member's pointer.
 */
export interface RequestDeclaration {
  /** The path template's parameters, by name (style `simple` unless a member says `label` or `matrix`). */
  readonly params?: SchemaDeclaration;
  /** Query parameters, by name. */
  readonly query?: SchemaDeclaration;
  /** Header fields, by lower-case name. */
  readonly headers?: SchemaDeclaration;
  /** Cookies, by name. */
  readonly cookies?: SchemaDeclaration;
  readonly body?: Content;
  /** OpenAPI's `requestBody.description`. */
  readonly bodyDescription?: string;
  /** `false` when a request may come without a body (OpenAPI's `requestBody.required`). */
  readonly bodyRequired?: boolean;
}

/** One declared response of an operation. */
export interface ResponseDeclaration {
  readonly description: string;
  /**
   * Media type to schema of the body; absent for a response without a body. With several,
   * the answer's type is chosen from the request's `Accept` (RFC 9110 §12.5.1).
   */
  readonly content?: Content;
  /** A schema of the response header fields the handler sets, by lower-case name. */
  readonly headers?: SchemaDeclaration;
}

/**
 * Which credentials are required, as OpenAPI's `security` says it: any one of the listed
 * requirements suffices; within one, every scheme named must be satisfied, each with the
 * scopes listed (scopes only for OAuth 2, OpenID Connect and JWT bearer schemes; `[]`
 * otherwise).
 */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/**
 * A range of statuses (OpenAPI 3.1 §4.8.16.2: `4XX` is any status from 400 to 499), or
 * `default`: any status the operation does not declare otherwise. An exact status is
 * matched before its range, and a range before `default`.
 */
export type StatusRange = "2XX" | "3XX" | "4XX" | "5XX" | "default";

/** An operation's responses: by status, by range of statuses, or `default`. */
export type Responses = Readonly<Record<number, ResponseDeclaration>> &
  Readonly<Partial<Record<StatusRange, ResponseDeclaration>>>;

/** Part 4: one operation, identified by the key it is declared under. */
export interface Operation {
  readonly method: OperationMethod;
  /**
   * A path template in OpenAPI style, e.g. `/items/{id}`. Each `{name}` must be a member of
   * `request.params`, and `request.params` must have no other member (checked by the
   * compiler through `defineContract`, and again when the app starts). As a Paths Object
   * key may, it can go on with a query of fixed values (`/rest?method=photos.search`) or a
   * fragment (`/#Action=AddTags`): only the path is routed (src/contract-language/path-key.ts).
   */
  readonly path: string;
  /**
   * Query values a request must carry to be this operation's, beside those of the path's own
   * query: what tells apart operations on one method and path (`{ Action: "AddTags" }` where
   * a document keys them `/#Action=AddTags`, a fragment no client sends). A request with none
   * of them is refused as invalid, one with an unknown value is 404 (RFC 9110 §15.5.5).
   */
  readonly fixed?: Readonly<Record<string, string>>;
  readonly summary?: string;
  readonly description?: string;
  /** Names of part 1's tags. */
  readonly tags?: readonly string[];
  /**
   * `true` marks it deprecated in the document only. With a date (`{ deprecated, sunset,
   * migration }`, as a version declares them) its answers also carry `Deprecation`
   * (RFC 9745 needs the date), `Sunset` and `Link`, and after the sunset it is 410 Gone.
   */
  readonly deprecated?: boolean | Retirement;
  readonly externalDocs?: ExternalDocs;
  readonly request?: RequestDeclaration;
  readonly responses: Responses;
  /**
   * Which credentials the operation requires. `[]` declares that it needs none. Once part 5
   * declares any scheme, every operation must say this explicitly, so none is left open by
   * omission.
   */
  readonly security?: readonly SecurityRequirement[];
  /** Part 7's error types a handler of this operation may answer with, by name. */
  readonly errors?: readonly string[];
  /**
   * The platform failures this operation answers as one of its own error types, where the
   * spec gives it another answer than the error model's (an operation that documents its
   * bad requests as a 400 of its own): by failure, the error type's name. It wins over the
   * error types' own `presents` for this operation.
   */
  readonly presents?: Readonly<Partial<Record<PlatformProblem, string>>>;
  /** Part 6's events a handler of this operation may emit, by name. */
  readonly emits?: readonly string[];
  /** The transition of a part 3 machine this operation performs, by machine and trigger. */
  readonly transition?: { readonly machine: string; readonly trigger: string };
  /**
   * The states of a part 3 machine its resource must be in for this operation to act ("only
   * a draft invoice can be changed"): the handler's `requireState(current)` refuses any other
   * with the machine's 409, in part 7's body where an error type presents `state-conflict`.
   */
  readonly allowedIn?: { readonly machine: string; readonly states: readonly string[] };
  /** The versions of part 9 that have this operation: from `added` on, until `removed` (excluded). */
  readonly versions?: VersionRange;
  /**
   * Part 9: the request or the responses as some versions have them. In a variant's range,
   * what it declares replaces the operation's own; elsewhere the operation's own apply.
   * Ranges do not overlap (checked when the app starts).
   */
  readonly variants?: readonly OperationVariant[];
}

/**
 * The operation as each of its part 9 variants has it: the operation itself, and for each
 * variant the operation with the variant's request or responses in their place.
 */
export type OperationVariants<O> =
  | O
  | (O extends { readonly variants: readonly (infer V)[] }
      ? V extends object
        ? Omit<O, keyof V & ("request" | "responses")> &
            Pick<V, keyof V & ("request" | "responses")>
        : never
      : never);

/** A range of part 9's versions: from `added` on, until `removed` (excluded). */
export interface VersionRange {
  readonly added?: string;
  readonly removed?: string;
}

/** An operation's request or responses in a range of versions. */
export interface OperationVariant {
  readonly versions: VersionRange;
  readonly request?: RequestDeclaration;
  readonly responses?: Responses;
}

/** The operation as each of its variants has it, the operation's own declaration first. */
export function operationShapes(operation: Operation): readonly Operation[] {
  return [
    operation,
    ...(operation.variants ?? []).map((variant) => ({
      ...operation,
      ...(variant.request ? { request: variant.request } : {}),
      ...(variant.responses ? { responses: variant.responses } : {}),
    })),
  ];
}

/**
 * The name of the Worker secret that holds a credential, or several, so a credential can
 * be rotated without downtime: any of them is accepted. Values never appear in the
 * repository: `wrangler secret put`, or `.dev.vars` locally.
 */
export type SecretNames = string | readonly [string, ...string[]];

interface SchemeBase {
  readonly description?: string;
}

/** An API key sent in a named header, query parameter or cookie. */
export interface ApiKeyScheme extends SchemeBase {
  readonly type: "apiKey";
  readonly in: "header" | "query" | "cookie";
  readonly name: string;
  readonly secret: SecretNames;
}

/** Signature algorithms a JWT may be verified with: asymmetric only, never `none` or HMAC. */
export const JWT_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/**
 * How a bearer JWT is verified (RFC 7519, RFC 8725). The key set, issuer and audience are
 * deployment configuration: each field names a Worker var (wrangler.toml `[vars]`), never
 * a value. A missing or unreachable key set fails closed. Every token must carry `exp`;
 * `nbf` and `iat` may not be in the future (beyond 30 s of clock skew).
 */
export interface JwtVerification {
  /** The var holding the JWKS URL (an `https:` URL). */
  readonly jwksUrl: string;
  /** The var holding the expected `iss`. */
  readonly issuer: string;
  /** The var holding the expected `aud`. */
  readonly audience: string;
  /** The algorithms accepted; `["RS256", "ES256"]` when absent. */
  readonly algorithms?: readonly JwtAlgorithm[];
  /**
   * `"rfc9068"` when the issuer's tokens are OAuth 2 access tokens as RFC 9068 shapes them:
   * each must then be typed `at+jwt` (or `application/at+jwt`, §2.1) and carry `iss`,
   * `exp`, `aud`, `sub`, `client_id`, `iat` and `jti` (§2.2), so no other JWT of the issuer
   * (an ID token, say) is taken for an access token. When absent, a token typed as some
   * other kind of JWT is refused (RFC 8725 §3.11), but one typed `JWT`, or not typed at
   * all, is accepted: many issuers still send `typ: JWT` for their access tokens.
   */
  readonly profile?: "rfc9068";
}

/** A bearer token in `Authorization` (RFC 6750 §2.1), compared with a secret. */
export interface BearerSecretScheme extends SchemeBase {
  readonly type: "http";
  readonly scheme: "bearer";
  /** A hint for documentation; the token is compared as an opaque string. */
  readonly bearerFormat?: string;
  readonly secret: SecretNames;
}

/** A bearer token in `Authorization` that is a JWT, verified against a key set. */
export interface BearerJwtScheme extends SchemeBase {
  readonly type: "http";
  readonly scheme: "bearer";
  readonly bearerFormat?: string;
  readonly jwt: JwtVerification;
  readonly introspection?: never;
}

/**
 * How an opaque bearer token is verified: by OAuth 2.0 Token Introspection (RFC 7662) at
 * the deployment's authorization server. Each field names a Worker secret, never a value:
 * the endpoint (an `https:` URL, or for a deployment that pins its tokens, and for local
 * work, a JSON object `{ "tokens": { "<sha-256 of a token, hex>": { "active": true, … } } }`),
 * and the client id and secret the Worker authenticates to it with (RFC 7662 §2.1).
 */
export interface TokenIntrospection {
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A var holding the audience the introspected token must have (`aud`), if one is required. */
  readonly audience?: string;
}

/** A bearer token in `Authorization` that is opaque: its issuer says whether it is active. */
export interface BearerIntrospectionScheme extends SchemeBase {
  readonly type: "http";
  readonly scheme: "bearer";
  readonly bearerFormat?: string;
  readonly introspection: TokenIntrospection;
  readonly jwt?: never;
}

/** A user-id and password in `Authorization` (RFC 7617); a secret holds `user-id:password`. */
export interface BasicScheme extends SchemeBase {
  readonly type: "http";
  readonly scheme: "basic";
  /** The protection space named in the challenge; RFC 7617 §2 requires a realm. */
  readonly realm: string;
  readonly secret: SecretNames;
}

/** One OAuth 2 flow (OpenAPI's OAuth Flow Object): its endpoints and scopes. */
export interface OAuthFlow {
  readonly authorizationUrl?: string;
  readonly tokenUrl?: string;
  readonly refreshUrl?: string;
  /** Scope name to what it grants. */
  readonly scopes: Readonly<Record<string, string>>;
}

/**
 * How an issued access token is verified: as a JWT in the Worker (RFC 9068), or, when the
 * authorization server issues opaque tokens, by asking it (RFC 7662). Exactly one.
 */
export type AccessTokenVerification =
  | { readonly jwt: JwtVerification; readonly introspection?: never }
  | { readonly introspection: TokenIntrospection; readonly jwt?: never };

/** OAuth 2 (RFC 6749): access tokens verified as `AccessTokenVerification` says. */
export type OAuth2Scheme = SchemeBase & {
  readonly type: "oauth2";
  readonly flows: {
    readonly implicit?: OAuthFlow;
    readonly password?: OAuthFlow;
    readonly clientCredentials?: OAuthFlow;
    readonly authorizationCode?: OAuthFlow;
  };
} & AccessTokenVerification;

/** OpenID Connect: its discovery URL for documentation; access tokens verified as declared. */
export type OpenIdConnectScheme = SchemeBase & {
  readonly type: "openIdConnect";
  readonly openIdConnectUrl: string;
} & AccessTokenVerification;

/** Where a verified scheme's credential travels: its Security Scheme Object as the API declares it. */
export interface DeclaredScheme {
  readonly type: "apiKey" | "http" | "mutualTLS";
  /** An API key's place and name. */
  readonly in?: "header" | "query" | "cookie";
  readonly name?: string;
  /** An http scheme's name (RFC 9110 §11.1: the auth-scheme), as the document writes it. */
  readonly scheme?: string;
}

/**
 * A way in whose credential no secret compares and no issuer vouches for: a request
 * signature, a client certificate, a scheme of the API's own. `verifiedBy` says who checks it:
 *
 * - `aws-sigv4`: the platform recomputes AWS Signature Version 4 (`Authorization:
 *   AWS4-HMAC-SHA256 Credential=…`) with the secret access key of the request's access key
 *   id, from the Worker secrets `accessKeys` names (one `<access key id>:<secret access
 *   key>` per line), and refuses a request dated more than AWS's 15 minutes away;
 * - `mutual-tls`: the client certificate Cloudflare verified at the edge
 *   (`request.cf.tlsClientAuth`); where the zone verifies none, every request is refused;
 * - `code`: a verifier the deployment gives beside its handlers (`verifiers` in
 *   src/handlers.ts, `defineVerifiers`); until it does, every request is refused (401).
 */
export interface VerifiedScheme extends SchemeBase {
  readonly type: "verified";
  readonly verifiedBy: "aws-sigv4" | "mutual-tls" | "code";
  readonly declared: DeclaredScheme;
  /** `aws-sigv4` only: the Worker secret(s) holding the access keys. */
  readonly accessKeys?: SecretNames;
}

/** Part 5: one security scheme, in OpenAPI's terms. */
export type SecurityScheme =
  | ApiKeyScheme
  | BearerSecretScheme
  | BearerJwtScheme
  | BearerIntrospectionScheme
  | BasicScheme
  | OAuth2Scheme
  | OpenIdConnectScheme
  | VerifiedScheme;

/** Part 6: one event the service emits, as OpenAPI 3.1's `webhooks` describes one. */
export interface EventDeclaration {
  readonly summary?: string;
  readonly description?: string;
  /** Names of part 1's tags. */
  readonly tags?: readonly string[];
  /** The JSON payload each delivery carries. */
  readonly payload: SchemaDeclaration;
  /** Named examples of the payload. */
  readonly examples?: Readonly<Record<string, Example>>;
  /**
   * The body of each delivery. `standard-webhooks` (the default): the Standard Webhooks
   * envelope, `{ type, timestamp, data }`, the payload its data. `payload`: the payload
   * itself, for a spec whose payload already is an envelope (`{ type, created_at, data }`),
   * so a receiver written for it does not read `data.data`. The Standard Webhooks headers
   * (id, timestamp, signature) are sent either way.
   */
  readonly envelope?: "standard-webhooks" | "payload";
  /**
   * How long after the event its deliveries are retried, at most, in seconds (a spec's "retries
   * stop after 24 hours": 86400). The Standard Webhooks schedule runs about 27.6 hours; within
   * this bound its last attempt is made at the bound, and none after it.
   */
  readonly retryFor?: number;
  /** What a receiver is expected to answer, by status or range (OpenAPI's webhook responses). */
  readonly responses?: Readonly<Record<number, { readonly description: string }>> &
    Readonly<Partial<Record<StatusRange, { readonly description: string }>>>;
}

/**
 * What the platform says of each failure, where an error type's body has a member for it:
 * RFC 9457's members (status, title, detail, type), the request id, and a 422's violations,
 * as the list it makes (`errors`: `{ in, pointer, detail }` each), or as an object by field
 * (`{ "address.city": "…" }`, as Jira's `errors` and many frameworks' are written): each
 * violation's field (its pointer's tokens joined by `.`, or the part it is in where it
 * points at the whole part) to its message (`fieldErrors`), or to the list of its messages
 * (`fieldErrorLists`). A handler's own value of that member is kept.
 */
export type ErrorFact =
  | "status"
  /** The status as a string of digits (`"422"`), as JSON:API's error objects write it. */
  | "statusString"
  | "title"
  | "detail"
  | "type"
  | "requestId"
  /** When the answer was made, an RFC 3339 date-time (Spring Boot's `timestamp`). */
  | "timestamp"
  /** The seconds to wait, as the answer's Retry-After header says (RFC 9110 §10.2.3). */
  | "retryAfter"
  /** The methods the target allows, as the 405's Allow header lists them (RFC 9110 §10.2.1). */
  | "allowedMethods"
  /** The versions a request may ask for, where part 9's negotiation refused one. */
  | "supportedVersions"
  | "errors"
  | "fieldErrors"
  | "fieldErrorLists";

/**
 * What the platform says of one violation of a 422 (or a 400 that presents one), where an
 * item of the API's own list has a member for it: its sentence, where it is (the request
 * part it is `in`; a JSON Pointer in that part, RFC 6901, `/lines/0/quantity`; the same as
 * a dotted path with indexes in brackets, `lines[0].quantity`; or as segments, the part
 * first, `["body", "lines", 0, "quantity"]`, as FastAPI's `loc`), the name of the member at
 * fault, and which check failed, as the JSON Schema validation keyword (2020-12: `required`,
 * `type`, `maxLength`, `pattern`, `enum`, `additionalProperties`, …).
 */
export type ViolationFact =
  | "message"
  | "in"
  | "pointer"
  | "path"
  | "segments"
  /** The segments with every index a string too (`["body", "lines", "0"]`), where the item's list takes strings only. */
  | "stringSegments"
  | "member"
  | "keyword";

/** A JSON value, as a fixed member of an error body holds it. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [member: string]: JsonValue };

/**
 * The violations as a list in the API's own item shape: where in the body the list goes
 * (a JSON Pointer), and, as JSON Pointers into one item, where each fact of a violation
 * goes, where the failure's own facts are repeated (JSON:API's `status` in each item), and
 * what every item holds as given.
 */
export interface ViolationList {
  readonly at: string;
  readonly item: Readonly<
    Partial<Record<ViolationFact | "status" | "statusString" | "title", string>>
  >;
  readonly fixed?: Readonly<Record<string, JsonValue>>;
}

/**
 * An error body that is not an RFC 9457 problem document, as many APIs' are
 * (`{ "code": 404, "message": "…" }`, `{ "error": { "message": "…" } }`): its media type
 * (a JSON one), and where in it each fact the platform knows goes, as a JSON Pointer
 * (RFC 6901) into the body. A fact without a member is left out; so is every RFC 9457
 * member that has none.
 */
export interface ErrorBody {
  readonly mediaType: string;
  readonly carries: Readonly<Partial<Record<ErrorFact, string>>>;
  /**
   * What every answer of the type holds as given, at JSON Pointers into the body: the
   * type's own code (`{ "/error/code": "invalid_transition" }`).
   */
  readonly fixed?: Readonly<Record<string, JsonValue>>;
  /** The violations, as a list of the API's own items (`ViolationList`). */
  readonly violations?: ViolationList;
}

/** Part 7: one error type of the service, answered as an RFC 9457 problem, or its own body. */
export interface ErrorType {
  readonly status: number;
  readonly title: string;
  readonly description?: string;
  /**
   * The type's URI (RFC 9457 §3.1.1): an absolute URI the spec gives, whose documentation
   * lives elsewhere. Absent, the service hosts its page at `/_service/problems/<name>`.
   */
  readonly type?: string;
  /** Extension members (RFC 9457 §3.2), each with its schema. */
  readonly members?: Readonly<Record<string, SchemaDeclaration>>;
  /**
   * The problem document's schema as the spec writes it (often a part 2 resource), for the
   * OpenAPI document: answers of this type are documented as the platform's problem and
   * this schema both. What a handler answers is checked against `members`.
   */
  readonly schema?: SchemaDeclaration;
  /**
   * The platform failures answered as this type, for every operation (the spec's own error
   * model): the answer takes this type's status, URI and title, and keeps the platform's
   * detail and members. An operation's own `presents` wins for that operation.
   */
  readonly presents?: readonly PlatformProblem[];
  /**
   * Answers of this type are this body, not an RFC 9457 problem document: its `members`
   * (and `schema`) describe it, and the platform's facts go where `carries` says.
   */
  readonly body?: ErrorBody;
  /**
   * The header fields the spec documents on its answers (a `RateLimit`, a `Retry-After`),
   * by lower-case name, for the OpenAPI document. The platform sets the ones it knows (RFC
   * 9110's Retry-After, Allow, WWW-Authenticate) on the failures it presents; none is
   * documented as required, since no one else sets an API's own.
   */
  readonly headers?: SchemaDeclaration;
  /** Named examples of its body, as the spec gives them. */
  readonly examples?: Readonly<Record<string, Example>>;
  /**
   * The spec documents its answers as RFC 9457 Appendix B's `application/problem+xml` too: a
   * request whose Accept asks for XML gets them so (with the XML codec, as for part 4's XML).
   */
  readonly xml?: boolean;
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
  /**
   * `client`: the caller's address; `credential`: the credential that authenticated it (a
   * digest of a compared secret, or a JWT's issuer and subject).
   */
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

/** The retirement of a version, or of one operation. */
export interface Retirement {
  /** Since when it is deprecated (an ISO 8601 date or date-time): `Deprecation` (RFC 9745). */
  readonly deprecated?: string;
  /** When it stops being served (ISO 8601), never before `deprecated`: `Sunset` (RFC 8594); after it, 410. */
  readonly sunset?: string;
  /** Where the migration notes are (an absolute URL): `Link` rel="deprecation" and rel="sunset". */
  readonly migration?: string;
}

/** Part 9: one version of the interface, and its retirement. */
export type VersionDeclaration = Retirement;

/** Where a client states the version it wants. */
export type VersionPlacement =
  | { readonly in: "header"; readonly name: string }
  | { readonly in: "query"; readonly name: string }
  /** A parameter of the `Accept` media type, e.g. `application/json; version=2`. */
  | { readonly in: "media-type"; readonly parameter: string }
  /**
   * The path's first segment, e.g. `/v2/items` for version `v2` of `/items`: every
   * operation is served under each version that has it, and a path without a version is
   * not an operation's (so a version is always stated, whatever `required` says).
   */
  | { readonly in: "path" };

/** Part 9: how the service versions its interface. */
export interface Versioning {
  /** The version served when a client states none (and listed first in the document). */
  readonly current: string;
  readonly description?: string;
  /**
   * The versions a client may ask for, oldest first, by identifier. Without them the
   * version is only documented; with them it is negotiated where `placement` says.
   */
  readonly versions?: Readonly<Record<string, VersionDeclaration>>;
  readonly placement?: VersionPlacement;
  /** A request that states no version is a 400 instead of getting `current`. */
  readonly required?: boolean;
}

/** The whole interface: nine parts, each possibly empty ("not specified"). */
export interface Contract {
  readonly purpose: Purpose | undefined;
  readonly resources: Readonly<Record<string, SchemaDeclaration>>;
  readonly states: Readonly<Record<string, StateMachine>>;
  readonly operations: Readonly<Record<string, Operation>>;
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  readonly events: Readonly<Record<string, EventDeclaration>>;
  readonly errors: Readonly<Record<string, ErrorType>>;
  readonly limits: Readonly<Record<string, Limit>>;
  readonly versioning: Versioning | undefined;
}

/**
 * Whether an operation (or one of its variants) declares an XML body or answer, or an error
 * type its problem+xml form.
 */
export function declaresXml(contract: Contract): boolean {
  if (Object.values(contract.errors).some((error) => error.xml === true)) return true;
  return Object.values(contract.operations).some((operation) =>
    operationShapes(operation).some((shape) =>
      [shape.request?.body, ...Object.values(shape.responses).map((r) => r?.content)].some(
        (content) => Object.keys(content ?? {}).some(isXmlMediaType),
      ),
    ),
  );
}

/** Whether a media type was declared with its examples (`{ schema, examples }`), not as its schema alone. */
export function isMediaDeclaration(
  declared: SchemaDeclaration | MediaDeclaration,
): declared is MediaDeclaration {
  return typeof declared === "object" && !("_zod" in declared);
}

/** The schema of one media type of a body, whichever way it was declared, built (`resolveSchema`). */
export function schemaOf(declared: SchemaDeclaration | MediaDeclaration): Schema {
  return resolveSchema(isMediaDeclaration(declared) ? declared.schema : declared);
}

/** The request field a verified scheme's credential travels in, if it is one. */
export function verifiedField(
  scheme: VerifiedScheme,
): { readonly in: "header" | "query" | "cookie"; readonly name: string } | undefined {
  const { declared } = scheme;
  if (scheme.verifiedBy === "mutual-tls" || declared.type === "mutualTLS") return undefined;
  if (declared.type === "apiKey" && declared.in && declared.name)
    return { in: declared.in, name: declared.name };
  return { in: "header", name: "Authorization" };
}

/** The Worker secrets a secret-compared scheme accepts, as a list. */
export function secretNames(names: SecretNames): readonly string[] {
  return typeof names === "string" ? [names] : names;
}

/**
 * Whether a scheme's tokens are vouched for by an issuer (a JWT's key set, or token
 * introspection): they grant scopes, and may be unverifiable while the issuer cannot be
 * reached (503), where a compared secret never is.
 */
export function issuerVouched(scheme: SecurityScheme): boolean {
  return jwtOf(scheme) !== undefined || introspectionOf(scheme) !== undefined;
}

/** How a scheme's tokens are verified as JWTs, if they are. */
export function jwtOf(scheme: SecurityScheme): JwtVerification | undefined {
  return "jwt" in scheme ? scheme.jwt : undefined;
}

/** How a scheme's opaque tokens are introspected, if they are. */
export function introspectionOf(scheme: SecurityScheme): TokenIntrospection | undefined {
  return "introspection" in scheme ? scheme.introspection : undefined;
}
