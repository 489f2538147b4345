/**
 * The operation engine as the Worker runs it: the routes of part 4's operations, request
 * validation, part 5's credentials, part 8's limits, answer checks, part 7's error model and
 * part 6's deliveries. What only the build needs (the start-up checks, the OpenAPI
 * documentation, the pages) is in `OPERATION_ENGINE` (index.ts), which the Worker does not
 * import: `serveApp(contract, { engine: SERVING_ENGINE, built })`.
 */
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import type { OperationEngine } from "../platform/engine-seam";
import { problemPresenter } from "./error-model";
import { deliverBatch } from "./events/deliver";
import { destinationsOf, readDestinations } from "./events/destinations";
import { mountOperations } from "./operations/mount";
import { sandboxReset } from "./sandbox/reset";

export const SERVING_ENGINE: OperationEngine = {
  // Hono's default pair: the RegExpRouter matches a request with one expression, built on
  // the first request, and hands the patterns it refuses to the trie. Routing is on every
  // request's path: about 5% of a validated POST's CPU with the trie alone (test/tools/bench/README.md).
  router: () => new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] }),
  mount: mountOperations,
  presenter: problemPresenter,
  consume: (batch, env) => deliverBatch(batch, env),
  sandboxReset,
  destinations(env) {
    const destinations = readDestinations((env ?? {}) as Readonly<Record<string, unknown>>);
    return (event) => destinationsOf(destinations, event).length;
  },
};
