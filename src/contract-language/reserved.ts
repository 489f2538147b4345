/**
 * Names the platform gives its own schemas in the OpenAPI document: the problem document,
 * one schema per problem type of the catalogue (src/contract-language/problem-catalogue.ts),
 * the health document and the status report. A part 2 resource may not take one: it would
 * replace the platform's schema, and every answer that refers to it would contradict the
 * document. `defineContract` refuses such a name, and the engine refuses it again when the
 * app starts (for contracts the compiler did not see). (A test checks that the document's
 * platform schemas are among these.)
 */
import { PROBLEM_SCHEMA_NAMES, type ProblemSchemaName } from "./problem-catalogue";

/** The platform's schemas that are not problems. */
const DOCUMENT_SCHEMA_NAMES = ["HealthDocument", "StatusReport"] as const;

export type ReservedSchemaName = ProblemSchemaName | (typeof DOCUMENT_SCHEMA_NAMES)[number];

export const RESERVED_SCHEMA_NAMES: readonly ReservedSchemaName[] = [
  ...PROBLEM_SCHEMA_NAMES,
  ...DOCUMENT_SCHEMA_NAMES,
];
