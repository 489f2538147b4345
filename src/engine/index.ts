/**
 * The operation engine as the build runs it (and the tests, through `createApp`): the
 * engine that serves (serving.ts), and what is decided before the Worker is uploaded: the
 * start-up checks, the OpenAPI documentation of all that has a schema, the problem types
 * and the interface page's sections. A contract that declares none of it does not need it,
 * so the app receives it as an option (`createApp(contract, { engine: OPERATION_ENGINE })`);
 * the deployed Worker gets only `SERVING_ENGINE`, or `SERVING_ENGINE_WITH_EXAMPLES` while an
 * operation has no handler (src/engine/README.md, "Bundle size").
 */
import { RESERVED_SCHEMA_NAMES } from "../contract-language/reserved";
import type { ContractEngine } from "../platform/engine-seam";
import { checkSecurity } from "./authentication/startup-checks";
import { checkErrorModel, errorProblemTypes } from "./error-model";
import { checkEvents } from "./events/startup-checks";
import { checkLimits } from "./limits/startup-checks";
import { documentContract } from "./openapi/document";
import { makeExampleBook } from "./openapi/example-book";
import { operationProblemTypes } from "./operations/failures";
import { checkOperations } from "./operations/startup-checks";
import { SERVING_ENGINE } from "./serving";
import { SERVING_ENGINE_WITH_EXAMPLES } from "./serving-examples";
import { statesSection } from "./states/diagram";
import { checkStates } from "./states/startup-checks";
import { contractForVersion, planVersions } from "./versions/plan";
import { checkVersions } from "./versions/startup-checks";
import { xmlSchemas } from "./zod/xml-mappings";

export { SERVING_ENGINE };

export const OPERATION_ENGINE: ContractEngine = {
  ...SERVING_ENGINE_WITH_EXAMPLES,
  check(contract) {
    // The document names the platform's own schemas so; a resource may not take one.
    for (const name of Object.keys(contract.resources)) {
      if ((RESERVED_SCHEMA_NAMES as readonly string[]).includes(name))
        throw new Error(`resource ${name}: the platform names one of its own schemas so`);
    }
    checkOperations(contract);
    checkSecurity(contract);
    checkLimits(contract);
    checkEvents(contract);
    checkStates(contract);
    checkVersions(contract);
    checkErrorModel(contract);
  },
  pageSections: (contract) => statesSection(contract.states),
  forVersion: contractForVersion,
  versions: (contract) => Object.keys(planVersions(contract)?.versions ?? {}),
  document: documentContract,
  // The union of every operation's failures: what the document lists for each operation.
  problemTypes: operationProblemTypes,
  errorTypes: errorProblemTypes,
  xmlSchemas,
  exampleBook(contract, jsonSchema, handled) {
    const { book, findings } = makeExampleBook(contract, jsonSchema, handled);
    return { text: JSON.stringify(book), findings };
  },
};
