/**
 * The workerd suites: unit and integration tests run inside the Workers runtime, with the
 * Worker configured from wrangler.toml. Answers of declared operations are checked against
 * their declarations in "enforce" mode. The FIXTURE secrets and rate limiting bindings of
 * the security fixture contract are given to the runtime here, and only here; so are
 * values for the secrets the shipped contract names, made afresh for each run, so the
 * shipped Worker is tested as a deployment that has set them.
 */
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { contract } from "../src/contract";
import { FIXTURE_RATE_LIMITERS, FIXTURE_SECRETS } from "./fixtures/security";
import { FIXTURE_JWT_VARS, FIXTURE_ROTATED_SECRETS } from "./fixtures/vocabulary";
import { rateLimitBindings, requiredSecrets, requiredVars } from "./support/deployment";

const SHIPPED_SECRETS = Object.fromEntries(
  requiredSecrets(contract).map(({ name }) => [name, `test-only-${randomUUID()}`]),
);
// The JWT schemes' vars, as a deployment sets them: an https key set no test fetches
// unless it presents a token (RFC 2606 reserves .invalid), an issuer and an audience.
const SHIPPED_VARS = Object.fromEntries(
  requiredVars(contract).map(({ name, kind }) => [
    name,
    kind === "jwksUrl" ? `https://${name.toLowerCase()}.invalid/jwks.json` : `test-only-${name}`,
  ]),
);
const SHIPPED_RATE_LIMITERS = Object.fromEntries(
  rateLimitBindings(contract).map(({ name, limit, period }, index) => [
    name,
    { namespace_id: String(9001 + index), simple: { limit, period } },
  ]),
);

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: fileURLToPath(new URL("../wrangler.toml", import.meta.url)) },
      miniflare: {
        bindings: {
          RESPONSE_VALIDATION: "enforce",
          ...SHIPPED_SECRETS,
          ...SHIPPED_VARS,
          ...FIXTURE_SECRETS,
          ...FIXTURE_ROTATED_SECRETS,
          ...FIXTURE_JWT_VARS,
          // Replaying a fuzzing run (test/integration/fuzz.test.ts).
          FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
        },
        ratelimits: { ...SHIPPED_RATE_LIMITERS, ...FIXTURE_RATE_LIMITERS },
      },
    }),
  ],
  test: { include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"] },
});
