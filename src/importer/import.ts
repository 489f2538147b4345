/**
 * `npm run contract:import -- <file> [--force]`: takes an OpenAPI 3.0.x or 3.1.x document
 * (YAML or JSON) and writes the contract: src/contract's part files, SPECIFICATION.md's
 * sections, src/contract/IMPORT-REPORT.md, the Worker entry and the deployment files. The
 * import is atomic, proved in a scratch copy before the project is touched
 * (src/importer/stage.ts); one unit that cannot be imported never stops the rest
 * (src/importer/leave-out.ts); a re-import writes only with `--force`. What it writes, and
 * how: src/importer/README.md, "What an import writes, and how".
 */

import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SPEC_PARTS } from "../contract-language/parts";
import { keyPairs, pathKeyParts } from "../contract-language/path-key";
import {
  breakingChanges,
  handEdits,
  handlerIds,
  importerFingerprint,
  lastMade,
  manifestSection,
  noHandlers,
  operationChanges,
  operationsOf,
  schemaChanges,
  sha256,
  untouchedSinceImport,
} from "./changes";
import { compareDocuments, FIDELITY_FLOOR } from "./compare/index";
import { type ImportResult, importContract } from "./contract-code";
import {
  contractFiles,
  entryFile,
  FINDING_WORDS,
  findingsOnConsole,
  handlersFile,
  reportText,
  SANDBOX_PLACES,
  type SandboxPlace,
  specificationText,
  type WrittenFile,
} from "./emit";
import { isLeftOut, leftOutByClass } from "./findings";
import { causeOf } from "./leave-out";
import { counted } from "./parts/context";
import {
  at,
  child,
  componentOf,
  follow,
  isObject,
  type Json,
  type OpenApiSource,
  readOpenApi,
} from "./source";
import {
  checkInProcess,
  ended,
  type InProcess,
  proveStage,
  readStaged,
  run,
  type StageOutcome,
  type StageReport,
  stageFiles,
  writeStaged,
} from "./stage";

const USAGE = "usage: npm run contract:import -- <openapi.yaml|openapi.json> [--force]";
const args = process.argv.slice(2);
const force = args.includes("--force");
const file = args.find((arg) => !arg.startsWith("--")) as string;
if (!file || args.some((arg) => arg.startsWith("--") && arg !== "--force")) {
  console.error(USAGE);
  process.exit(2);
}
const ROOT = process.cwd();
const LOG = join(ROOT, ".wrangler", "import-last.log");

/**
 * What the import did, for programs (the corpus run, test/tools/corpus/): written as JSON
 * to `.wrangler/import-outcome.json` however the import ends, an out-of-memory abort aside
 * (its exit status and V8's line tell that one).
 */
interface Outcome {
  ok: boolean;
  cause?: string;
  /** What the document declares. */
  declared?: { paths: number; operations: number; schemas: number; webhooks: number };
  /** Operations in the contract the import wrote (or would have). */
  served?: number;
  /** Each unit left out, with its finding's message. */
  leftOut?: { pointer: string; message: string }[];
  findings?: Record<string, number>;
  /** The importer's own heap at its largest, sampled (MiB). */
  peakHeapMiB: number;
}
const OUTCOME = join(ROOT, ".wrangler", "import-outcome.json");
const outcome: Outcome = { ok: false, peakHeapMiB: 0 };
const sampleHeap = () => {
  const used = process.memoryUsage().heapUsed / 2 ** 20;
  if (used > outcome.peakHeapMiB) outcome.peakHeapMiB = Math.round(used);
};
setInterval(sampleHeap, 250).unref();
process.on("exit", (code) => {
  sampleHeap();
  outcome.ok = code === 0 && outcome.cause === undefined;
  try {
    mkdirSync(dirname(OUTCOME), { recursive: true });
    writeFileSync(OUTCOME, `${JSON.stringify(outcome, null, 2)}\n`);
  } catch {}
});

/** Stops with the cause in one line, never an empty one; a failed step's full output goes to the log. */
function stop(cause: string, log?: string): never {
  if (log !== undefined) {
    mkdirSync(dirname(LOG), { recursive: true });
    writeFileSync(LOG, log);
  }
  const said = cause.trim() || "the import failed, and no step said why (an importer bug)";
  outcome.cause = said;
  console.error(
    `import: ${said}${log === undefined ? "" : ` (full output: .wrangler/import-last.log)`}`,
  );
  console.error("import: nothing was written; the project is as it was");
  process.exit(1);
}

