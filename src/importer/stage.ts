/**
 * The scratch copy an import is proven in before the project is touched: the project as git
 * sees it (src/importer/copy-project.ts), the import's files written into it, then formatted
 * with Biome, given its deployment files, type-checked and started. Only a stage that
 * passes is copied back, so a failed import leaves the project byte for byte as it was.
 */
import { spawn } from "node:child_process";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { copyProject } from "./copy-project";
import { handlersFile, type WrittenFile } from "./emit";

/** What a command printed, and how it ended. */
export interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command in `cwd` without a shell; stdout goes to `out` when given (a large document). */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  out?: string,
): Promise<Ran> {
  return new Promise((resolve) => {
    const fd = out === undefined ? undefined : openSync(out, "w");
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", fd ?? "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const done = (status: number) => {
      if (fd !== undefined) closeSync(fd);
      resolve({ status, stdout, stderr });
    };
    child.on("error", (error) => {
      stderr += String(error);
      done(1);
    });
    child.on("close", (code) => done(code ?? 1));
  });
}

/** A type error, where it is and what it says. */
export interface TscError {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** tsc's errors (`file(line,col): error TSxxxx: message`), one per error. */
export function typeErrors(output: string): TscError[] {
  const errors: TscError[] = [];
  for (const line of output.split("\n")) {
    const match = /^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line.trim());
    // tsc prints whole contract types into some messages: one line, cut short, is enough.
    const text = line.trim();
    if (match?.[1] && match[3])
      errors.push({
        file: match[1],
        line: Number(match[2]),
        text: text.length > 200 ? `${text.slice(0, 199)}…` : text,
      });
  }
  return errors;
}

export interface StageOutcome {
  readonly dir: string;
  /** Why the stage cannot be used at all (an importer or document problem), if it cannot. */
  readonly failure?: string;
  /** Full output of the step that failed, for the log. */
  readonly log?: string;
  /** Type errors in src/handlers.ts: handlers the new contract no longer fits. */
  readonly handlerErrors: readonly TscError[];
  /** The document the staged Worker serves (a file in the stage), when it starts. */
  readonly served?: string;
  /** Why the staged Worker does not start, when only its handlers are at fault. */
  readonly notStarted?: string;
}

/** Writes `files` into a fresh copy of the project. */
export function stageFiles(files: readonly WrittenFile[], root = "."): string {
  const dir = copyProject("contract-import-", root);
  for (const { path, text } of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/**
 * Proves a staged import: Biome formats the code (twice: its layout of very long lines
 * settles in a second pass), the deployment files are written, both type checks run, and
 * the Worker is started once to serve its document. `step` reports each step as it starts.
 */
export async function proveStage(
  dir: string,
  code: readonly string[],
  step: (what: string) => void,
  root = ".",
): Promise<StageOutcome> {
  const fail = (failure: string, log: string): StageOutcome => ({
    dir,
    failure,
    log,
    handlerErrors: [],
  });
  step("formatting the generated code with Biome");
  for (let pass = 0; pass < 2; pass++) {
    const biome = await run("npx", ["biome", "check", "--write", "--colors=off", ...code], dir);
    if (biome.status !== 0)
      return fail("Biome could not format the generated code", biome.stdout + biome.stderr);
  }
  step("writing the deployment files (wrangler.toml, .dev.vars.example)");
  const deployment = await run("npx", ["tsx", "test/tools/contract-deployment.ts"], dir);
  if (deployment.status !== 0)
    return fail("the deployment files could not be written", deployment.stderr);
  step("type-checking the project with the new contract");
  // The runtime's types (gitignored, so not in the copy): the project's own where it has
  // them (nothing in src/ reads a binding by its typed name), made afresh otherwise.
  const types = "src/worker-configuration.d.ts";
  if (existsSync(join(root, types))) cpSync(join(root, types), join(dir, types));
  else {
    const made = await run("npx", ["wrangler", "types", "--strict-vars=false", types], dir);
    if (made.status !== 0) return fail("wrangler types failed", made.stdout + made.stderr);
  }
  // The Worker's and the tests' check (the Node tools read any contract as `Contract`).
  const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false"], dir);
  const errors = typeErrors(tsc.stdout);
  const handlerErrors = errors.filter((e) => e.file === "src/handlers.ts");
  const others = errors.filter((e) => e.file !== "src/handlers.ts");
  if (others.length > 0 || (errors.length === 0 && tsc.status !== 0))
    return fail(
      `the generated contract does not type-check (${others[0]?.text ?? "tsc failed"})`,
      `${tsc.stdout}${tsc.stderr}`,
    );
  step("starting the Worker once");
  const served = join(dir, ".wrangler", "served-openapi.json");
  mkdirSync(dirname(served), { recursive: true });
  const start = await run("npx", ["tsx", "src/importer/served-document.ts"], dir, served);
  if (start.status !== 0) {
    const reason = start.stderr.trim().split("\n").pop() ?? "it exited with an error";
    // A handler of an operation the document no longer has is the user's to fix. Served
    // once without handlers, the stage still shows what the contract itself changes.
    if (
      /handler \S+: no operation of that id is declared/.test(reason) ||
      handlerErrors.length > 0
    ) {
      const handlers = readStaged(dir, "src/handlers.ts");
      writeFileSync(join(dir, "src/handlers.ts"), handlersFile(0));
      const bare = await run("npx", ["tsx", "src/importer/served-document.ts"], dir, served);
      writeFileSync(join(dir, "src/handlers.ts"), handlers);
      return {
        dir,
        handlerErrors,
        notStarted: reason.replace(/^the service does not start: /, ""),
        ...(bare.status === 0 ? { served } : {}),
      };
    }
    return fail(
      reason.replace(/^the service does not start: /, "the Worker does not start: "),
      start.stderr,
    );
  }
  return { dir, handlerErrors, served };
}

/** A stage file's text. */
export const readStaged = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
