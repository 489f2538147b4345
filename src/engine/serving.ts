/**
 * The operation engine as the Worker runs it: the routes of part 4's operations, request
 * validation and answer checks, with the features the contract uses (`features.ts`: part 9's
 * versions, part 8's rate limits, part 5's credentials and token introspection, part 3's
 * transitions, part 6's events, part 7's error model, form bodies; while an operation has no
 * handler, the examples' answers; and the sandbox's store and answers where it places
 * operations). What only the build needs (the start-up checks, the OpenAPI documentation, the
 * pages) is the build's engine (index.ts, `buildEngine`), which the Worker does not import:
 * the build writes `servingEngine({ …the features the Worker uses }, router)` into
 * src/generated/contract.ts, with the router it chose for the Worker's routes.
 */

import type { Contract } from "../contract-language/contract";
import { AS_IS } from "../platform/problem-presenter";
import type { WorkerEngine } from "../platform/worker-seam";
import type { ServingFeatures } from "./features";
import type { ExamplesFeature } from "./operations/model";
import { mountOperations } from "./operations/mount";
import { answering } from "./operations/unhandled";

/**
 * Whether the sandbox places some operation of a Worker's contract: yes, for a Worker given
 * the store feature, as the build gives it only then (src/build/features.ts). Asking the
 * sandbox would plan every operation on one request (hundreds of ms at 200 operations).
 */
const BUILT_WITH_STORE = () => true;

/** The features a serving engine is given: those the contract uses, and the mocks'. */
export type EngineFeatures = ServingFeatures & { readonly examples?: ExamplesFeature };

/**
 * The engine that serves a contract, with `features`: those the contract uses, and the
 * examples feature while an operation has no handler (features.ts). `router` makes the router of
 * its routes: the one the build chose for them in a Worker (src/build/routing.ts), Hono's
 * default pair (`defaultRouter`, src/build-engine.ts) in process. Only the router given is bundled.
 * `places` says whether the contract has a sandbox, for its reset route: the build's engine,
 * given every feature whatever the contract, asks where the sandbox places its operations.
 */
export function servingEngine(
  features: EngineFeatures,
  router: WorkerEngine["router"],
  places: (contract: Contract) => boolean = BUILT_WITH_STORE,
): WorkerEngine {
  const { errorModel, events, examples, store, security, introspection, jwt } = features;
  return {
    router,
    mount: (app, context) => mountOperations(app, context, features, examples?.answer),
    // Without part 7, the platform's own answers stand.
    presenter: errorModel ? errorModel.presenter : () => AS_IS,
    ...(events ? { consume: events.consume, destinations: events.destinations } : {}),
    // Without the examples feature (an upload built for 501), the report says 501 too.
    answering: (env) => answering(env, examples !== undefined),
    // Where the sandbox places an operation (the store feature): DELETE /_service/sandbox.
    ...(store
      ? { sandboxReset: (contract) => store.reset(contract, jwt, security, introspection, places) }
      : {}),
  };
}