const say = (line: string) => console.error(`import: ${line}`);

/** A progress line on a terminal; a line per quarter otherwise. */
const interactive = process.stderr.isTTY === true;
let lastQuarter = "";
const progress = (what: string, done: number, total: number) => {
  if (interactive) {
    process.stderr.write(`\rimport: ${what} ${done}/${total}${done === total ? "\n" : ""}`);
    return;
  }
  const quarter = `${what}:${Math.floor((done / total) * 4)}`;
  if (
    quarter !== lastQuarter &&
    (done === total || done % Math.max(1, Math.ceil(total / 4)) === 0)
  ) {
    lastQuarter = quarter;
    say(`${what} ${done}/${total}`);
  }
};

/** The stage's steps as they start, and a line every few seconds while a long one runs. */
const report: StageReport = {
  step: (what) => say(`  ${what}`),
  tick: (what, seconds) => say(`  ${what}: still running (${seconds} s)`),
};

/** What a document holds, for the line after it is read. */
function contents(source: OpenApiSource, bytes: number): string {
  const { document } = source;
  const paths = isObject(document.paths) ? Object.values(document.paths) : [];
  const operations = paths.reduce<number>(
    (n, item) =>
      n +
      (isObject(item)
        ? ["get", "put", "post", "delete", "patch"].filter((m) => isObject(item[m])).length
        : 0),
    0,
  );
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? Object.keys(components.schemas).length : 0;
  const declared = isObject(document.webhooks) ? document.webhooks : document["x-webhooks"];
  const webhooks = isObject(declared) ? Object.keys(declared).length : 0;
  outcome.declared = { paths: paths.length, operations, schemas, webhooks };
  return `${source.format}, ${(bytes / 1024).toFixed(0)} KiB: ${paths.length} paths, ${operations} operations, ${schemas} component schemas, ${webhooks} webhooks`;
}

/** The contract from the document, leaving out `leaveOut` (and what cannot be converted). */
function convert(source: OpenApiSource, leaveOut: ReadonlyMap<string, string>): ImportResult {
  try {
    const result = importContract(source, { progress, notice: say, leaveOut });
    outcome.served = result.operations;
    outcome.leftOut = result.findings
      .filter(isLeftOut)
      .map(({ pointer, message }) => ({ pointer, message }));
    outcome.findings = Object.fromEntries(
      (["lost", "not-enforced", "changed"] as const).map((kind) => [
        kind,
        result.findings.filter((f) => f.kind === kind).length,
      ]),
    );
    return result;
  } catch (error) {
    stop(`the document could not be converted: ${causeOf(error)}`, (error as Error).stack);
  }
}

/**
 * A document that declares operations of which none can be served is no contract to write:
 * the import stops with the causes, never a quiet success of nothing.
 */
function noneServed(result: ImportResult): void {
  const declared = outcome.declared?.operations ?? 0;
  if (declared === 0 || result.operations > 0) return;
  const causes = leftOutByClass(result.findings)
    .slice(0, 3)
    .map(([cause, count]) => `${count} × ${cause}`)
    .join("; ");
  for (const line of findingsOnConsole(result.findings, "the findings above")) console.error(line);
  stop(
    `none of the ${declared} operations the document declares can be served (${causes || "no cause was found"})`,
  );
}

/** What the import writes; the handlers are the service's own code, written only while empty. */
function filesOf(result: ImportResult, source: OpenApiSource, handlers: string): WrittenFile[] {
  return [
    ...contractFiles(result, source),
    {
      path: "src/contract/SPECIFICATION.md",
      text: specificationText(
        readFileSync(join(ROOT, "src/contract/SPECIFICATION.md"), "utf8"),
        result,
        source,
      ),
    },
    { path: "src/index.ts", text: entryFile() },
    ...(noHandlers(handlers)
      ? [{ path: "src/handlers.ts", text: handlersFile(result.operations) }]
      : []),
  ];
}

interface Proved {
  readonly outcome: StageOutcome;
  readonly result: ImportResult;
  readonly files: readonly WrittenFile[];
}

/**
 * Proves the import in the stage. An operation the platform refuses to serve is left out,
 * with a finding naming the platform's sentence, and the stage is proved again without it
 * (the Worker starts before the type check, so each refusal costs a start, not a check).
 */
