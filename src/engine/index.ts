/**
 * The operation engine: everything that serves and documents declared operations (part 4)
 * with their credentials (part 5) and limits (part 8): routes, request validation,
 * authentication, rate limits, answer checks and their OpenAPI documentation. A contract
 * that declares none of these parts does not need it, so the app receives it as an option
 * (`createApp(contract, { engine: OPERATION_ENGINE })`) and a Worker that declares nothing
 * does not ship it (src/engine/README.md, "Bundle size").
 */
import type { OperationEngine } from "../platform/engine";
import { checkSecurity } from "./authentication/check";
import { checkLimits } from "./limits/check";
import { documentOperations } from "./openapi/operations";
import { checkOperations } from "./operations/check";
import { mountOperations } from "./operations/mount";
import { declaredProblemTypes } from "./problem-types";

export const OPERATION_ENGINE: OperationEngine = {
  check(contract, jsonSchema) {
    checkOperations(contract, jsonSchema);
    checkSecurity(contract);
    checkLimits(contract, jsonSchema);
  },
  mount: mountOperations,
  document: documentOperations,
  problemTypes: declaredProblemTypes,
};
