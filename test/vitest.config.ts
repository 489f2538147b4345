/**
 * The workerd suites: unit and integration tests run inside the Workers runtime, with the
 * Worker configured from wrangler.toml. Answers of declared operations are checked against
 * their declarations in "enforce" mode.
 */
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: fileURLToPath(new URL("../wrangler.toml", import.meta.url)) },
      miniflare: { bindings: { RESPONSE_VALIDATION: "enforce" } },
    }),
  ],
  test: { include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"] },
});
