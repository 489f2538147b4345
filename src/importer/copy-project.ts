/**
 * A copy of the project as git sees it (tracked files and new ones not ignored), with
 * node_modules linked, for runs that change the contract without touching this checkout:
 * the revision run (test/tools/revision.ts) and the importer's CLI tests.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  type Dirent,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { SPEC_PARTS } from "../contract-language/parts";
import { emptyPartFile, entryFile, handlersFile } from "./emit";

/** The runtime's types, which `wrangler types` makes from wrangler.toml. */
const RUNTIME_TYPES = "src/worker-configuration.d.ts";

/** What is never copied where git cannot say (a copy of a copy): dependencies, builds, local secrets. */
const NOT_COPIED =
  /^(?:node_modules|\.git|\.wrangler|dist|test\/artifacts|\.dev\.vars(?!\.example))(?:\/|$)/;

/** The project's files: as git lists them, or, outside a repository, all but NOT_COPIED. */
function projectFiles(root: string): string[] {
  try {
    const listed = execFileSync("git", ["ls-files", "-z", "-co", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    // A copy's node_modules is a symbolic link, which git lists as a file: never copied.
    return listed.split("\0").filter((file) => file && !NOT_COPIED.test(file));
  } catch {
    return (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      .filter((file) => !NOT_COPIED.test(file));
  }
}

interface CopyOptions {
  /**
   * Puts the contract, the handlers and the entry back to what a project that declares
   * nothing has, so a FIXTURE revision or import meets the platform alone, never the
   * user's own contract or handlers.
   */
  readonly blank?: boolean;
}

export function copyProject(
  prefix: string,
  root = resolve("."),
  parent = tmpdir(),
  options: CopyOptions = {},
): string {
  const to = mkdtempSync(join(parent, prefix));
  for (const file of projectFiles(root)) {
    try {
      mkdirSync(dirname(join(to, file)), { recursive: true });
      cpSync(join(root, file), join(to, file));
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the copy.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  symlinkSync(join(root, "node_modules"), join(to, "node_modules"), "dir");
  // The runtime's types (`wrangler types`, gitignored): the copy type-checks with the
  // project's own rather than spend a wrangler run on making them again.
  if (existsSync(join(root, RUNTIME_TYPES)))
    cpSync(join(root, RUNTIME_TYPES), join(to, RUNTIME_TYPES));
  if (options.blank) blankContract(to);
  return to;
}

/** The contract's part files empty, no handler, and the project's entry (the same for every contract). */
function blankContract(dir: string): void {
  for (const part of SPEC_PARTS)
    writeFileSync(join(dir, "src/contract", `${part.name}.ts`), emptyPartFile(part));
  writeFileSync(join(dir, "src/handlers.ts"), handlersFile(0));
  writeFileSync(join(dir, "src/index.ts"), entryFile());
  rmSync(join(dir, "src/contract/IMPORT-REPORT.md"), { force: true });
}
