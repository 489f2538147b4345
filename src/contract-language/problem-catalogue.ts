/**
 * The problem catalogue: every problem type the platform and the operation engine answer
 * with (RFC 9457), each declared once, with its slug, status, title, page text, members and
 * their schemas, the schema it is documented under in the OpenAPI document, and whether
 * part 7 (a contract's error model) may present it. Everything else is derived from it:
 * the failures part 7 may present (`PLATFORM_PROBLEMS`), the members the platform fills in
 * each, the slugs part 7 may not take, the schema names a resource may not take
 * (`reserved.ts`), and the importer's reading of a spec's error statuses.
 *
 * It lives in the contract language, the bottom of the seam (engine → platform →
 * contract-language), because the contract's own types need it: `ErrorType.presents`
 * names its failures, and `defineContract` refuses a resource named like one of its
 * schemas. It is data only, so the platform and the engine import it without importing
 * each other; each entry is its own constant, so a Worker bundles only the entries its
 * code uses (the engine's page text stays out of a Worker that declares nothing).
 */

/** A JSON Schema, as written into the OpenAPI document. */
type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * What an answer of a problem type says of it (RFC 9457 §3.1): the Worker reads these, so
 * each entry's facts are a constant of their own, apart from its page.
 */
export interface ProblemFacts {
  /** Its name: the last segment of its `type` URI, `/_service/problems/<slug>`. */
  readonly slug: string;
  /** Who answers with it: the platform always, the engine once the contract declares its cause. */
  readonly owner: "platform" | "engine";
  /** The `components.schemas` name its answers are documented under. */
  readonly schemaName: string;
  /**
   * Whether part 7 may present it as one of the contract's own error types. When it
   * does, the platform fills every member its page gives a schema (besides requestId).
   */
  readonly presentable: boolean;
  /**
   * `about:blank` for a failure with no meaning beyond its status (RFC 9457 §4.2.1): no
   * page, documented as the plain problem. Absent, the page is hosted here.
   */
  readonly uri?: "about:blank";
  readonly title: string;
  readonly status: number;
}

/**
 * What documents a problem type: its page and its schema in the OpenAPI document, both
 * made by the build, so none of it is in a Worker's script (the build's assets carry it).
 */
export interface ProblemPage {
  /** Plain text for the documentation page: when this problem occurs and what to do. */
  readonly description: string;
  /** Extension members (RFC 9457 §3.2), with what each means. */
  readonly members: Readonly<Record<string, string>>;
  /** The JSON Schema of each extension member, for the OpenAPI document (requestId aside). */
  readonly schemas?: Readonly<Record<string, JsonSchema>>;
  /** The members of `schemas` some answers of the type leave out; every other one is required. */
  readonly optional?: readonly string[];
}

/** One problem type of the platform or the engine: its facts and its page. */
export interface CataloguedProblem extends ProblemFacts, ProblemPage {}

/** An entry of the catalogue. A pure call, so a Worker that reads no page bundles none. */
function entry<F extends ProblemFacts, P extends ProblemPage>(facts: F, page: P): F & P {
  return { ...facts, ...page };
}

/** What the member every platform problem carries means. */
const REQUEST_ID = "The id of the request, also sent as the X-Request-Id header.";
/**
 * The member every platform problem carries. Entries name it rather than spread this: a
 * spread may run a getter, so a bundler keeps it, and with it every entry, in every Worker.
 */
export const REQUEST_ID_MEMBER = { requestId: REQUEST_ID } as const;

/**
 * The members a problem's own facts take (RFC 9457 §3.1, and the platform's requestId): no
 * error type may declare a member of these names for a handler to give.
 */
export const PROBLEM_OWN_MEMBERS: readonly string[] = [
  "type",
  "title",
  "status",
  "detail",
  "instance",
  "requestId",
];

const STRINGS = { type: "array", items: { type: "string" } } as const;

