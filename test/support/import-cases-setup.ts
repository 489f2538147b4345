/**
 * The fast Node lane's global setup (vitest.node.config.ts): the folder the importer's
 * suites write each imported case into starts empty, so the slow lane's compile check
 * (test/importer/contract-code.slow.test.ts) reads the cases of the last run alone.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";

/** Where each imported case's project files are written (test/support/import-case.ts). */
export const CASES = resolve("test/artifacts/imports");

export default function setup(): void {
  // The revision run leaves the importer's suites out: it writes no case, and keeps none.
  if (process.env.REVISION_RUN !== "1") rmSync(CASES, { recursive: true, force: true });
}
