/**
 * The second lane (`npm run test:slow`, test/tools/slow-lane.ts): the Node suites that spawn
 * processes or tools (npm, tsc, Biome, wrangler, esbuild), named `*.slow.test.ts`. They run
 * after the fast lane (`npm test`), whose importer suites write the cases
 * `contract-code.slow.test.ts` compiles.
 */
import { defineConfig } from "vitest/config";
import { CONTRACT_INDEPENDENT, NODE_LANE, NOT_TESTS } from "./vitest.node.config";

export default defineConfig({
  test: {
    ...NODE_LANE,
    include: ["test/**/*.slow.test.ts"],
    exclude: [...NOT_TESTS, ...(process.env.REVISION_RUN === "1" ? CONTRACT_INDEPENDENT : [])],
  },
});
