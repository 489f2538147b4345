/**
 * The Node suites: checks that need Node rather than workerd, such as the OpenAPI
 * validator (it compiles JSON Schemas with `new Function`, which workerd forbids).
 */
import { defineConfig } from "vitest/config";
import { buildContract } from "../src/build/write";

// What the Worker serves of the contract, made as the build makes it (src/build/contract.ts):
// a contract that cannot work stops the run here, with the build's line.
await buildContract();

export default defineConfig({
  test: {
    include: ["test/**/*.node.test.ts"],
    exclude: ["test/artifacts/**", "test/fixtures/revision/**"],
    environment: "node",
    // A shared 2-core machine under load: no test may depend on vitest's 5 s default;
    // tests that spawn npm or tsc state their own, longer timeouts.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
