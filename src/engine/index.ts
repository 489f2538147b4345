/**
 * The operation engine as the build runs it (and the tests, through `createApp`): the
 * engine that serves (serving.ts) with every part, and what is decided before the Worker is
 * uploaded: the start-up checks, the OpenAPI documentation of all that has a schema, the
 * problem types and the interface page's sections. A contract that declares none of it does
 * not need it, so the app receives it as an option (`createApp(contract, { engine:
 * OPERATION_ENGINE })`); the deployed Worker gets only `servingEngine` with the parts its
 * contract uses, and the examples' answers while an operation has no handler
 * (src/engine/README.md, "Bundle size").
 */

import type { Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { withPage } from "../contract-language/problem-catalogue";
import { RESERVED_SCHEMA_NAMES } from "../contract-language/reserved";
import type { ContractEngine } from "../platform/engine-seam";
import { statesSection } from "../platform/state-diagram";
import { SECURITY_PART } from "./authentication/authenticate";
import { SIGNATURES_PART } from "./authentication/aws-sigv4";
import { INTROSPECTION_PART } from "./authentication/introspection";
import { checkSecurity } from "./authentication/startup-checks";
import { checkErrorModel, ERROR_MODEL_PART, errorProblemTypes } from "./error-model";
import { EVENTS_PART } from "./events/part";
import { checkEvents } from "./events/startup-checks";
import { chapterOf } from "./examples/book";
import { RATE_LIMITS_PART } from "./limits/enforce";
import { checkLimits } from "./limits/startup-checks";
import { documentContract } from "./openapi/document";
import { makeExampleBook } from "./openapi/example-book";
import { EXAMPLES_PART } from "./operations/examples";
import { operationProblemTypes } from "./operations/failures";
import { checkOperations } from "./operations/startup-checks";
import { FORMS_PART } from "./request/forms";
import { SANDBOX_PART } from "./sandbox/answer";
import { placeOperations } from "./sandbox/place";
import { STORE_PART } from "./sandbox/store";
import { type EngineParts, servingEngine } from "./serving";
import { checkStates } from "./states/startup-checks";
import { STATES_PART } from "./states/transition";
import { contractForVersion } from "./versions/for-version";
import { VERSIONS_PART } from "./versions/negotiate";
import { planVersions } from "./versions/plan";
import { checkVersions } from "./versions/startup-checks";
import { xmlSchemas } from "./zod/xml-mappings";

/** Every part of the serving engine: what a test serves any contract with in process. */
export const ALL_PARTS = {
  versions: VERSIONS_PART,
  rateLimits: RATE_LIMITS_PART,
  security: SECURITY_PART,
  introspection: INTROSPECTION_PART,
  signatures: SIGNATURES_PART,
  states: STATES_PART,
  events: EVENTS_PART,
  errorModel: ERROR_MODEL_PART,
  forms: FORMS_PART,
  examples: EXAMPLES_PART,
  store: STORE_PART,
  sandbox: SANDBOX_PART,
} as const satisfies Required<EngineParts>;

/**
 * Hono's default pair, for an app composed in process (a test's, the build's): routes are
 * whatever it mounts, so it decides on the first match, the regular-expression router when
 * it can keep the routes' order, the trie otherwise. A deployed Worker is given the router
 * its build chose instead (src/build/routing.ts).
 */
export function defaultRouter<T>(): Router<T> {
  return new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
}

const SERVING_ENGINE = servingEngine(ALL_PARTS, defaultRouter);

export const OPERATION_ENGINE: ContractEngine = {
  ...SERVING_ENGINE,
  consume: EVENTS_PART.consume,
  destinations: EVENTS_PART.destinations,
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
  placements: (contract) =>
    new Map(placeOperations(contract).map(({ id, ...placed }) => [id, placed])),
  forVersion: contractForVersion,
  versions: (contract) => Object.keys(planVersions(contract)?.versions ?? {}),
  document: documentContract,
  // The union of every operation's failures: what the document lists for each operation.
  problemTypes: (contract) => operationProblemTypes(contract).map(withPage),
  errorTypes: errorProblemTypes,
  xmlSchemas,
  exampleBook(contract, jsonSchema, handled) {
    const { book, findings } = makeExampleBook(contract, jsonSchema, handled);
    const chapters = () =>
      Object.entries(contract.operations).map(([id, operation]) =>
        Object.hasOwn(book.operations, id)
          ? JSON.stringify(chapterOf(book, id, operation.errors ?? []))
          : undefined,
      );
    return { text: JSON.stringify(book), findings, chapters };
  },
};
