/**
 * `npm run test:revision [-- --keep]`: proves that the test suite survives a revision of
 * the specification. It copies the project (tracked files and new ones not ignored) into a
 * temporary directory, puts the FIXTURE revision of test/fixtures/revision/ where a real
 * revision goes (the specification, the contract's part files, src/index.ts), writes the
 * deployment files from that contract as `npm run contract:deployment` does, and runs
 * `npm test` there. Exits with npm test's status; `--keep` leaves the copy for a look.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(".");
const REVISION = join(ROOT, "test/fixtures/revision");

/** Copies the working tree as git sees it, without ignored files (node_modules is linked). */
function copyProject(to: string): void {
  const listed = execFileSync("git", ["ls-files", "-z", "-co", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  for (const file of listed.split("\0").filter(Boolean)) {
    try {
      mkdirSync(dirname(join(to, file)), { recursive: true });
      cpSync(join(ROOT, file), join(to, file));
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the copy.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  symlinkSync(join(ROOT, "node_modules"), join(to, "node_modules"), "dir");
}

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
  place("index.ts", "src/index.ts");
  return placed;
}

function run(command: string, args: readonly string[], cwd: string): number {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  return result.status ?? 1;
}

const keep = process.argv.includes("--keep");
const copy = mkdtempSync(join(tmpdir(), "contract-revision-"));
let status = 1;
try {
  copyProject(copy);
  const placed = applyRevision(copy);
  console.log(`revision: ${placed.length} files placed in a copy at ${copy}`);
  status = run("npx", ["tsx", "test/tools/contract-deployment.ts"], copy);
  if (status === 0) status = run("npm", ["test"], copy);
  if (status === 0) {
    const counts = ["workerd", "node"].map(
      (suite) =>
        JSON.parse(readFileSync(join(copy, `test/artifacts/vitest-${suite}.json`), "utf8")) as {
          numPassedTests: number;
          numFailedTests: number;
        },
    );
    const passed = counts.reduce((n, c) => n + c.numPassedTests, 0);
    const failed = counts.reduce((n, c) => n + c.numFailedTests, 0);
    console.log(`revision: tests: ${passed} passed, ${failed} failed`);
  } else {
    console.error("revision: npm test failed with the FIXTURE revision in place");
  }
} finally {
  if (keep) console.log(`revision: the copy is kept at ${copy}`);
  else rmSync(copy, { recursive: true, force: true });
}
process.exit(status);