async function proveLeavingOut(
  stage: string,
  source: OpenApiSource,
  handlers: string,
  first: ImportResult,
  refused: ReadonlyMap<string, string>,
): Promise<Proved> {
  const leaveOut = new Map<string, string>();
  let result = first;
  let files = filesOf(result, source, handlers);
  const prove = () =>
    proveStage(
      stage,
      files.map((f) => f.path),
      report,
      { root: ROOT, operations: result.operationIds, errorTypeUsers: result.errorTypeUsers },
    );
  // Every operation the platform refuses, found before the first proof, is left out at once.
  if (refused.size > 0) {
    const reasons = new Map<string, number>();
    let mediaOnly = 0;
    for (const [id, reason] of refused) {
      const pointer = result.operationPointers.get(id) as string;
      // An XML media type the platform cannot write, beside others: only it is left out.
      const media = refusedMedia(source.document, pointer, reason);
      if (media) mediaOnly += 1;
      leaveOut.set(media ?? pointer, `the platform refuses to serve it: ${reason}`);
      const said = reason.replace(/^operation \S+: /, "");
      reasons.set(said, (reasons.get(said) ?? 0) + 1);
    }
    const top = [...reasons].sort((a, b) => b[1] - a[1])[0] as [string, number];
    say(
      `the platform refuses to serve ${counted(refused.size, "operation")} (${top[1]} × ${top[0]}${reasons.size > 1 ? `, and ${reasons.size - 1} other causes` : ""}): leaving them out${mediaOnly > 0 ? `, ${mediaOnly} of them only the media type refused` : ""}`,
    );
    result = convert(source, leaveOut);
    files = filesOf(result, source, handlers);
    writeStaged(stage, files);
  }
  let outcome = await prove();
  while (outcome.refused) {
    const { ids, reason } = outcome.refused;
    const named = ids.length === 1 ? ids[0] : `${ids.length} operations`;
    say(`the platform refuses to serve ${named} (${reason}): leaving it out, and proving again`);
    for (const id of ids)
      leaveOut.set(
        result.operationPointers.get(id) as string,
        `the platform refuses to serve it: ${reason}`,
      );
    result = convert(source, leaveOut);
    files = filesOf(result, source, handlers);
    writeStaged(stage, files);
    outcome = await prove();
  }
  return { outcome, result, files };
}

/**
 * Where a start-up refusal of one media type of an operation's body or answer points
 * (`operation <id>: its <type> body: …`, `… its <type> answer of <status>: …`), when that body
 * or answer has another media type to serve; undefined otherwise, for the operation to be
 * left out whole.
 */
function refusedMedia(document: Json, operation: string, reason: string): string | undefined {
  const said = /^operation \S+: its (\S+) (?:body|answer of (\S+)):/.exec(reason);
  const op = at(document, operation);
  if (!said || !isObject(op)) return undefined;
  const [, type, status] = said as unknown as [string, string, string | undefined];
  const raw = status === undefined ? op.requestBody : (op.responses as Json | undefined)?.[status];
  const written = child(
    operation,
    ...(status === undefined ? ["requestBody"] : ["responses", status]),
  );
  let followed: { node: unknown; pointer: string };
  try {
    followed = follow(document, raw, written);
  } catch {
    return undefined;
  }
  // The importer writes a shared answer once, at its component; a body where the operation has it.
  const shared =
    status !== undefined && isObject(raw) && typeof raw.$ref === "string"
      ? componentOf(raw.$ref)?.kind === "responses"
      : false;
  const content = isObject(followed.node) ? followed.node.content : undefined;
  if (!isObject(content)) return undefined;
  const essence = (key: string) => (key.split(";")[0] ?? key).trim().toLowerCase();
  const key = Object.keys(content).find((k) => essence(k) === type.toLowerCase());
  if (key === undefined || Object.keys(content).every((k) => essence(k) === essence(key)))
    return undefined;
  return child(shared ? followed.pointer : written, "content", key);
}

