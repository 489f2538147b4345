/**
 * Problem types the platform answers with only once the contract declares what causes
 * them: operations (part 4), credentials (part 5) or a rate limit (part 8). They belong to
 * the operation engine, so a Worker that declares none of these neither ships nor
 * documents them.
 */
import { type Contract, type Operation, operationShapes } from "../contract-language/contract";
import type { ProblemType } from "../platform/problem";
import { type EngineProblemSlug, REQUEST_ID_MEMBER } from "../platform/problem-types";

const STRINGS = { type: "array", items: { type: "string" } } as const;

/** A problem type of the engine: its slug is one the platform reserves for it. */
export interface EngineProblemType extends ProblemType {
  readonly slug: EngineProblemSlug;
}

export const OPERATION_NOT_IMPLEMENTED: EngineProblemType = {
  slug: "operation-not-implemented",
  title: "Operation not implemented",
  status: 501,
  description:
    "The contract declares this operation, and the request was valid for it, but no " +
    "handler is attached to it yet. Nothing was done. The request may succeed once the " +
    "operation is implemented.",
  members: { operationId: "The id of the declared operation.", ...REQUEST_ID_MEMBER },
  schemas: { operationId: { type: "string" } },
};

export const UNSUPPORTED_MEDIA_TYPE: EngineProblemType = {
  slug: "unsupported-media-type",
  title: "Unsupported media type",
  status: 415,
  description:
    "The request carried a body this operation does not accept: either the operation " +
    "takes no body, or the Content-Type is not one it declares. Media types match " +
    "case-insensitively; for text, JSON, XML and forms a charset parameter other than " +
    "utf-8 does not match.",
  members: {
    acceptedMediaTypes: "The media types the operation accepts; empty when it takes no body.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: { acceptedMediaTypes: STRINGS },
};

export const CONTENT_TOO_LARGE: EngineProblemType = {
  slug: "content-too-large",
  title: "Content too large",
  status: 413,
  description:
    "The request body is larger than the operation accepts, counted in bytes as it " +
    "arrived. The body was not processed.",
  members: { maxBytes: "The largest body accepted, in bytes.", ...REQUEST_ID_MEMBER },
  schemas: { maxBytes: { type: "integer", minimum: 0 } },
};

export const MALFORMED_REQUEST: EngineProblemType = {
  slug: "malformed-request",
  title: "Malformed request",
  status: 400,
  description:
    "The request could not be read: its body is missing where one is required, empty, " +
    "not valid UTF-8, not well-formed JSON or a malformed form, or it contains a member " +
    "named __proto__ or constructor.prototype; or its Content-Length is malformed. The " +
    "detail says which.",
  members: REQUEST_ID_MEMBER,
};

export const VALIDATION_FAILED: EngineProblemType = {
  slug: "validation-failed",
  title: "Validation failed",
  status: 422,
  description:
    "The request was well-formed but does not satisfy the operation's declared schemas. " +
    "Up to 100 violations are listed (the detail gives the full count); none quotes the values sent.",
  members: {
    errors:
      "The violations, each { in, pointer, detail }: in is path, query, header, cookie or " +
      "body; pointer is a JSON Pointer (RFC 6901, URI fragment form) into that part.",
    ...REQUEST_ID_MEMBER,
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
};

export const NOT_ACCEPTABLE: EngineProblemType = {
  slug: "not-acceptable",
  title: "Not acceptable",
  status: 406,
  description:
    "The request's Accept header excludes every media type in which this operation can " +
    "answer (RFC 9110 §15.5.7). Nothing was done: the check comes before the operation " +
    "runs. Send an Accept that includes one of the available media types, or none.",
  members: {
    availableMediaTypes: "The media types the operation answers in.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: { availableMediaTypes: STRINGS },
};

export const INSUFFICIENT_SCOPE: EngineProblemType = {
  slug: "insufficient-scope",
  title: "Insufficient scope",
  status: 403,
  description:
    "The request's credentials are valid, but do not grant the scopes this operation " +
    "needs (RFC 6750 §3.1). The WWW-Authenticate header names them as error=" +
    '"insufficient_scope" with scope="…". Nothing was done and the body, if any, was not ' +
    "read. A token with those scopes may succeed.",
  members: {
    requiredScopes: "The scopes the operation needs.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: { requiredScopes: STRINGS },
};

export const AUTHENTICATION_REQUIRED: EngineProblemType = {
  slug: "authentication-required",
  title: "Authentication required",
  status: 401,
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
    ...REQUEST_ID_MEMBER,
  },
  schemas: {
    security: {
      type: "array",
      items: { type: "object", additionalProperties: STRINGS },
    },
  },
};

export const RATE_LIMIT_EXCEEDED: EngineProblemType = {
  slug: "rate-limit-exceeded",
  title: "Rate limit exceeded",
  status: 429,
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
    ...REQUEST_ID_MEMBER,
  },
  schemas: {
    limit: { type: "string" },
    maxRequests: { type: "integer", minimum: 1 },
    periodSeconds: { type: "integer", minimum: 1 },
  },
};

export const STATE_CONFLICT: EngineProblemType = {
  slug: "state-conflict",
  title: "State conflict",
  status: 409,
  description:
    "The operation performs a transition of a state machine of the interface " +
    "(specification part 3), and the resource is in a state from which that transition " +
    "is not allowed (RFC 9110 §15.5.10). Nothing was changed. The answer names the " +
    "resource's current state and the triggers allowed from it.",
  members: {
    machine: "The state machine.",
    trigger: "The trigger this operation performs.",
    currentState: "The resource's current state.",
    allowedTriggers: "The triggers the machine allows from the current state.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: {
    machine: { type: "string" },
    trigger: { type: "string" },
    currentState: { type: "string" },
    allowedTriggers: STRINGS,
  },
};

export const UNSUPPORTED_VERSION: EngineProblemType = {
  slug: "unsupported-version",
  title: "Unsupported version",
  status: 400,
  description:
    "The request asks for a version of the interface (specification part 9) this service " +
    "does not have, or states none where the service requires one. Nothing was done. " +
    "Ask for one of the supported versions, where the interface says a version is stated.",
  members: {
    supportedVersions: "The versions a request may ask for.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: { supportedVersions: STRINGS },
};

export const VERSION_GONE: EngineProblemType = {
  slug: "version-gone",
  title: "Version gone",
  status: 410,
  description:
    "The version of the interface the request asks for is past its sunset date (RFC 8594) " +
    "and is no longer served. Nothing was done. The migration notes, where the interface " +
    "gives them, say how to move to a supported version.",
  members: {
    version: "The version asked for.",
    sunset: "When it stopped being served.",
    supportedVersions: "The versions a request may ask for.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: {
    version: { type: "string" },
    sunset: { type: "string" },
    supportedVersions: STRINGS,
  },
};

export const NOT_IN_VERSION: EngineProblemType = {
  slug: "not-in-version",
  title: "Not in this version",
  status: 404,
  description:
    "The operation exists, but not in the version of the interface the request asks for. " +
    "Nothing was done. The answer names the versions that have it.",
  members: {
    operationId: "The id of the declared operation.",
    availableIn: "The versions that have the operation.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: { operationId: { type: "string" }, availableIn: STRINGS },
};

export const OPERATION_GONE: EngineProblemType = {
  slug: "operation-gone",
  title: "Operation gone",
  status: 410,
  description:
    "The operation was deprecated and is past its sunset date (RFC 8594); it is no longer " +
    "served. Nothing was done. The migration notes, where the interface gives them, are " +
    "linked from the answer's `Link` header.",
  members: {
    operationId: "The id of the declared operation.",
    sunset: "When it stopped being served.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: { operationId: { type: "string" }, sunset: { type: "string" } },
};

/** Those a contract's declarations can cause. */
export function declaredProblemTypes(contract: Contract): EngineProblemType[] {
  const operations = Object.values(contract.operations);
  const types: EngineProblemType[] =
    operations.length > 0
      ? [
          OPERATION_NOT_IMPLEMENTED,
          UNSUPPORTED_MEDIA_TYPE,
          CONTENT_TOO_LARGE,
          MALFORMED_REQUEST,
          VALIDATION_FAILED,
        ]
      : [];
  if (
    operations
      .flatMap(operationShapes)
      .some((op) => Object.values(op.responses).some((r) => r.content))
  )
    types.push(NOT_ACCEPTABLE);
  if (Object.keys(contract.securitySchemes).length > 0) types.push(AUTHENTICATION_REQUIRED);
  const scoped = (op: Operation) =>
    (op.security ?? []).some((req) => Object.values(req).some((scopes) => scopes.length > 0));
  if (operations.some(scoped)) types.push(INSUFFICIENT_SCOPE);
  if (Object.values(contract.limits).some((limit) => limit.kind === "rate"))
    types.push(RATE_LIMIT_EXCEEDED);
  if (operations.some((op) => op.transition)) types.push(STATE_CONFLICT);
  if (operations.some((op) => typeof op.deprecated === "object" && op.deprecated.sunset))
    types.push(OPERATION_GONE);
  if (contract.versioning?.versions && contract.versioning.placement)
    types.push(UNSUPPORTED_VERSION, VERSION_GONE, NOT_IN_VERSION);
  return types;
}
