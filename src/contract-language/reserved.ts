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