async function main(): Promise<void> {
  say(`reading ${file}`);
  const source = await readOpenApi(file).catch((error: Error) => stop(error.message));
  say(`read ${contents(source, readFileSync(file).length)}`);
  // The same document through the same importer, over files untouched since: nothing to do.
  const fingerprint = importerFingerprint(ROOT);
  const made = lastMade(ROOT);
  if (
    made?.source === source.sha256 &&
    made.importer === fingerprint &&
    untouchedSinceImport(ROOT)
  ) {
    console.log(`The contract already is what ${file} gives: nothing to write.`);
    process.exit(0);
  }
  const first = convert(source, new Map());
  noneServed(first);
  const { contract: current } = await import("../contract");
  const reimport = SPEC_PARTS.some((part) => part.count(current) > 0);
  const currentHandlers = readFileSync(join(ROOT, "src/handlers.ts"), "utf8");

  say("checking it in a scratch copy of the project");
  const stage = stageFiles(filesOf(first, source, currentHandlers), ROOT);
  // process.exit skips `finally`: the scratch copy goes whichever way the import ends.
  process.on("exit", () => rmSync(stage, { recursive: true, force: true }));
  mkdirSync(join(stage, ".wrangler"), { recursive: true });
  const before = join(stage, ".wrangler", "served-before.json");
  // The document the project serves today, to show what changes (absent if it does not start).
  const previous = reimport
    ? run("npx", ["tsx", "src/importer/served-document.ts"], ROOT, { out: before })
    : undefined;
  const served = async () => {
    const ran = await previous;
    return ran?.status === 0 ? (JSON.parse(readFileSync(before, "utf8")) as Json) : undefined;
  };
  say("checking the contract in memory, as the Worker will at start-up");
  const checked = await checkInProcess(stage, first.errorTypeUsers);
  // A re-import without --force shows what it changes, and proves nothing until it writes.
  if (reimport && !force)
    preview(first, checked, await served(), {
      currentHandlers,
      paths: filesOf(first, source, currentHandlers).map((f) => f.path),
    });
  const proved = await proveLeavingOut(stage, source, currentHandlers, first, checked.refused);
  if (proved.outcome.failure) stop(proved.outcome.failure, proved.outcome.log);
  await writeProject(stage, source, proved, {
    old: await served(),
    reimport,
    currentHandlers,
    fingerprint,
  });
}

/**
 * What a re-import would change, from the contract checked in memory (no Biome, deployment
 * files, Worker start or type check: those run when it writes): every operation and schema
 * added, removed or changed, the changes that break existing callers, and the handlers they
 * touch. Ends the import with exit 1 and the command that writes it.
 */
function preview(
  result: ImportResult,
  checked: InProcess,
  old: Json | undefined,
  { currentHandlers, paths }: { currentHandlers: string; paths: readonly string[] },
): never {
  console.log(`What importing ${file} changes against the current contract:`);
  const served = checked.served();
  if (!served)
    console.log(
      `  (the new contract cannot be checked in memory, so nothing is compared: ${checked.unchecked ?? "it served no document"}; --force proves it)`,
    );
  else if (!old) console.log("  (the current project does not start, so nothing is compared)");
  else {
    const ops = operationChanges(old, served);
    const schemas = schemaChanges(old, served);
    const list = (label: string, names: readonly string[]) =>
      console.log(
        `  ${label.padEnd(18)} ${names.length}${names.length > 0 ? `: ${names.join(", ")}` : ""}`,
      );
    list("operations added", ops.added);
    list("operations removed", ops.removed);
    console.log(`  operations changed ${ops.changed.length}`);
    for (const changed of ops.changed) console.log(`    ${changed}`);
    list("schemas added", schemas.added);
    list("schemas removed", schemas.removed);
    list("schemas changed", schemas.changed);
    const breaking = breakingChanges(old, served);
    console.log(
      breaking.length === 0
        ? "  breaking changes   none (no operation, status, media type or member removed; nothing newly required or narrowed)"
        : `  breaking changes   ${breaking.length}, each a change an existing caller may fail on:`,
    );
    for (const line of breaking) console.log(`    ${line}`);
    const handled = new Set(handlerIds(currentHandlers));
    const touched = [...ops.removed, ...ops.changed.map((line) => line.split(" ")[0] as string)]
      .concat(operationsUsing(served, [...schemas.changed, ...schemas.removed]))
      .filter((id, i, all) => handled.has(id) && all.indexOf(id) === i);
    list("handlers touched", touched);
  }
  if (checked.refused.size > 0)
    console.log(
      `  operations the platform refuses, to be left out: ${[...checked.refused.keys()].join(", ")}`,
    );
  const operationIds = new Set(result.operationIds);
  const orphans = handlerIds(currentHandlers).filter((id) => !operationIds.has(id));
  if (orphans.length > 0)
    console.log(`  handlers of operations the document does not have: ${orphans.join(", ")}`);
  for (const path of handEdits(ROOT, paths, declaresSomething))
    console.log(`  hand edits that will be lost: ${path} (edited since the last import)`);
  const left = result.findings.filter(isLeftOut).length;
  if (left > 0)
    console.log(
      `  left out by the import: ${left} (src/contract/IMPORT-REPORT.md says why, once written)`,
    );
  console.error(
    `import: nothing written: run again with --force to prove and write it (npm run contract:import -- ${file} --force)`,
  );
  process.exit(1);
}