export const INTERFACE_NOT_SPECIFIED = {
  slug: "interface-not-specified",
  owner: "platform",
  schemaName: "InterfaceNotSpecifiedProblem",
  presentable: false,
  title: "Interface not specified",
  status: 501,
} as const satisfies ProblemFacts;
const INTERFACE_NOT_SPECIFIED_PAGE = {
  description:
    "The request falls outside the operational namespace /_service, where only the " +
    "service's own interface can answer, and the part of the interface specification " +
    "that would define the answer is not specified yet. Nothing was done and the request " +
    "body, if any, was not read. The request may succeed once a revision of the " +
    "specification declares that part; /_service/interface shows which parts are declared.",
  members: {
    missingPart:
      "The specification part that is missing, as { number, name }, e.g. 4 and endpoints.",
    statusReport: "Where the interface status report can be read.",
    requestId: REQUEST_ID,
  },
  schemas: {
    missingPart: {
      type: "object",
      properties: { number: { type: "integer", minimum: 1, maximum: 9 }, name: { type: "string" } },
      required: ["number", "name"],
    },
    statusReport: { type: "string", format: "uri-reference" },
  },
} as const satisfies ProblemPage;

export const OPERATION_NOT_IMPLEMENTED = {
  slug: "operation-not-implemented",
  owner: "engine",
  schemaName: "OperationNotImplementedProblem",
  presentable: true,
  title: "Operation not implemented",
  status: 501,
} as const satisfies ProblemFacts;
const OPERATION_NOT_IMPLEMENTED_PAGE = {
  description:
    "The contract declares this operation, and the request was valid for it, but no " +
    "handler is attached to it yet. Nothing was done. The request may succeed once the " +
    "operation is implemented.",
  members: { operationId: "The id of the declared operation.", requestId: REQUEST_ID },
  schemas: { operationId: { type: "string" } },
} as const satisfies ProblemPage;

export const UNSUPPORTED_MEDIA_TYPE = {
  slug: "unsupported-media-type",
  owner: "engine",
  schemaName: "UnsupportedMediaTypeProblem",
  presentable: true,
  title: "Unsupported media type",
  status: 415,
} as const satisfies ProblemFacts;
const UNSUPPORTED_MEDIA_TYPE_PAGE = {
  description:
    "The request carried a body this operation does not accept: either the operation " +
    "takes no body, or the Content-Type is not one it declares. Media types match " +
    "case-insensitively; for text, JSON, XML and forms a charset parameter other than " +
    "utf-8 does not match.",
  members: {
    acceptedMediaTypes: "The media types the operation accepts; empty when it takes no body.",
    requestId: REQUEST_ID,
  },
  schemas: { acceptedMediaTypes: STRINGS },
} as const satisfies ProblemPage;

export const CONTENT_TOO_LARGE = {
  slug: "content-too-large",
  owner: "engine",
  schemaName: "ContentTooLargeProblem",
  presentable: true,
  title: "Content too large",
  status: 413,
} as const satisfies ProblemFacts;
const CONTENT_TOO_LARGE_PAGE = {
  description:
    "The request body is larger than the operation accepts, counted in bytes as it " +
    "arrived. The body was not processed.",
  members: { maxBytes: "The largest body accepted, in bytes.", requestId: REQUEST_ID },
  schemas: { maxBytes: { type: "integer", minimum: 0 } },
} as const satisfies ProblemPage;

export const MALFORMED_REQUEST = {
  slug: "malformed-request",
  owner: "engine",
  schemaName: "MalformedRequestProblem",
  presentable: true,
  title: "Malformed request",
  status: 400,
} as const satisfies ProblemFacts;
const MALFORMED_REQUEST_PAGE = {
  description:
    "The request could not be read: its body is missing where one is required, empty, " +
    "not valid UTF-8, not well-formed JSON or a malformed form, or it contains a member " +
    "named __proto__ or constructor.prototype; or its Content-Length is malformed. The " +
    "detail says which.",
  members: REQUEST_ID_MEMBER,
} as const satisfies ProblemPage;

export const VALIDATION_FAILED = {
  slug: "validation-failed",
  owner: "engine",
  schemaName: "ValidationFailedProblem",
  presentable: true,
  title: "Validation failed",
  status: 422,
} as const satisfies ProblemFacts;
const VALIDATION_FAILED_PAGE = {
  description:
    "The request was well-formed but does not satisfy the operation's declared schemas. " +
    "Up to 100 violations are listed (the detail gives the full count); none quotes the values sent.",
  members: {
    errors:
      "The violations, each { in, pointer, detail }: in is path, query, header, cookie or " +
      "body; pointer is a JSON Pointer (RFC 6901, URI fragment form) into that part.",
    requestId: REQUEST_ID,
  },
  schemas: {
    errors: {
      type: "array",
      maxItems: 100,
      items: {
        type: "object",
        properties: {
          in: { enum: ["path", "query", "header", "cookie", "body"] },
          pointer: { type: "string" },
          detail: { type: "string" },
        },
        required: ["in", "pointer", "detail"],
      },
    },
  },
} as const satisfies ProblemPage;

