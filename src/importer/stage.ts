/**
 * The scratch copy an import is proven in before the project is touched: the project as git
 * sees it (src/importer/copy-project.ts), the import's files written into it, then formatted
 * with Biome, given its deployment files, built (src/build/), started and type-checked. Only
 * a stage that passes is copied back, so a failed import leaves the project byte for byte as
 * it was.
 * Each step's command is run so that nothing it prints is cut short, and a failed one is
 * told in one line that is never empty.
 */
import { spawn } from "node:child_process";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Contract } from "../contract-language/contract";
import { copyProject } from "./copy-project";
import { handlersFile, SANDBOX_PLACES, type WrittenFile } from "./emit";
import type { Json } from "./source";

/** What a command printed, and how it ended: its status, or the signal that stopped it. */
interface Ran {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface RunOptions {
  /** A file stdout goes to, however large it is (a served document), instead of memory. */
  readonly out?: string;
  /** Called every TICK seconds while the command runs. */
  readonly tick?: () => void;
}

/** How often a long step says it is still running. */
const TICK = 15;

/** Runs a command in `cwd` without a shell; nothing it prints is cut short. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  options: RunOptions = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const { out, tick } = options;
    const fd = out === undefined ? undefined : openSync(out, "w");
    const timer = tick ? setInterval(tick, TICK * 1000) : undefined;
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
    let ended = false;
    const done = (status: number | null, signal: NodeJS.Signals | null) => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      if (fd !== undefined) closeSync(fd);
      resolve({ status, signal, stdout, stderr });
    };
    // The command could not be started at all (not found, not allowed): said on stderr.
    child.on("error", (error) => {
      stderr += `${command} could not be run: ${error.message}\n`;
      done(null, null);
    });
    child.on("close", (code, signal) => done(code, signal));
  });
}

/**
 * How a step's command ended, in one line that is never empty: the step, the command, its
 * status or the signal that stopped it, and the last line it printed on stderr (or stdout),
 * or that it printed nothing.
 */
export function ended(step: string, command: string, ran: Ran): string {
  const how =
    ran.signal !== null
      ? `was stopped by ${ran.signal}`
      : ran.status === null
        ? "could not be run"
        : `exited with status ${ran.status}${signalled(ran.status)}`;
  const said = lastLine(ran.stderr) ?? lastLine(ran.stdout);
  return `${step}: \`${command}\` ${how}${said ? `: ${said}` : ", printing nothing"}`;
}

/** A status above 128 is, by shell convention, a process it ran that a signal stopped. */
function signalled(status: number): string {
  const name = Object.entries(constants.signals).find(([, n]) => n === status - 128)?.[0];
  return status > 128 && name ? ` (a process it ran was stopped by ${name})` : "";
}

/** The last line of text that says something (npm's own warnings aside), cut short. */
function lastLine(text: string): string | undefined {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^npm warn /i.test(line));
  const last = lines.at(-1);
  return last && last.length > 300 ? `${last.slice(0, 299)}…` : last;
}

