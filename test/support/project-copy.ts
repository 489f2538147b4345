/**
 * A copy of the project that declares nothing (src/importer/copy-project.ts), for the
 * importer's command-line tests: npm run in it as a user runs it, its files read, and a
 * snapshot of everything an import may write, to show that a failed one changed nothing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { copyProject } from "../../src/importer/copy-project";

/** test/tools/revision.ts runs npm test in its copy with this set: see there why. */
export const IN_REVISION_RUN = process.env.REVISION_RUN === "1";
/**
 * An import proves itself in a scratch copy (Biome, the build, tsc, the document): minutes
 * on a loaded 2-core machine.
 */
export const SLOW = 480_000;

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

/**
 * The blank copy of one test file: made before its tests, removed after them, none in a
 * revision run (whose tests then skip). The function gives it while the tests run.
 */
export function projectCopyForFile(prefix: string): () => ProjectCopy {
  let project: ProjectCopy | undefined;
  beforeAll(() => {
    if (!IN_REVISION_RUN) project = blankProjectCopy(prefix);
  }, SLOW);
  afterAll(() => project?.remove());
  return () => {
    if (!project) throw new Error("the project copy is made before the tests, and only then");
    return project;
  };
}