export const NOT_ACCEPTABLE = {
  slug: "not-acceptable",
  owner: "engine",
  schemaName: "NotAcceptableProblem",
  presentable: true,
  title: "Not acceptable",
  status: 406,
} as const satisfies ProblemFacts;
const NOT_ACCEPTABLE_PAGE = {
  description:
    "The request's Accept header excludes every media type in which this operation can " +
    "answer (RFC 9110 §15.5.7). Nothing was done: the check comes before the operation " +
    "runs. Send an Accept that includes one of the available media types, or none.",
  members: {
    availableMediaTypes: "The media types the operation answers in.",
    requestId: REQUEST_ID,
  },
  schemas: { availableMediaTypes: STRINGS },
} as const satisfies ProblemPage;

export const INSUFFICIENT_SCOPE = {
  slug: "insufficient-scope",
  owner: "engine",
  schemaName: "InsufficientScopeProblem",
  presentable: true,
  title: "Insufficient scope",
  status: 403,
} as const satisfies ProblemFacts;
const INSUFFICIENT_SCOPE_PAGE = {
  description:
    "The request's credentials are valid, but do not grant the scopes this operation " +
    "needs (RFC 6750 §3.1). The WWW-Authenticate header names them as error=" +
    '"insufficient_scope" with scope="…". Nothing was done and the body, if any, was not ' +
    "read. A token with those scopes may succeed.",
  members: {
    requiredScopes: "The scopes the operation needs.",
    requestId: REQUEST_ID,
  },
  schemas: { requiredScopes: STRINGS },
} as const satisfies ProblemPage;

export const AUTHENTICATION_REQUIRED = {
  slug: "authentication-required",
  owner: "engine",
  schemaName: "AuthenticationRequiredProblem",
  presentable: true,
  title: "Authentication required",
  status: 401,
} as const satisfies ProblemFacts;
const AUTHENTICATION_REQUIRED_PAGE = {
  description:
    "The operation requires credentials and the request carried none that are valid for " +
    "it. Missing, malformed and wrong credentials get the same answer, so the answer does " +
    "not tell which. The WWW-Authenticate header has a challenge for each scheme the " +
    "operation accepts (RFC 9110 §11.6.1); an API key, which has no registered HTTP " +
    'authentication scheme, is challenged as ApiKey with in="…" and name="…" saying ' +
    "where the key goes. Nothing was done and the body, if any, was not read.",
  members: {
    security:
      "The requirements the operation accepts, any one of which suffices; each names the " +
      "schemes that must all be satisfied, with the scopes each must grant (as in the " +
      "OpenAPI document).",
    requestId: REQUEST_ID,
  },
  schemas: {
    security: {
      type: "array",
      items: { type: "object", additionalProperties: STRINGS },
    },
  },
} as const satisfies ProblemPage;

export const RATE_LIMIT_EXCEEDED = {
  slug: "rate-limit-exceeded",
  owner: "engine",
  schemaName: "RateLimitExceededProblem",
  presentable: true,
  title: "Rate limit exceeded",
  status: 429,
} as const satisfies ProblemFacts;
const RATE_LIMIT_EXCEEDED_PAGE = {
  description:
    "More requests arrived than a rate limit of the interface (specification part 8) " +
    "allows (RFC 6585 §4). Nothing was done. The Retry-After header gives, in seconds, the " +
    "limit's whole period: the longest wait before the count starts again (RFC 9110 " +
    "§10.2.3). Requests are counted per Cloudflare location and the counts are eventually " +
    "consistent, so a burst may exceed the limit slightly before it is enforced.",
  members: {
    limit: "The name of the limit in the interface's part 8.",
    maxRequests: "How many requests the limit allows per period.",
    periodSeconds: "The period, in seconds.",
    requestId: REQUEST_ID,
  },
  schemas: {
    limit: { type: "string" },
    maxRequests: { type: "integer", minimum: 1 },
    periodSeconds: { type: "integer", minimum: 1 },
  },
} as const satisfies ProblemPage;