/** The operations of `document` whose served form refers to one of `schemas` by name. */
function operationsUsing(document: Json, schemas: readonly string[]): string[] {
  if (schemas.length === 0) return [];
  const refs = schemas.map((name) => `"#/components/schemas/${name}"`);
  return [...operationsOf(document)].flatMap(([id, text]) =>
    refs.some((ref) => text.includes(ref)) ? [id] : [],
  );
}

interface Against {
  /** The document the project serves today, if it starts. */
  readonly old: Json | undefined;
  readonly reimport: boolean;
  readonly currentHandlers: string;
  readonly fingerprint: string;
}

/** The report, then what changes, then (when nothing stands in the way) the project's files. */
async function writeProject(
  stage: string,
  source: OpenApiSource,
  { outcome, result, files }: Proved,
  against: Against,
): Promise<void> {
  const staged = outcome.served
    ? (JSON.parse(readStaged(stage, ".wrangler/served-openapi.json")) as Json)
    : undefined;
  // The report, with the sha-256 of each file the import wrote as formatted.
  const written = new Map<string, string>();
  for (const { path } of files)
    if (path !== "src/handlers.ts") written.set(path, sha256(readStaged(stage, path)));
  // Where the staged Worker's build placed each operation in the sandbox, once it started.
  const places = existsSync(join(stage, SANDBOX_PLACES))
    ? (JSON.parse(readStaged(stage, SANDBOX_PLACES)) as SandboxPlace[])
    : undefined;
  writeFileSync(
    join(stage, "src/contract/IMPORT-REPORT.md"),
    `${reportText(result, source, places)}\n${manifestSection(written, { source: source.sha256, importer: against.fingerprint })}`,
  );
  // Biome formats Markdown too (the report's tables), as npm test's lint expects.
  const formatted = await run(
    "npx",
    ["biome", "format", "--write", "src/contract/IMPORT-REPORT.md"],
    stage,
  );
  if (formatted.status !== 0)
    stop(
      ended("formatting IMPORT-REPORT.md with Biome", "npx biome format --write", formatted),
      `${formatted.stdout}${formatted.stderr}`,
    );
  const outputs = [
    ...files.map((f) => f.path),
    "src/contract/IMPORT-REPORT.md",
    "wrangler.toml",
    ".dev.vars.example",
  ];
  const changed = outputs.filter((path) => {
    const target = join(ROOT, path);
    return !existsSync(target) || readFileSync(target, "utf8") !== readStaged(stage, path);
  });
  if (changed.length === 0) {
    console.log(`The contract already is what ${file} gives: nothing to write.`);
    process.exit(0);
  }
  const broken = outcome.handlerErrors.length > 0 || outcome.notStarted !== undefined;
  showChanges(outcome, result, staged, against, { changed, written, broken });
  const backup = replaceFiles(stage, changed);
  summary(result, source, backup, broken);
  if (staged) fidelityLine(source, staged);
}

/**
 * How much of the source the served document keeps (the round-trip report's overall
 * figure), said last; below the floor, loudly, with the command that lists each loss.
 */
function fidelityLine(source: OpenApiSource, served: Json): void {
  const { kept, total, fidelity } = compareDocuments(source.document, source.major, served);
  const figure = `${(fidelity * 100).toFixed(1)}% (${kept} of ${total} items)`;
  if (fidelity >= FIDELITY_FLOOR) {
    console.log(`The served document keeps ${figure} of the source.`);
    return;
  }
  console.log(
    `\nBELOW THE FIDELITY FLOOR: the served document keeps ${figure} of the source, under ${FIDELITY_FLOOR * 100}%.`,
  );
  console.log(`  npm run contract:diff -- ${file}   lists each loss with its pointer`);
}

