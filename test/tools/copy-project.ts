/**
 * A copy of the project as git sees it (tracked files and new ones not ignored), with
 * node_modules linked, for runs that change the contract without touching this checkout:
 * the revision run (test/tools/revision.ts) and the importer's CLI tests.
 */
import { execFileSync } from "node:child_process";
import { cpSync, type Dirent, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

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
    // A checkout whose node_modules is a link (a git worktree's) lists the link as untracked.
    return listed.split("\0").filter((file) => file !== "" && !NOT_COPIED.test(file));
  } catch {
    return (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      .filter((file) => !NOT_COPIED.test(file));
  }
}

export function copyProject(prefix: string, root = resolve("."), parent = tmpdir()): string {
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
  return to;
}