export const STATE_CONFLICT = {
  slug: "state-conflict",
  owner: "engine",
  schemaName: "StateConflictProblem",
  presentable: true,
  title: "State conflict",
  status: 409,
} as const satisfies ProblemFacts;
const STATE_CONFLICT_PAGE = {
  description:
    "The operation performs a transition of a state machine of the interface " +
    "(specification part 3), and the resource is in a state from which that transition " +
    "is not allowed, or the operation acts only on a resource in some of the machine's " +
    "states and this one is in another (RFC 9110 §15.5.10). Nothing was changed. The " +
    "answer names the resource's current state, and the triggers allowed from it or the " +
    "states the operation acts in.",
  members: {
    machine: "The state machine.",
    trigger: "The trigger this operation performs.",
    currentState: "The resource's current state.",
    allowedTriggers: "The triggers the machine allows from the current state.",
    allowedStates: "The states the operation acts in (an operation that moves no state).",
    requestId: REQUEST_ID,
  },
  schemas: {
    machine: { type: "string" },
    trigger: { type: "string" },
    currentState: { type: "string" },
    allowedTriggers: STRINGS,
    allowedStates: STRINGS,
  },
  // A transition refused names its trigger and those allowed, an operation acting only in
  // some states those states; a state the machine does not have is never named back.
  optional: ["trigger", "currentState", "allowedTriggers", "allowedStates"],
} as const satisfies ProblemPage;

export const UNSUPPORTED_VERSION = {
  slug: "unsupported-version",
  owner: "engine",
  schemaName: "UnsupportedVersionProblem",
  presentable: true,
  title: "Unsupported version",
  status: 400,
} as const satisfies ProblemFacts;
const UNSUPPORTED_VERSION_PAGE = {
  description:
    "The request asks for a version of the interface (specification part 9) this service " +
    "does not have, or states none where the service requires one. Nothing was done. " +
    "Ask for one of the supported versions, where the interface says a version is stated.",
  members: {
    supportedVersions: "The versions a request may ask for.",
    requestId: REQUEST_ID,
  },
  schemas: { supportedVersions: STRINGS },
} as const satisfies ProblemPage;

export const VERSION_GONE = {
  slug: "version-gone",
  owner: "engine",
  schemaName: "VersionGoneProblem",
  presentable: true,
  title: "Version gone",
  status: 410,
} as const satisfies ProblemFacts;
const VERSION_GONE_PAGE = {
  description:
    "The version of the interface the request asks for is past its sunset date (RFC 8594) " +
    "and is no longer served. Nothing was done. The migration notes, where the interface " +
    "gives them, say how to move to a supported version.",
  members: {
    version: "The version asked for.",
    sunset: "When it stopped being served.",
    supportedVersions: "The versions a request may ask for.",
    requestId: REQUEST_ID,
  },
  schemas: {
    version: { type: "string" },
    sunset: { type: "string" },
    supportedVersions: STRINGS,
  },
} as const satisfies ProblemPage;

export const NOT_IN_VERSION = {
  slug: "not-in-version",
  owner: "engine",
  schemaName: "NotInVersionProblem",
  presentable: true,
  title: "Not in this version",
  status: 404,
} as const satisfies ProblemFacts;
const NOT_IN_VERSION_PAGE = {
  description:
    "The operation exists, but not in the version of the interface the request asks for. " +
    "Nothing was done. The answer names the versions that have it.",
  members: {
    operationId: "The id of the declared operation.",
    availableIn: "The versions that have the operation.",
    requestId: REQUEST_ID,
  },
  schemas: { operationId: { type: "string" }, availableIn: STRINGS },
} as const satisfies ProblemPage;

export const OPERATION_GONE = {
  slug: "operation-gone",
  owner: "engine",
  schemaName: "OperationGoneProblem",
  presentable: true,
  title: "Operation gone",
  status: 410,
} as const satisfies ProblemFacts;
const OPERATION_GONE_PAGE = {
  description:
    "The operation was deprecated and is past its sunset date (RFC 8594); it is no longer " +
    "served. Nothing was done. The migration notes, where the interface gives them, are " +
    "linked from the answer's `Link` header.",
  members: {
    operationId: "The id of the declared operation.",
    sunset: "When it stopped being served.",
    requestId: REQUEST_ID,
  },
  schemas: { operationId: { type: "string" }, sunset: { type: "string" } },
} as const satisfies ProblemPage;