/** Whether a contract file no import wrote declares something (a hand-written part). */
const declaresSomething = (path: string, text: string) =>
  /^src\/contract\/[a-z]+\.ts$/.test(path) && !/= (?:\{\} as const|undefined) satisfies/.test(text);

/**
 * What a re-import changes, shown before anything is written; without `--force` the
 * import stops there when it would change a declared contract or lose hand edits.
 */
function showChanges(
  outcome: StageOutcome,
  result: ImportResult,
  staged: Json | undefined,
  { old, reimport, currentHandlers }: Against,
  what: { changed: string[]; written: ReadonlyMap<string, string>; broken: boolean },
): void {
  const lostEdits = handEdits(
    ROOT,
    what.changed.filter((path) => what.written.has(path)),
    declaresSomething,
  );
  const operationIds = new Set(result.operationIds);
  const orphanHandlers = handlerIds(currentHandlers).filter((id) => !operationIds.has(id));
  if (!reimport && !what.broken && lostEdits.length === 0) return;
  console.log(`What importing ${file} changes against the current contract:`);
  if (staged) {
    const ops = operationChanges(old, staged);
    const list = (label: string, ids: readonly string[]) =>
      console.log(
        `  operations ${label.padEnd(8)} ${ids.length}${ids.length > 0 ? `: ${ids.slice(0, 12).join(", ")}${ids.length > 12 ? ", …" : ""}` : ""}`,
      );
    if (old) {
      list("added", ops.added);
      list("removed", ops.removed);
      console.log(`  operations changed  ${ops.changed.length}`);
      for (const changed of ops.changed.slice(0, 20)) console.log(`    ${changed}`);
      if (ops.changed.length > 20) console.log(`    … and ${ops.changed.length - 20} more`);
    } else console.log("  (the current project does not start, so operations are not compared)");
  }
  if (orphanHandlers.length > 0)
    console.log(
      `  handlers of operations the document does not have: ${orphanHandlers.join(", ")}`,
    );
  for (const error of outcome.handlerErrors.slice(0, 8))
    console.log(`  handler that will not compile: ${error.text}`);
  if (outcome.notStarted)
    console.log(`  the Worker will not start until they are fixed: ${outcome.notStarted}`);
  for (const path of lostEdits)
    console.log(`  hand edits that will be lost: ${path} (edited since the last import)`);
  console.log(`  files that will be replaced: ${what.changed.join(", ")}`);
  if (!force) {
    console.error(
      `import: nothing written: run again with --force to write it (npm run contract:import -- ${file} --force)`,
    );
    process.exit(1);
  }
}

/** Writes the changed files, each replaced one kept first and put back if any write fails. */
function replaceFiles(stage: string, changed: readonly string[]): string | undefined {
  const backup = join(
    ROOT,
    ".wrangler",
    "import-backup",
    new Date().toISOString().replace(/[:.]/g, "-"),
  );
  const replaced = changed.filter((path) => existsSync(join(ROOT, path)));
  for (const path of replaced) {
    mkdirSync(dirname(join(backup, path)), { recursive: true });
    cpSync(join(ROOT, path), join(backup, path));
  }
  try {
    changed.forEach((path, i) => {
      progress("files written", i + 1, changed.length);
      mkdirSync(dirname(join(ROOT, path)), { recursive: true });
      writeFileSync(join(ROOT, path), readStaged(stage, path));
    });
  } catch (error) {
    for (const path of replaced) cpSync(join(backup, path), join(ROOT, path));
    stop(`writing the project's files failed (${causeOf(error)}); each was put back`);
  }
  if (replaced.length > 0) return backup;
  rmSync(backup, { recursive: true, force: true });
  return undefined;
}

