/**
 * The operation engine: everything that serves and documents declared operations (part 4)
 * with their credentials (part 5) and limits (part 8): routes, request validation,
 * authentication, rate limits, answer checks and their OpenAPI documentation. A contract
 * that declares none of these parts does not need it, so the app receives it as an option
 * and a Worker that declares nothing does not ship it (README, "Bundle size").
 */
import { checkSecuritySchemes } from "../authentication/authenticate";
import type { Contract } from "../domain/contract";
import { declaredProblemTypes } from "../http/declared-problem-types";
import type { ProblemType } from "../http/problem";
import { checkLimits } from "../limits/limits";
import type { JsonSchemaConverter, OperationDocumenter } from "../openapi/document";
import { documentOperations } from "../openapi/operations";
import { mountOperations } from "./operations";

export interface OperationEngine {
  /** Refuses declarations of parts 5 and 8 that could not be enforced as written. */
  readonly check: (contract: Contract, jsonSchema: JsonSchemaConverter | undefined) => void;
  readonly mount: typeof mountOperations;
  readonly document: OperationDocumenter;
  /** The problem types parts 4, 5 and 8 bring, once they declare what causes them. */
  readonly problemTypes: (contract: Contract) => ProblemType[];
}

export const OPERATION_ENGINE: OperationEngine = {
  check(contract, jsonSchema) {
    checkSecuritySchemes(contract);
    checkLimits(contract, jsonSchema);
  },
  mount: mountOperations,
  document: documentOperations,
  problemTypes: declaredProblemTypes,
};
