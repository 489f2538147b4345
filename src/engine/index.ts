/**
 * The operation engine: everything that serves and documents what the contract declares:
 * routes of part 4's operations, request validation, part 5's credentials, part 8's limits,
 * answer checks, part 7's error model, and the OpenAPI documentation of all that has a
 * schema. A contract that declares none of it does not need it, so the app receives it as
 * an option (`createApp(contract, { engine: OPERATION_ENGINE })`) and a Worker that declares
 * nothing does not ship it (src/engine/README.md, "Bundle size").
 */
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { RESERVED_SCHEMA_NAMES } from "../contract-language/reserved";
import type { OperationEngine } from "../platform/engine-seam";
import { checkSecurity } from "./authentication/startup-checks";
import { declaredProblemTypes } from "./declared-problems";
import { checkErrorModel, errorProblemTypes, problemPresenter } from "./error-model";
import { deliverBatch } from "./events/deliver";
import { destinationsOf, readDestinations } from "./events/destinations";
import { checkEvents } from "./events/startup-checks";
import { checkLimits } from "./limits/startup-checks";
import { documentContract } from "./openapi/document";
import { mountOperations } from "./operations/mount";
import { checkOperations } from "./operations/startup-checks";
import { statesSection } from "./states/diagram";
import { checkStates } from "./states/startup-checks";
import { contractForVersion } from "./versions/plan";
import { checkVersions } from "./versions/startup-checks";

export const OPERATION_ENGINE: OperationEngine = {
  // Hono's default pair: the RegExpRouter matches a request with one expression, built on
  // the first request, and hands the patterns it refuses to the trie. Routing is on every
  // request's path: about 5% of a validated POST's CPU with the trie alone (test/tools/bench/README.md).
  router: () => new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] }),
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
  consume: (batch, env) => deliverBatch(batch, env),
  pageSections: (contract) => statesSection(contract.states),
  forVersion: contractForVersion,
  destinations(env) {
    const destinations = readDestinations((env ?? {}) as Readonly<Record<string, unknown>>);
    return (event) => destinationsOf(destinations, event).length;
  },
  mount: mountOperations,
  document: documentContract,
  presenter: problemPresenter,
  problemTypes: declaredProblemTypes,
  errorTypes: errorProblemTypes,
};
