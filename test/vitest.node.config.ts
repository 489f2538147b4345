/**
 * The Node suites: checks that need Node rather than workerd, such as the OpenAPI
 * validator (it compiles JSON Schemas with `new Function`, which workerd forbids).
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { buildContract } from "../src/build/write";

// What the Worker serves of the contract, made as the build makes it (src/build/contract.ts):
// a contract that cannot work stops the run here, with the build's line.
await buildContract();

/**
 * In a revision run (test/tools/revision.ts) the suites that cannot depend on the project's
 * contract are left out: the importer's, which import FIXTURE documents into blank copies of
 * their own, and the operation model's property test, over FIXTURE apps and an import. The
 * project's own npm test ran them on the same code; running them again only costs CI time.
 */
const CONTRACT_INDEPENDENT = ["test/importer/**", "test/engine/operations/model.node.test.ts"];

export default defineConfig({
  test: {
    include: ["test/**/*.node.test.ts"],
    exclude: [
      "test/artifacts/**",
      "test/fixtures/revision/**",
      ...(process.env.REVISION_RUN === "1" ? CONTRACT_INDEPENDENT : []),
    ],
    environment: "node",
    // Most of these suites' time is spent waiting on the commands they spawn (npm, tsc,
    // wrangler): a worker per core, and two on two cores, where vitest's default is one.
    maxWorkers: Math.max(2, availableParallelism()),
    // A shared 2-core machine under load: no test may depend on vitest's 5 s default;
    // tests that spawn npm or tsc state their own, longer timeouts.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
