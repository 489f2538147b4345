/**
 * `npm run test:revision [-- --import <openapi file>] [--serve] [--keep]`: proves that the
 * test suite survives a revision of the specification. It copies the project (tracked files
 * and new ones not ignored) into a temporary directory and puts a revision in: the FIXTURE
 * revision of test/fixtures/revision/ (the specification, the contract's part files, then
 * the deployment files as `npm run contract:deployment` writes them),
 * or, with `--import`, an OpenAPI document taken in by `npm run contract:import`, then
 * checked with `npm run contract:diff -- --min 0.95`. Then `npm test` runs there (it builds
 * the swapped contract first, `npm run build:contract`, as it does on a fresh clone); with
 * `--serve`, `wrangler dev` serves it and the conformance checker probes it too. Exits 0
 * only if all of it passes; `--keep` leaves the copy for a look.
 */
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { copyProject } from "../../src/importer/copy-project";
import { SLOW_LANE } from "./slow-lane";
import { LANE_REPORTS } from "./test-times";

const ROOT = resolve(".");
/** The slow lane's suites, as ./slow-lane.ts runs them, and where each lane reports. */
const [SLOW_COMMAND, ...SLOW_ARGS] = SLOW_LANE.vitest ?? ["false"];
const LANES = [LANE_REPORTS.fast, LANE_REPORTS.slow];
const REVISION = join(ROOT, "test/fixtures/revision");

/** Puts the revision where a real one goes. */
function applyRevision(to: string): string[] {
  const placed: string[] = [];
  const place = (from: string, target: string) => {
    cpSync(join(REVISION, from), join(to, target));
    placed.push(target);
  };
  place("SPECIFICATION.md", "src/contract/SPECIFICATION.md");
  for (const file of readdirSync(join(REVISION, "contract")))
    place(join("contract", file), join("src/contract", file));
  return placed;
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): number {
  const result = spawnSync(command, args, {
    cwd,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

const argv = process.argv.slice(2);
const keep = argv.includes("--keep");
const serve = argv.includes("--serve");
const at = argv.indexOf("--import");
const source = at === -1 ? undefined : argv[at + 1];
if (at !== -1 && !source) {
  console.error("usage: npm run test:revision -- [--import <openapi file>] [--serve] [--keep]");
  process.exit(2);
}
const copy = copyProject("contract-revision-", ROOT, undefined, { blank: true });
let status = 1;
try {
  if (source) {
    // The revision as it will come: an OpenAPI document, taken in by the importer.
    status = run("npm", ["run", "contract:import", "--", resolve(source)], copy);
  } else {
    const placed = applyRevision(copy);
    console.log(`revision: ${placed.length} files placed in a copy at ${copy}`);
    status = run("npx", ["tsx", "test/tools/contract-deployment.ts"], copy);
  }
  // Suites that cannot depend on the contract (the importer's, which run in blank copies of
  // their own, and the model's property test over FIXTURE apps) ran in the project's own
  // lanes already; here they are left out (REVISION_RUN, test/vitest.node.config.ts),
  // which keeps CI within its time. Both lanes' suites of the shipped Worker run: npm test,
  // then the slow lane's (the build, the bundle, the typed client against wrangler dev).
  if (status === 0) status = run("npm", ["test"], copy, { REVISION_RUN: "1" });
  if (status === 0) status = run(SLOW_COMMAND, SLOW_ARGS, copy, { REVISION_RUN: "1" });
  if (status === 0) {
    const counts = LANES.map(
      (path) =>
        JSON.parse(readFileSync(join(copy, path), "utf8")) as {
          numPassedTests: number;
          numFailedTests: number;
        },
    );
    const passed = counts.reduce((n, c) => n + c.numPassedTests, 0);
    const failed = counts.reduce((n, c) => n + c.numFailedTests, 0);
    console.log(`revision: tests: ${passed} passed, ${failed} failed`);
  } else {
    console.error("revision: the revision did not pass both lanes' suites");
  }
  if (status === 0 && source)
    status = run("npm", ["run", "contract:diff", "--", resolve(source), "--min", "0.95"], copy);
  if (status === 0 && serve) {
    // As a user runs it: `wrangler dev` with local credentials in .dev.vars, and the checker.
    status = run("npx", ["tsx", "test/tools/dev-conformance.ts", "--port", "18788"], copy);
  }
} finally {
  if (keep) console.log(`revision: the copy is kept at ${copy}`);
  else rmSync(copy, { recursive: true, force: true });
}
process.exit(status);
