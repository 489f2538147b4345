/**
 * The workerd suites: unit and integration tests run inside the Workers runtime, with the
 * Worker configured from wrangler.toml. Answers of declared operations are checked against
 * their declarations in "enforce" mode. The FIXTURE secrets and rate limiting bindings of
 * the security fixture contract are given to the runtime here, and only here.
 */
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { FIXTURE_RATE_LIMITERS, FIXTURE_SECRETS } from "./fixtures/security";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: fileURLToPath(new URL("../wrangler.toml", import.meta.url)) },
      miniflare: {
        bindings: {
          RESPONSE_VALIDATION: "enforce",
          ...FIXTURE_SECRETS,
          // Replaying a fuzzing run (test/integration/fuzz.test.ts).
          FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
        },
        ratelimits: FIXTURE_RATE_LIMITERS,
      },
    }),
  ],
  test: { include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"] },
});
