/**
 * The problem types of the catalogue (src/contract-language/problem-catalogue.ts) the
 * engine answers with for one contract: only those its declarations can cause, so a
 * contract documents and hosts a page for nothing it could never answer.
 */
import { type Contract, type Operation, operationShapes } from "../contract-language/contract";
import {
  AUTHENTICATION_REQUIRED,
  CONTENT_TOO_LARGE,
  type EngineProblemType,
  INSUFFICIENT_SCOPE,
  MALFORMED_REQUEST,
  NOT_ACCEPTABLE,
  NOT_IN_VERSION,
  OPERATION_GONE,
  OPERATION_NOT_IMPLEMENTED,
  RATE_LIMIT_EXCEEDED,
  STATE_CONFLICT,
  UNSUPPORTED_MEDIA_TYPE,
  UNSUPPORTED_VERSION,
  VALIDATION_FAILED,
  VERSION_GONE,
} from "../contract-language/problem-catalogue";

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