/** A type error, where it is and what it says. */
interface TscError {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** tsc's errors (`file(line,col): error TSxxxx: message`), one per error. */
function typeErrors(output: string): TscError[] {
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
  /**
   * Operations of the import the platform refuses to serve: the one its start-up check
   * names, or those that answer with the error type it names.
   */
  readonly refused?: { readonly ids: readonly string[]; readonly reason: string };
}

/** What a stage tells as it goes: each step as it starts, and that a long one still runs. */
export interface StageReport {
  readonly step: (what: string) => void;
  readonly tick: (what: string, seconds: number) => void;
}

interface ProveOptions {
  /** The project the stage was copied from (its runtime types are reused). */
  readonly root?: string;
  /** The import's operation ids: a start-up refusal that names one is `refused`. */
  readonly operations?: readonly string[];
  /** The operations of each error type, by name: a refusal that names one refuses them. */
  readonly errorTypeUsers?: ReadonlyMap<string, readonly string[]>;
}

/** Writes `files` into a fresh copy of the project. */
export function stageFiles(files: readonly WrittenFile[], root = "."): string {
  const dir = copyProject("contract-import-", root);
  writeStaged(dir, files);
  return dir;
}

/** Writes `files` into a stage, over what it holds. */
export function writeStaged(dir: string, files: readonly WrittenFile[]): void {
  for (const { path, text } of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** Numbers a stage's steps, and tells each as it starts and while it runs. */
function stepper(report: StageReport, total: number) {
  let n = 0;
  return (what: string) => {
    n += 1;
    const named = `[${n}/${total}] ${what}`;
    const started = Date.now();
    report.step(named);
    return { tick: () => report.tick(named, Math.round((Date.now() - started) / 1000)) };
  };
}

type Step = ReturnType<typeof stepper>;

/** All a command printed, for the log. */
const log = (ran: Ran) => `${ran.stdout}${ran.stderr}`;

/** What the stage's type check reads: src/'s files, and the contract's share of them in lines. */
function checkedFiles(dir: string): string {
  const files = readdirSync(join(dir, "src"), { recursive: true, encoding: "utf8" }).filter(
    (name) => name.endsWith(".ts"),
  );
  const contract = files.filter((name) => name.startsWith("contract/"));
  const lines = contract.reduce(
    (n, name) => n + readFileSync(join(dir, "src", name), "utf8").split("\n").length,
    0,
  );
  return `${files.length} files of src/, the contract's ${contract.length} of ${lines.toLocaleString("en-US")} lines`;
}

/** The sentence the Worker refuses to start with (src/importer/served-document.ts), if any. */
const NOT_STARTED = "the service does not start: ";

const START = "starting the Worker once";
/** The stage's own type check: the project's settings, over src/ alone. */
const STAGE_TSCONFIG = "tsconfig.import.json";

/**
 * The type checker: TypeScript 7, the native compiler (package.json's typescript-native), by
 * its path. `npx tsc` may run TypeScript 5 instead, which stays installed for the OpenAPI
 * client generators that read its JavaScript API; both own the `tsc` command name. One
 * checker thread: each thread works out the whole contract's types again, so at 1,200
 * operations four took twice the time and four times the CPU and memory of one.
 */
export const TSC = ["node", "node_modules/typescript-native/bin/tsc", "--checkers", "1"] as const;
const SERVE = `npx tsx src/importer/served-document.ts --places ${SANDBOX_PLACES}`;

/**
 * Proves a staged import: Biome formats the code (twice: its layout of very long lines
 * settles in a second pass), the deployment files are written, the Worker is started once
 * to serve its document, and both type checks run. The Worker starts before the type
 * check, the costliest step: an operation the platform refuses is `refused` at once, for
 * the import to leave out and prove again. Each step is told as it starts; one that fails
 * says which it was, how its command ended and what it said. A type error is the cause
 * before a start that failed; a start that failed because of the user's handlers is told
 * apart, and the stage served once without them still shows what the contract changes.
 */
export async function proveStage(
  dir: string,
  code: readonly string[],
  report: StageReport,
  options: ProveOptions = {},
): Promise<StageOutcome> {
  const { root = ".", operations = [], errorTypeUsers = new Map() } = options;
  const step = stepper(report, 4);
  const prepared = await prepareStage(dir, code, step);
  if (prepared) return { dir, ...prepared, handlerErrors: [] };
  const starting = step(START);
  const served = join(dir, ".wrangler", "served-openapi.json");
  mkdirSync(dirname(served), { recursive: true });
  const serve = () => run("npx", SERVE.split(" ").slice(1), dir, { out: served, ...starting });
  const start = await serve();
  const said = start.status === 0 ? -1 : start.stderr.lastIndexOf(NOT_STARTED);
  const reason = said === -1 ? undefined : start.stderr.slice(said + NOT_STARTED.length).trim();
  const refused =
    reason === undefined ? undefined : refusedOperations(reason, operations, errorTypeUsers);
  if (reason !== undefined && refused !== undefined)
    return { dir, handlerErrors: [], refused: { ids: refused, reason } };
  const checked = await typeCheck(dir, step, root);
  if ("failure" in checked) return { dir, ...checked, handlerErrors: [] };
  const { handlerErrors } = checked;
  if (start.status === 0) return { dir, handlerErrors, served };
  // A handler of an operation the document no longer has is the user's to fix.
  if (
    (reason !== undefined && /handler \S+: no operation of that id is declared/.test(reason)) ||
    handlerErrors.length > 0
  ) {
    const handlers = readStaged(dir, "src/handlers.ts");
    writeFileSync(join(dir, "src/handlers.ts"), handlersFile(0));
    const bare = await serve();
    writeFileSync(join(dir, "src/handlers.ts"), handlers);
    return {
      dir,
      handlerErrors,
      notStarted: reason ?? ended(START, SERVE, start),
      ...(bare.status === 0 ? { served } : {}),
    };
  }
  const failure =
    reason !== undefined ? `the Worker does not start: ${reason}` : ended(START, SERVE, start);
  return { dir, handlerErrors, failure, log: log(start) };
}

/** Formats the code and writes the deployment files; why it could not, if it could not. */
async function prepareStage(
  dir: string,
  code: readonly string[],
  step: Step,
): Promise<{ failure: string; log: string } | undefined> {
  const format = "formatting the generated code with Biome";
  const formatting = step(format);
  for (let pass = 0; pass < 2; pass++) {
    const biome = await run("npx", ["biome", "check", "--write", "--colors=off", ...code], dir, {
      tick: formatting.tick,
    });
    if (biome.status !== 0)
      return { failure: ended(format, "npx biome check --write", biome), log: log(biome) };
  }
  const write = "writing the deployment files (wrangler.toml, .dev.vars.example)";
  const writing = step(write);
  const deployment = await run("npx", ["tsx", "test/tools/contract-deployment.ts"], dir, {
    tick: writing.tick,
  });
  if (deployment.status !== 0)
    return {
      failure: ended(write, "npx tsx test/tools/contract-deployment.ts", deployment),
      log: log(deployment),
    };
  return undefined;
}

/** Type-checks the project: the type errors in src/handlers.ts, or why it failed otherwise. */
async function typeCheck(
  dir: string,
  step: Step,
  root: string,
): Promise<{ failure: string; log: string } | { handlerErrors: readonly TscError[] }> {
  const check = "type-checking the project with the new contract";
  // What it checks, said up front: the checker reports nothing until it is done.
  const checking = step(`${check} (${checkedFiles(dir)})`);
  // The runtime's types (gitignored, so not in the copy): the project's own where it has
  // them (nothing in src/ reads a binding by its typed name), made afresh otherwise.
  const types = "src/worker-configuration.d.ts";
  if (existsSync(join(root, types))) cpSync(join(root, types), join(dir, types));
  else {
    const made = await run("npx", ["wrangler", "types", "--strict-vars=false", types], dir, {
      tick: checking.tick,
    });
    if (made.status !== 0)
      return { failure: ended(check, "npx wrangler types", made), log: log(made) };
  }
  // What the Worker entry imports (src/generated/: gitignored, so not in the copy), as the
  // build writes it. A contract the build refuses still gets a module that type-checks; its
  // refusal is reported when the Worker is started, below.
  await run("npx", ["tsx", "src/build/contract.ts"], dir);
  // The Worker's code, the contract and the handlers: what the import writes and what it
  // must fit. The tests are written for any contract (npm test type-checks them, and the
  // revision runs prove it), so the stage leaves them out: 6 s instead of 15 here.
  writeFileSync(
    join(dir, STAGE_TSCONFIG),
    JSON.stringify({ extends: "./tsconfig.json", include: ["src"] }),
  );
  const [node, checker] = TSC;
  const tsc = await run(
    node,
    [checker, "--noEmit", "--pretty", "false", "-p", STAGE_TSCONFIG],
    dir,
    {
      tick: checking.tick,
    },
  );
  const errors = typeErrors(tsc.stdout);
  const others = errors.filter((e) => e.file !== "src/handlers.ts");
  if (others.length > 0)
    return {
      failure: `the generated contract does not type-check (${others[0]?.text})`,
      log: log(tsc),
    };
  // Stopped, or failed without an error of its own format: how it ended is the cause.
  if (errors.length === 0 && tsc.status !== 0)
    return { failure: ended(check, "tsc --noEmit", tsc), log: log(tsc) };
  return { handlerErrors: errors.filter((e) => e.file === "src/handlers.ts") };
}

/**
 * The operation (of `ids`) a start-up refusal names, if it names one: the platform's checks
 * begin their sentence with `operation <id>:` (or `, operation <id>:` after a limit's name,
 * `operation <id> (variant n)` for a version's). The longest id that fits wins.
 */
export function refusedOperation(reason: string, ids: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const id of ids) {
    const named = [`operation ${id}:`, `operation ${id} (variant `].some(
      (mention) => reason.startsWith(mention) || reason.includes(`, ${mention}`),
    );
    if (named && (found === undefined || id.length > found.length)) found = id;
  }
  return found;
}

/**
 * The operations a start-up refusal refuses: the one it names, or, when it names one of
 * part 7's error types (`error type <name>:`, src/engine/error-model.ts), every operation
 * that answers with it. Undefined when it names neither.
 */
export function refusedOperations(
  reason: string,
  ids: readonly string[],
  errorTypeUsers: ReadonlyMap<string, readonly string[]>,
): readonly string[] | undefined {
  const id = refusedOperation(reason, ids);
  if (id !== undefined) return [id];
  const named = /^error type (\S+): /.exec(reason)?.[1];
  const users = named === undefined ? undefined : errorTypeUsers.get(named);
  return users && users.length > 0 ? users : undefined;
}

/** What the staged contract gives when it is checked in this process (`checkInProcess`). */
export interface InProcess {
  /** Each operation the platform's start-up checks refuse, with the platform's sentence. */
  readonly refused: ReadonlyMap<string, string>;
  /**
   * The OpenAPI document the contract without them serves, made when asked (a re-import's
   * preview needs it, a first import does not); undefined where it did not load.
   */
  readonly served: () => Json | undefined;
  /** Why the contract could not be checked in this process, where it could not. */
  readonly unchecked?: string;
}

interface Checked {
  readonly documents: { openapi(version: undefined): { readonly body: string } | undefined };
}

/**
 * The staged contract checked in this process: every operation the platform's start-up
 * checks refuse, with the platform's sentence for each (the build's own check,
 * src/build/generate.ts, loaded from the stage, so the contract and the checks are one copy
 * of the code, run again without each refused operation until the rest passes), and the
 * document the rest serves. A refusal found when the stage's Worker starts costs a start; one
 * found here costs a check of the contract in memory, so a document with many refused
 * operations is proved once, and a re-import's preview needs no proof at all. A refusal that
 * names no operation, or a contract that does not load, is left for the start to tell.
 */
export async function checkInProcess(
  dir: string,
  errorTypeUsers: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<InProcess> {
  const refused = new Map<string, string>();
  let contract: Contract;
  let handlers: Readonly<Record<string, unknown>> = {};
  let check: (contract: Contract, handlers: Readonly<Record<string, unknown>>) => Checked;
  const load = (path: string) => import(pathToFileURL(join(dir, path)).href);
  try {
    ({ contract } = (await load("src/contract/index.ts")) as { contract: Contract });
    ({ checkBuild: check } = (await load("src/build/generate.ts")) as { checkBuild: typeof check });
  } catch (error) {
    return { refused, served: () => undefined, unchecked: (error as Error).message };
  }
  // The user's handlers, where they load against the new contract: what is served says which
  // operations have one.
  try {
    ({ handlers } = (await load("src/handlers.ts")) as { handlers: typeof handlers });
  } catch {}
  const operations: Record<string, unknown> = { ...contract.operations };
  // A handler of an operation the document no longer has is the user's to fix (the import
  // says so), no refusal of the contract.
  handlers = Object.fromEntries(Object.entries(handlers).filter(([id]) => id in operations));
  for (;;) {
    try {
      const checked = check({ ...contract, operations } as Contract, handlers);
      const served = () => {
        const body = checked.documents.openapi(undefined)?.body;
        return body === undefined ? undefined : (JSON.parse(body) as Json);
      };
      return { refused, served };
    } catch (error) {
      const reason = (error as Error).message;
      const ids = (refusedOperations(reason, Object.keys(operations), errorTypeUsers) ?? []).filter(
        (id) => id in operations,
      );
      if (ids.length === 0) return { refused, served: () => undefined, unchecked: reason };
      for (const id of ids) {
        refused.set(id, reason);
        delete operations[id];
        const { [id]: _refused, ...rest } = handlers;
        handlers = rest;
      }
    }
  }
}

/** A stage file's text. */
export const readStaged = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
