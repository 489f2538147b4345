/**
 * Names the platform gives its own schemas in the OpenAPI document: the problem document,
 * the health document, the status report, and one schema per problem type of the platform
 * and the operation engine. A part 2 resource may not take one: it would replace the
 * platform's schema, and every answer that refers to it would contradict the document.
 * (A test checks that the document's platform schemas are exactly these.)
 */
export const RESERVED_SCHEMA_NAMES = [
  "Problem",
  "HealthDocument",
  "StatusReport",
  "InterfaceNotSpecifiedProblem",
  "OperationNotImplementedProblem",
  "UnsupportedMediaTypeProblem",
  "ContentTooLargeProblem",
  "MalformedRequestProblem",
  "ValidationFailedProblem",
  "NotAcceptableProblem",
  "AuthenticationRequiredProblem",
  "InsufficientScopeProblem",
  "RateLimitExceededProblem",
] as const;
export type ReservedSchemaName = (typeof RESERVED_SCHEMA_NAMES)[number];

/** The slug of the platform's own answer to a request no declared part can serve. */
export const INTERFACE_NOT_SPECIFIED_SLUG = "interface-not-specified";

/**
 * The names of the problem types the operation engine brings for parts 4, 5 and 8
 * (src/engine/problem-types.ts, typed by this list; src/platform/problem-types.ts re-exports it), part 3's state conflict, part 9's
 * versions and a retired operation. They are reserved even where nothing declares them, so
 * part 7 cannot take them (the engine refuses such an error type).
 */
export const ENGINE_PROBLEM_SLUGS = [
  "operation-not-implemented",
  "unsupported-media-type",
  "content-too-large",
  "malformed-request",
  "validation-failed",
  "not-acceptable",
  "authentication-required",
  "insufficient-scope",
  "rate-limit-exceeded",
  "state-conflict",
  "unsupported-version",
  "version-gone",
  "not-in-version",
  "operation-gone",
] as const;
export type EngineProblemSlug = (typeof ENGINE_PROBLEM_SLUGS)[number];

/** Every problem type slug the platform and the engine bring: part 7 may name none of its error types so. */
export const RESERVED_PROBLEM_SLUGS: readonly string[] = [
  INTERFACE_NOT_SPECIFIED_SLUG,
  ...ENGINE_PROBLEM_SLUGS,
];
