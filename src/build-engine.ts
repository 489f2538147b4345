/**
 * The engine as the build runs it, and the tests through `createApp`: the serving engine
 * with every feature, the checks, the documentation and the pages (src/engine/index.ts),
 * with the mocks (src/mocks/) plugged in through their seam. The one place both are
 * composed: the deployed Worker imports neither this nor the build's engine, only the
 * features its contract needs (src/build/generate.ts writes them).
 */
import type { Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { buildEngine } from "./engine";
import { EXAMPLES_FEATURE } from "./mocks/examples/answer";
import { makeExampleBook } from "./mocks/examples/make-book";
import { SANDBOX_FEATURE } from "./mocks/sandbox/answer";
import { placeOperations, sandboxMarks } from "./mocks/sandbox/place";
import { STORE_FEATURE } from "./mocks/sandbox/store";
import type { BuildEngine } from "./platform/build-seam";

/**
 * Hono's default pair, for an app composed in process (a test's, the build's): routes are
 * whatever it mounts, so it decides on the first match, the regular-expression router when
 * it can keep the routes' order, the trie otherwise. A deployed Worker is given the router
 * its build chose instead (src/build/routing.ts).
 */
export function defaultRouter<T>(): Router<T> {
  return new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
}

export const BUILD_ENGINE: BuildEngine = buildEngine(
  {
    examples: EXAMPLES_FEATURE,
    store: STORE_FEATURE,
    sandbox: SANDBOX_FEATURE,
    placements: (contract) =>
      new Map(placeOperations(contract).map(({ id, ...placed }) => [id, placed])),
    exampleBook: makeExampleBook,
    sandboxMarks,
  },
  defaultRouter,
);
