/**
 * The Node suites: checks that need Node rather than workerd, such as the OpenAPI
 * validator (it compiles JSON Schemas with `new Function`, which workerd forbids).
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["test/node/**/*.test.ts"], environment: "node" },
});
