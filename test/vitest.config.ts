/**
 * The workerd suites: unit and integration tests run inside the Workers runtime, with the
 * Worker configured from wrangler.toml. Answers of declared operations are checked against
 * their declarations in "enforce" mode. The FIXTURE secrets and rate limiting bindings of
 * the security fixture contract are given to the runtime here, and only here; so are
 * values for the secrets the shipped contract names, made afresh for each run, so the
 * shipped Worker is tested as a deployment that has set them.
 */
import { createHash, randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { contract } from "../src/contract";
import { SANDBOX_BINDING, SANDBOX_CLASS } from "../src/mocks/sandbox/records";
import { FIXTURE_RATE_LIMITERS, FIXTURE_SECRETS } from "./fixtures/security";
import { FIXTURE_JWT_VARS, FIXTURE_ROTATED_SECRETS } from "./fixtures/vocabulary";
import { rateLimitBindings, requiredSecrets, requiredVars } from "./support/deployment";
import { keySetOf, newIssuer } from "./support/issuer";
import { askedScopes } from "./tools/dev-credentials";
import { NODE_PROJECT } from "./vitest.node.config";

// What the Worker serves of the contract is built by vitest.node.config.ts as it loads (above):
// a contract that cannot work stops the run there, with the build's line. Once per run.

const SHIPPED_SECRETS = Object.fromEntries(
  requiredSecrets(contract).map(({ name, placeholder }) => [
    name,
    // AWS access keys: one <access key id>:<secret access key>, made for this run.
    placeholder === "<ACCESS_KEYS>"
      ? `TESTONLY${randomUUID().slice(0, 8).toUpperCase()}:${randomUUID()}`
      : `test-only-${randomUUID()}`,
  ]),
);
// The JWT schemes' settings, as a deployment sets them: a key set given inline, of an
// issuer made for this run only, whose private key reaches the tests alone (TEST_ISSUER),
// so the generated check of each operation can present a valid token.
const TEST_ISSUER = await newIssuer("test-issuer");
// Introspection schemes (RFC 7662) trust one opaque token made for this run, pinned: the
// test runtime asks no server. It grants every scope an operation asks of the scheme.
const TEST_OPAQUE_TOKEN = `test-only-${randomUUID()}`;
const pinnedTokens = (scheme: string) =>
  JSON.stringify({
    tokens: {
      [createHash("sha256").update(TEST_OPAQUE_TOKEN).digest("hex")]: {
        active: true,
        sub: "test-user",
        scope: askedScopes(contract, scheme).join(" "),
        aud: `test-only-audience`,
      },
    },
  });
const SHIPPED_VARS = Object.fromEntries(
  requiredVars(contract).map(({ name, kind, scheme }) => [
    name,
    kind === "jwksUrl"
      ? keySetOf(TEST_ISSUER)
      : kind === "introspectionUrl"
        ? pinnedTokens(scheme)
        : kind === "audience" && "introspection" in (contract.securitySchemes[scheme] ?? {})
          ? "test-only-audience"
          : `test-only-${name}`,
  ]),
);
const SHIPPED_RATE_LIMITERS = Object.fromEntries(
  rateLimitBindings(contract).map(({ name, limit, period }, index) => [
    name,
    { namespace_id: String(9001 + index), simple: { limit, period } },
  ]),
);

/**
 * In a revision run (test/tools/revision.ts) the suites that cannot depend on the project's
 * contract are left out, as in the Node config: the engine's, the contract language's and
 * the client's over FIXTURE contracts alone (none imports src/contract, src/index or the
 * Worker entry). The project's own npm test ran them on the same code; what a revision can
 * break (the shipped contract's operations, /_service, the whole service, the client on the
 * shipped contract) still runs.
 */
const CONTRACT_INDEPENDENT = [
  "test/app.test.ts",
  "test/engine/**",
  "test/contract-language/**",
  "test/client/request.credentials.test.ts",
  "test/client/index.test.ts",
  "test/client/index.lazy.test.ts",
  "test/client/index.media-types.test.ts",
  "test/client/serialise.test.ts",
  "test/client/index.types.test.ts",
];

// Tests mirror what they test (test/README.md); those that need Node end in .node.test.ts,
// and those that spawn processes or tools in .slow.test.ts (the second lane, npm run test:slow).
const SUITES = ["test/**/*.test.ts"];
const EXCLUDED = [
  "test/**/*.node.test.ts",
  "test/**/*.slow.test.ts",
  "test/artifacts/**",
  "test/fixtures/revision/**",
  ...(process.env.REVISION_RUN === "1" ? CONTRACT_INDEPENDENT : []),
];

/** Suites that count the FIXTURE security contract's rate limits from a fresh window. */
const COUNTED = [
  "test/engine/limits/enforce.test.ts",
  "test/engine/operations/cors.test.ts",
  "test/engine/authentication/authenticate.test.ts",
  "test/platform/status.security.test.ts",
  "test/service/hostile.test.ts",
  "test/tools/conformance/checker.test.ts",
  "test/client/request.credentials.test.ts",
  "test/client/index.types.test.ts",
];

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: fileURLToPath(new URL("../wrangler.toml", import.meta.url)) },
      // The shipped entry, with the sandbox's Durable Object class always exported.
      main: fileURLToPath(new URL("./support/worker-entry.ts", import.meta.url)),
      miniflare: {
        // The sandbox's store (src/mocks/sandbox), for the FIXTURE contracts' sandboxes.
        durableObjects: { [SANDBOX_BINDING]: { className: SANDBOX_CLASS, useSQLite: true } },
        bindings: {
          RESPONSE_VALIDATION: "enforce",
          // The sandbox's quotas, small enough to be reached (test/mocks/sandbox/quotas.test.ts).
          SANDBOX_MAX_ITEMS: "60",
          SANDBOX_MAX_BYTES: "400000",
          ...SHIPPED_SECRETS,
          ...SHIPPED_VARS,
          ...FIXTURE_SECRETS,
          ...FIXTURE_ROTATED_SECRETS,
          ...FIXTURE_JWT_VARS,
          TEST_ISSUER: JSON.stringify(TEST_ISSUER),
          TEST_OPAQUE_TOKEN,
          // Replaying a fuzzing run (test/service/fuzz.test.ts).
          FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
        },
        ratelimits: { ...SHIPPED_RATE_LIMITERS, ...FIXTURE_RATE_LIMITERS },
      },
    }),
  ],
  test: {
    // A shared 2-core machine under load: no test may depend on vitest's 5 s default.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A runtime per core, and two on two cores, where vitest's default is one.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // Most suites share one runtime and its loaded modules (importing them again for each
      // file was four fifths of the run's time); each builds its own apps and state.
      {
        extends: true,
        test: {
          name: "workerd",
          include: SUITES,
          exclude: [...EXCLUDED, ...COUNTED],
          isolate: false,
        },
      },
      // The runtime's rate limiting bindings count across every file it runs: the suites
      // that count a FIXTURE limit's window from zero get a runtime of their own each.
      {
        extends: true,
        test: { name: "workerd, counted", include: COUNTED, exclude: EXCLUDED, isolate: true },
      },
      // The Node suites (vitest.node.config.ts), so that one watcher sees both: npm run test:watch.
      { test: NODE_PROJECT },
    ],
  },
});
