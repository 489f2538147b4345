/**
 * The Node suites of the fast lane (`npm test`): checks that need Node rather than workerd,
 * such as the OpenAPI validator (it compiles JSON Schemas with `new Function`, which workerd
 * forbids), and spawn no process. Those that spawn processes or tools (npm, tsc, Biome,
 * wrangler) end in `.slow.test.ts` and run in the second lane (vitest.slow.config.ts).
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { buildContract } from "../src/build/write";

// What the Worker serves of the contract, made as the build makes it (src/build/contract.ts):
// a contract that cannot work stops the run here, with the build's line.
await buildContract();

/** What both Node lanes share (vitest.slow.config.ts reads it). */
export const NODE_LANE = {
  environment: "node",
  // A worker per core, and two on two cores, where vitest's default is one.
  maxWorkers: Math.max(2, availableParallelism()),
  // A shared 2-core machine under load: no test may depend on vitest's 5 s default;
  // tests that spawn npm or tsc state their own, longer timeouts.
  testTimeout: 60_000,
  hookTimeout: 120_000,
} as const;

/** Never a test: what the suites write, and the FIXTURE revision's own copy of the tree. */
export const NOT_TESTS = ["test/artifacts/**", "test/fixtures/revision/**"];

/**
 * In a revision run (test/tools/revision.ts) the suites that cannot depend on the project's
 * contract are left out: the importer's, which import FIXTURE documents into blank copies of
 * their own, and the operation model's property test, over FIXTURE apps and an import. The
 * project's own npm test ran them on the same code; running them again only costs CI time.
 */
export const CONTRACT_INDEPENDENT = [
  "test/importer/**",
  "test/engine/operations/model.node.test.ts",
];

/** The fast lane's Node project, also one of the projects `npm run test:watch` watches. */
export const NODE_PROJECT = {
  ...NODE_LANE,
  name: "node",
  include: ["test/**/*.node.test.ts"],
  exclude: [...NOT_TESTS, ...(process.env.REVISION_RUN === "1" ? CONTRACT_INDEPENDENT : [])],
  // The importer's cases are written afresh by this lane; the slow lane compiles them.
  globalSetup: ["test/support/import-cases-setup.ts"],
};

export default defineConfig({ test: NODE_PROJECT });
