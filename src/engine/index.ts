/**
 * The operation engine as the build runs it (and the tests, through `createApp`): the
 * engine that serves (serving.ts) with every feature, and what is decided before the Worker
 * is uploaded: the start-up checks, the OpenAPI documentation of all that has a schema, the
 * problem types and the interface page's sections. The mocks (src/mocks/) are plugged in
 * through their seam (mock-seam.ts) by src/build-engine.ts, which is what the build and the
 * tests import; the deployed Worker gets only `servingEngine` with the features its
 * contract uses (src/engine/README.md, "Bundle size").
 */

import { withPage } from "../contract-language/problem-catalogue";
import { RESERVED_SCHEMA_NAMES } from "../contract-language/reserved";
import type { BuildEngine } from "../platform/build-seam";
import { statesSection } from "../platform/state-diagram";
import { SECURITY_FEATURE } from "./authentication/authenticate";
import { SIGNATURES_FEATURE } from "./authentication/aws-sigv4";
import { INTROSPECTION_FEATURE } from "./authentication/introspection";
import { checkSecurity } from "./authentication/startup-checks";
import { JWT_VERIFIER } from "./authentication/verify-jwt";
import { checkErrorModel, ERROR_MODEL_FEATURE, errorProblemTypes } from "./error-model";
import { EVENTS_FEATURE } from "./events/feature";
import { checkEvents } from "./events/startup-checks";
import { chapterOf } from "./example-book";
import { RATE_LIMITS_FEATURE } from "./limits/enforce";
import { checkLimits } from "./limits/startup-checks";
import type { BuildMocks } from "./mock-seam";
import { documentContract } from "./openapi/document";
import { operationProblemTypes } from "./operations/failures";
import { checkOperations } from "./operations/startup-checks";
import { FORMS_FEATURE } from "./request/forms";
import { servingEngine } from "./serving";
import { checkStates } from "./states/startup-checks";
import { STATES_FEATURE } from "./states/transition";
import { contractForVersion } from "./versions/for-version";
import { VERSIONS_FEATURE } from "./versions/negotiate";
import { planVersions } from "./versions/plan";
import { checkVersions } from "./versions/startup-checks";
import { xmlSchemas } from "./zod/xml-mappings";

/** The serving engine's own features, all of them: the mocks' are given by `buildEngine`'s caller. */
const OWN_FEATURES = {
  versions: VERSIONS_FEATURE,
  rateLimits: RATE_LIMITS_FEATURE,
  security: SECURITY_FEATURE,
  introspection: INTROSPECTION_FEATURE,
  signatures: SIGNATURES_FEATURE,
  jwt: JWT_VERIFIER,
  states: STATES_FEATURE,
  events: EVENTS_FEATURE,
  errorModel: ERROR_MODEL_FEATURE,
  forms: FORMS_FEATURE,
} as const;

/**
 * The build's engine over `router`, with every feature: the engine's own and the mocks'
 * (`mocks`), as an app composed in process serves any contract.
 */
export function buildEngine(mocks: BuildMocks, router: BuildEngine["router"]): BuildEngine {
  const { examples, store, sandbox } = mocks;
  return {
    ...servingEngine({ ...OWN_FEATURES, examples, store, sandbox }, router, (contract) =>
      [...mocks.placements(contract).values()].some(({ place }) => place !== "examples"),
    ),
    consume: EVENTS_FEATURE.consume,
    destinations: EVENTS_FEATURE.destinations,
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
    placements: mocks.placements,
    forVersion: contractForVersion,
    versions: (contract) => Object.keys(planVersions(contract)?.versions ?? {}),
    document: (context) => documentContract(context, mocks.sandboxMarks(context.contract)),
    // The union of every operation's failures: what the document lists for each operation.
    problemTypes: (contract) => operationProblemTypes(contract).map(withPage),
    errorTypes: errorProblemTypes,
    xmlSchemas,
    exampleBook(contract, jsonSchema, handled) {
      const { book, findings } = mocks.exampleBook(contract, jsonSchema, handled);
      const chapters = () =>
        Object.entries(contract.operations).map(([id, operation]) =>
          Object.hasOwn(book.operations, id)
            ? JSON.stringify(chapterOf(book, id, operation.errors ?? []))
            : undefined,
        );
      return { text: JSON.stringify(book), findings, chapters };
    },
  };
}
