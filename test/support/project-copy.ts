/**
 * A copy of the project that declares nothing (src/importer/copy-project.ts), for the
 * importer's command-line tests: npm run in it as a user runs it, its files read, and a
 * snapshot of everything an import may write, to show that a failed one changed nothing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { copyProject } from "../../src/importer/copy-project";

/** What the build and `wrangler types` make (gitignored): not the project's own files. */
const DERIVED = /^src\/(?:generated\/|worker-configuration\.d\.ts$)/;

export interface ProjectCopy {
  readonly dir: string;
  /** `npm run --silent …` in the copy; a served document of megabytes is read whole. */
  readonly npm: (
    ...args: string[]
  ) => ReturnType<typeof spawnSync> & { stdout: string; stderr: string };
  readonly read: (path: string) => string;
  /** Every file of the copy's src/ and deployment files, with its text. */
  readonly snapshot: () => string;
  readonly remove: () => void;
}

export function blankProjectCopy(prefix: string): ProjectCopy {
  const dir = copyProject(prefix, undefined, undefined, { blank: true });
  const read = (path: string) => readFileSync(join(dir, path), "utf8");
  return {
    dir,
    npm: (...args) =>
      spawnSync("npm", ["run", "--silent", ...args], {
        cwd: dir,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      }),
    read,
    snapshot: () => {
      // The copy is no git repository: its files are walked, less what .gitignore leaves out.
      const paths = (readdirSync(join(dir, "src"), { recursive: true }) as string[])
        .map((path) => `src/${path}`)
        .filter((path) => !DERIVED.test(path) && statSync(join(dir, path)).isFile())
        .sort();
      if (!paths.includes("src/contract/endpoints.ts"))
        throw new Error(`no project files to snapshot in ${dir}`);
      return [...paths, "wrangler.toml", ".dev.vars.example"]
        .filter((path) => existsSync(join(dir, path)))
        .map((path) => `${path}\n${read(path)}`)
        .join("\n\n");
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
