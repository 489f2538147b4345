/**
 * `npm run test:slow [-- --stage <name> …]`: the second lane, run after `npm test` (CI runs
 * both, .ci/run). Everything that spawns processes or tools, each a stage, timed:
 *
 * - `vitest`: the suites named `*.slow.test.ts` (test/vitest.slow.config.ts): the importer's
 *   CLI in copies of the project, the generated code under tsc and Biome, the build, the
 *   bundle, the typed client against `wrangler dev`;
 * - `revision`, `revision-import`: `npm test` again with a FIXTURE revision of the spec swapped
 *   in, then with one imported from an OpenAPI document, served and probed (./revision.ts);
 * - `build`: `wrangler deploy --dry-run`, the exact deploy bundle, offline;
 * - `openapi`: Spectral, Redocly, generated clients and Prism on the served documents;
 * - `dev-conformance`: the conformance checker against `wrangler dev`;
 * - `browser`: headless Chromium on the HTML pages and on CORS (Debian's chromium);
 * - `load`: a short load run on `workerd serve`;
 * - `corpus`: the corpus run on a small fixed sample of APIs.guru's documents and a generated
 *   one (test/tools/corpus/), each imported as a user would, failing below 99% served.
 *
 * `--stage` runs only the stages named. Every stage runs even when one fails, so one run
 * shows every failure; the exit status is 1 if any failed. It ends with each stage's time
 * and the ten slowest test files of the lanes that ran (./test-times.ts).
 */
import { spawnSync } from "node:child_process";
import { LANE_REPORTS, testTimes } from "./test-times";

/** Each stage of the lane: the command it runs. */
export const SLOW_LANE: Readonly<Record<string, readonly [string, ...string[]]>> = {
  vitest: [
    "npx",
    "vitest",
    "run",
    "--config",
    "test/vitest.slow.config.ts",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${LANE_REPORTS.slow}`,
  ],
  revision: ["npm", "run", "test:revision"],
  "revision-import": [
    "npm",
    "run",
    "test:revision",
    "--",
    "--import",
    "test/fixtures/openapi/rich-3.1.yaml",
    "--serve",
  ],
  build: ["npm", "run", "build"],
  openapi: ["npm", "run", "test:openapi"],
  "dev-conformance": ["npx", "tsx", "test/tools/dev-conformance.ts"],
  browser: ["npx", "tsx", "test/tools/browser.ts"],
  load: ["npx", "tsx", "test/tools/load.ts", "--short"],
  // A small fixed sample of the corpus run (test/tools/corpus/README.md) and the generated
  // document of expandable members in cycles: each imported whole or nearly, under 1 GiB.
  corpus: [
    "npm",
    "run",
    "corpus",
    "--",
    "--apis-guru",
    "--sample",
    "8",
    "--seed",
    "1",
    "--generated",
    "expandable-421",
    "--jobs",
    "2",
    "--expect-served",
    "99",
    "--out",
    "test/artifacts/corpus/ci.jsonl",
  ],
};

/** Runs the stages named (all by default), each timed; the exit status says if any failed. */
function runLane(argv: readonly string[]): number {
  const asked = argv.flatMap((arg, i, all) => (all[i - 1] === "--stage" ? [arg] : []));
  const unknown = asked.filter((name) => !(name in SLOW_LANE));
  if (unknown.length > 0) {
    console.error(
      `test:slow: no stage ${unknown.join(", ")}; the stages: ${Object.keys(SLOW_LANE).join(", ")}`,
    );
    return 2;
  }
  const names = asked.length > 0 ? asked : Object.keys(SLOW_LANE);
  const times: string[] = [];
  let failed = 0;
  for (const name of names) {
    const [command, ...args] = SLOW_LANE[name] ?? ["false"];
    console.log(`test:slow: ${name}: ${[command, ...args].join(" ")}`);
    const start = performance.now();
    const { status } = spawnSync(command, args, {
      stdio: "inherit",
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: "true" },
    });
    const seconds = ((performance.now() - start) / 1000).toFixed(0);
    times.push(`  ${seconds.padStart(5)} s  ${name}${status === 0 ? "" : "  FAILED"}`);
    if (status !== 0) failed++;
  }
  console.log("test:slow: each stage's time:");
  for (const line of [...times, ...testTimes()]) console.log(line);
  if (failed > 0) console.error(`test:slow: ${failed} of ${names.length} stages failed`);
  return failed > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(runLane(process.argv));