/** What was written, what the deployment must set, and the first steps with it. */
function summary(
  result: ImportResult,
  source: OpenApiSource,
  backup: string | undefined,
  broken: boolean,
): void {
  for (const line of findingsOnConsole(result.findings, "src/contract/IMPORT-REPORT.md"))
    console.log(line);
  const count = (kind: string) => result.findings.filter((f) => f.kind === kind).length;
  console.log(
    `\n${result.findings.length} findings (${(["lost", "not-enforced", "changed"] as const).map((kind) => `${count(kind)} ${FINDING_WORDS[kind]}`).join(", ")}): src/contract/IMPORT-REPORT.md`,
  );

  console.log(`\nWrote the contract from ${file} (${source.format}):`);
  for (const part of SPEC_PARTS) {
    const written = result.parts.get(part.name);
    const what =
      part.name === "states"
        ? "left as it was (OpenAPI does not carry it)"
        : (written?.summary ?? "nothing in the document");
    console.log(`  ${String(part.number).padStart(2)}. ${part.title.padEnd(28)} ${what}`);
  }
  if (backup) console.log(`The files it replaced are kept in ${backup.slice(ROOT.length + 1)}.`);
  deploymentNeeds();
  if (broken) {
    console.log("\nNext: fix src/handlers.ts as listed above, then npm test.");
    return;
  }
  console.log("\nNext:");
  console.log(
    "  npm run dev     serves it on http://localhost:8787 with local credentials (.dev.vars),",
  );
  console.log("                  and prints the curl flag for each security scheme");
  const first = firstRequest();
  if (first) console.log(`  ${first}`);
  console.log("  npm test        the suite, with a generated check of each operation");
  console.log(
    `  npm run contract:diff -- ${file}   how faithfully the served document keeps the source`,
  );
  servedLine(result);
}

/** The import's last line: operations served of declared, and what was left out, by cause. */
function servedLine(result: ImportResult): void {
  const declared = outcome.declared?.operations ?? result.operations;
  const classes = leftOutByClass(result.findings);
  const units = classes.reduce((n, [, count]) => n + count, 0);
  console.log(`\nServed ${result.operations} of the ${declared} operations the document declares.`);
  if (units === 0) return;
  console.log(
    `Left out: ${units} (operations, paths, webhooks or components; each with its cause first in src/contract/IMPORT-REPORT.md), by cause:`,
  );
  for (const [cause, count] of classes.slice(0, 5))
    console.log(`  ${String(count).padStart(5)}  ${cause}`);
  if (classes.length > 5) console.log(`  … and ${classes.length - 5} other causes`);
}

/** The secrets and settings a deployment must set, and the commands that set them. */
function deploymentNeeds(): void {
  // The deployment files just written list them, each with what it holds.
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const required = /^required = \[(.*)\]$/m.exec(toml)?.[1];
  const names = required ? [...required.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string) : [];
  if (names.length === 0) {
    console.log("\nA deployment needs no secret: the contract declares no security scheme.");
    return;
  }
  const meaning = new Map(
    [...toml.matchAll(/^# ([A-Z0-9_]+): (.+)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
  console.log(
    "\nWhat a deployment must set (never in the repository; `wrangler deploy` refuses until each is set):",
  );
  const width = Math.max(...names.map((n) => n.length));
  for (const name of names)
    console.log(`  npx wrangler secret put ${name.padEnd(width)}   ${meaning.get(name) ?? ""}`);
  console.log("Locally, npm run dev gives each a local value in .dev.vars (gitignored).");
}

/** A first request a person can copy: an operation without path parameters, GET first. */
function firstRequest(): string | undefined {
  const endpoints = readFileSync(join(ROOT, "src/contract/endpoints.ts"), "utf8");
  const operations = [...endpoints.matchAll(/method: "([A-Z]+)",\s*path: "([^"]+)"/g)].map((m) => ({
    method: m[1] as string,
    path: m[2] as string,
  }));
  const plain = operations.filter((op) => !op.path.includes("{"));
  const chosen = plain.find((op) => op.method === "GET") ?? plain[0];
  if (!chosen) return undefined;
  const method = chosen.method === "GET" ? "" : ` -X ${chosen.method}`;
  // A key's fixed values go in the query (a fragment is never sent, RFC 3986 §3.5).
  const { path, query, fragment } = pathKeyParts(chosen.path);
  const fixed = [query, fragment].flatMap((text) =>
    text === undefined ? [] : Object.entries(keyPairs(text)?.fixed ?? {}),
  );
  const search = fixed.length > 0 ? `?${new URLSearchParams(fixed)}` : "";
  return `curl -i${method} 'http://localhost:8787${path}${search}'   (add a credential flag from npm run dev where it is secured)`;
}

// Whatever fails unforeseen still says why, in one line, and leaves the project as it was.
await main().catch((error: unknown) =>
  stop(`the importer failed: ${causeOf(error)}`, error instanceof Error ? error.stack : undefined),
);