// Failures with no meaning beyond their status code (RFC 9457 §4.2.1: `about:blank`, the
// reason phrase as title), catalogued because part 7 may present them.

export const NOT_FOUND_FAILURE = {
  slug: "not-found",
  owner: "platform",
  schemaName: "Problem",
  presentable: true,
  uri: "about:blank",
  title: "Not Found",
  status: 404,
} as const satisfies ProblemFacts;
const NOT_FOUND_FAILURE_PAGE = {
  description: "No resource is at this path (RFC 9110 §15.5.5).",
  members: REQUEST_ID_MEMBER,
} as const satisfies ProblemPage;

export const METHOD_NOT_ALLOWED_FAILURE = {
  slug: "method-not-allowed",
  owner: "platform",
  schemaName: "Problem",
  presentable: true,
  uri: "about:blank",
  title: "Method Not Allowed",
  status: 405,
} as const satisfies ProblemFacts;
const METHOD_NOT_ALLOWED_FAILURE_PAGE = {
  description:
    "The resource does not answer this method; Allow lists those it does (RFC 9110 §15.5.6).",
  members: REQUEST_ID_MEMBER,
} as const satisfies ProblemPage;

export const INTERNAL_ERROR_FAILURE = {
  slug: "internal-error",
  owner: "platform",
  schemaName: "Problem",
  presentable: true,
  uri: "about:blank",
  title: "Internal Server Error",
  status: 500,
} as const satisfies ProblemFacts;
const INTERNAL_ERROR_FAILURE_PAGE = {
  description: "An unexpected error; the whole error went to the log, never to the client.",
  members: REQUEST_ID_MEMBER,
} as const satisfies ProblemPage;

export const SERVICE_UNAVAILABLE_FAILURE = {
  slug: "service-unavailable",
  owner: "platform",
  schemaName: "Problem",
  presentable: true,
  uri: "about:blank",
  title: "Service Unavailable",
  status: 503,
} as const satisfies ProblemFacts;
const SERVICE_UNAVAILABLE_FAILURE_PAGE = {
  description:
    "Something the answer needs cannot be reached right now: the issuer that vouches for a " +
    "token, or the queue a request's events go to (RFC 9110 §15.6.4). Retry-After says when " +
    "to try again.",
  members: REQUEST_ID_MEMBER,
} as const satisfies ProblemPage;

/** Every problem type, once. The order is the one part 7's failures are listed in. */
export const PROBLEM_CATALOGUE = [
  /* @__PURE__ */ entry(INTERFACE_NOT_SPECIFIED, INTERFACE_NOT_SPECIFIED_PAGE),
  /* @__PURE__ */ entry(MALFORMED_REQUEST, MALFORMED_REQUEST_PAGE),
  /* @__PURE__ */ entry(VALIDATION_FAILED, VALIDATION_FAILED_PAGE),
  /* @__PURE__ */ entry(AUTHENTICATION_REQUIRED, AUTHENTICATION_REQUIRED_PAGE),
  /* @__PURE__ */ entry(INSUFFICIENT_SCOPE, INSUFFICIENT_SCOPE_PAGE),
  /* @__PURE__ */ entry(NOT_FOUND_FAILURE, NOT_FOUND_FAILURE_PAGE),
  /* @__PURE__ */ entry(METHOD_NOT_ALLOWED_FAILURE, METHOD_NOT_ALLOWED_FAILURE_PAGE),
  /* @__PURE__ */ entry(NOT_ACCEPTABLE, NOT_ACCEPTABLE_PAGE),
  /* @__PURE__ */ entry(CONTENT_TOO_LARGE, CONTENT_TOO_LARGE_PAGE),
  /* @__PURE__ */ entry(UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_MEDIA_TYPE_PAGE),
  /* @__PURE__ */ entry(RATE_LIMIT_EXCEEDED, RATE_LIMIT_EXCEEDED_PAGE),
  /* @__PURE__ */ entry(INTERNAL_ERROR_FAILURE, INTERNAL_ERROR_FAILURE_PAGE),
  /* @__PURE__ */ entry(SERVICE_UNAVAILABLE_FAILURE, SERVICE_UNAVAILABLE_FAILURE_PAGE),
  /* @__PURE__ */ entry(OPERATION_NOT_IMPLEMENTED, OPERATION_NOT_IMPLEMENTED_PAGE),
  /* @__PURE__ */ entry(STATE_CONFLICT, STATE_CONFLICT_PAGE),
  /* @__PURE__ */ entry(UNSUPPORTED_VERSION, UNSUPPORTED_VERSION_PAGE),
  /* @__PURE__ */ entry(VERSION_GONE, VERSION_GONE_PAGE),
  /* @__PURE__ */ entry(NOT_IN_VERSION, NOT_IN_VERSION_PAGE),
  /* @__PURE__ */ entry(OPERATION_GONE, OPERATION_GONE_PAGE),
] as const;

type Catalogued = (typeof PROBLEM_CATALOGUE)[number];

/** The platform's failures part 7 may present as its own error types, by name. */
export type PlatformProblem = Extract<Catalogued, { readonly presentable: true }>["slug"];
/** The problem types the engine brings: reserved even where nothing declares them. */
export type EngineProblemSlug = Extract<Catalogued, { readonly owner: "engine" }>["slug"];
/** The schema names problems are documented under. */
export type ProblemSchemaName = Catalogued["schemaName"];
/** A problem type of the engine, as its answers name it (its page: `catalogued(slug)`). */
export type EngineProblemType = ProblemFacts & { readonly slug: EngineProblemSlug };

/** The catalogue's entries that pass `keep`. Derived lists are pure calls, so they tree-shake. */
function entriesWhere<E extends Catalogued>(keep: (entry: Catalogued) => entry is E): readonly E[] {
  return PROBLEM_CATALOGUE.filter(keep);
}

/**
 * The failures part 7 may present, in the catalogue's order: a spec whose error model says
 * "invalid input is a 400 of type X" is then served so.
 */
export const PLATFORM_PROBLEMS: readonly PlatformProblem[] = /* @__PURE__ */ slugsOf(
  /* @__PURE__ */ entriesWhere(
    (entry): entry is Extract<Catalogued, { readonly presentable: true }> => entry.presentable,
  ),
);

/**
 * The slugs of the types hosted here (each with its page): part 7 may not take one as the
 * name of its own error type, even where nothing declares it.
 */
export const RESERVED_PROBLEM_SLUGS: readonly string[] = /* @__PURE__ */ slugsOf(
  /* @__PURE__ */ entriesWhere(
    (entry): entry is Exclude<Catalogued, { readonly uri: "about:blank" }> => !("uri" in entry),
  ),
);

/** The schema names problems are documented under, each once, in the catalogue's order. */
export const PROBLEM_SCHEMA_NAMES: readonly ProblemSchemaName[] =
  /* @__PURE__ */ schemaNamesOf(PROBLEM_CATALOGUE);

function slugsOf<E extends Catalogued>(entries: readonly E[]): readonly E["slug"][] {
  return entries.map((entry) => entry.slug);
}

function schemaNamesOf(entries: readonly Catalogued[]): readonly ProblemSchemaName[] {
  return [...new Set(entries.map((entry) => entry.schemaName))];
}

/** The catalogue's entry of a slug, if it has one. */
export function catalogued(slug: string): CataloguedProblem | undefined {
  return PROBLEM_CATALOGUE.find((entry) => entry.slug === slug);
}

/**
 * The members the platform fills in a failure part 7 presents (besides requestId): every
 * member its entry gives a schema, but those some of its answers leave out.
 */
export function filledMembers(kind: PlatformProblem): readonly string[] {
  const entry = catalogued(kind);
  const optional = new Set<string>(entry && "optional" in entry ? entry.optional : []);
  return Object.keys(entry?.schemas ?? {}).filter((member) => !optional.has(member));
}

/**
 * A problem type's facts with its page, for what documents it (the build: the OpenAPI
 * document, the problem pages, the status report). Never called by what serves.
 */
export function withPage<F extends ProblemFacts>(facts: F): F & ProblemPage {
  const page = catalogued(facts.slug);
  if (!page) throw new Error(`problem type ${facts.slug} is not in the catalogue`);
  return page as F & ProblemPage;
}
