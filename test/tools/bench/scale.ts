/**
 * The bench's scale section (test/tools/bench/README.md, "At scale"): a large imported
 * contract against issue 23's limits. For each document, the generated FIXTURE ones (300
 * operations and 1,000 schemas, and the corpus run's three: test/tools/bench/generate-document.ts)
 * and real documents named in BENCH_DOCUMENT (read where they are, never copied into the
 * repository):
 *
 * 1. `npm run contract:import` into a scratch copy of the project, timed; the same for the
 *    document cut down to one simple operation (test/tools/bench/one-operation.ts);
 * 2. each copy's Worker built as a deploy would, and with the CPU probe around it;
 * 3. cold start against bare Hono's, spawned in alternating order;
 * 4. in a fresh isolate, the first call of every operation (a valid request with a working
 *    credential, test/tools/conformance/valid-request.ts), then `/_service/openapi.json`
 *    and `/_service/interface`, each one's CPU time read from workerd's process
 *    (test/tools/bench/workerd.ts); the two pages also each as a fresh isolate's first
 *    request; an isolate's first request less a bare Worker's first request under the same
 *    configuration, a later one less a warm health request's;
 * 5. in another fresh isolate, every operation called once, then the heap (V8 inspector);
 * 6. the simple operation's CPU per request against the one-operation Worker's, rounds in
 *    alternating order;
 * 7. with `--with-suite`, `npm test` in the copy, timed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { bundle as bundleDocument } from "@apidevtools/json-schema-ref-parser";
import { copyProject } from "../../../src/importer/copy-project";
import { buildBundle, buildContractIn, serveWorker } from "../serve";
import {
  GENERATED_DOCUMENTS,
  type GeneratedOptions,
  generateDocument,
  SIMPLE_OPERATION,
} from "./generate-document";
import { oneOperationDocument } from "./one-operation";
import {
  measureFirstRequests,
  measureHeap,
  measureMode,
  measureReferenceLoad,
  measureSimpleCpu,
} from "./scale-measure";
import type { ScaleSetup } from "./scale-setup-types";
import { median } from "./stats";
import { type HeapUsage, processCpuNs } from "./workerd";

type Json = Record<string, unknown>;

/** A document of the scale section, and the simple operation it is compared on. */
export interface ScaleDocument {
  readonly name: string;
  readonly label: string;
  /** Where the document is, or how to make it (written into test/artifacts/bench/). */
  readonly source: { readonly file: string } | { readonly generated: GeneratedOptions };
  /** The operation timed against a one-operation Worker; unset: the document's simplest GET. */
  readonly simple?: { readonly method: string; readonly path: string };
}

/**
 * Real public documents to import at bench time, read where they are and never copied into
 * the project: their files in BENCH_DOCUMENT (several separated by commas), and for a lone
 * document the simple operation to time in BENCH_DOCUMENT_SIMPLE ("GET /a/{id}"); unset, the
 * document's simplest GET is timed. Without them the section measures the generated
 * contracts alone, and says so.
 */
const REAL_DOCUMENTS = (process.env.BENCH_DOCUMENT ?? "").split(",").filter((f) => f !== "");
const REAL_SIMPLE = /^(\S+) (\S+)$/.exec(process.env.BENCH_DOCUMENT_SIMPLE ?? "");

export function scaleDocuments(operations: number, schemas: number): ScaleDocument[] {
  const generated: ScaleDocument[] = [
    {
      name: "generated",
      label: `generated FIXTURE contract (${operations} operations, ${schemas} schemas)`,
      source: { generated: { operations, schemas } },
      simple: { method: SIMPLE_OPERATION.method, path: SIMPLE_OPERATION.path },
    },
    ...GENERATED_DOCUMENTS.map(({ name, ...options }) => ({
      name,
      label: `generated FIXTURE ${name} (${options.operations} operations, ${options.schemas} schemas)`,
      source: { generated: options },
      simple: { method: SIMPLE_OPERATION.method, path: SIMPLE_OPERATION.path },
    })),
  ];
  const missing = REAL_DOCUMENTS.filter((f) => !existsSync(f));
  if (REAL_DOCUMENTS.length === 0 || missing.length > 0) {
    console.log(
      `scale: ${missing.length > 0 ? `no such document: ${missing.join(", ")}` : "no real document"} (set BENCH_DOCUMENT to OpenAPI files, separated by commas)`,
    );
    return generated;
  }
  const simple =
    REAL_DOCUMENTS.length === 1 && REAL_SIMPLE
      ? { method: (REAL_SIMPLE[1] as string).toLowerCase(), path: REAL_SIMPLE[2] as string }
      : undefined;
  return [
    ...generated,
    ...REAL_DOCUMENTS.map((file) => ({
      name: REAL_DOCUMENTS.length === 1 ? "real" : `real-${basename(file).replace(/\.[^.]*$/, "")}`,
      label: `${basename(file)} (a real document, imported at bench time)`,
      source: { file },
      ...(simple ? { simple } : {}),
    })),
  ];
}

/**
 * The operation a document is timed on when none is named: its first GET of the fewest
 * parameters (path ones and declared ones), the call most like a health check of the API.
 */
export function simplestOperation(document: Json): { method: string; path: string } {
  let best: { method: string; path: string; weight: number } | undefined;
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    if (typeof item !== "object" || item === null || !("get" in item)) continue;
    const declared = [
      ...((item.parameters ?? []) as unknown[]),
      ...(((item.get as Json | null)?.parameters ?? []) as unknown[]),
    ];
    const weight = (path.match(/\{/g) ?? []).length + declared.length;
    if (!best || weight < best.weight) best = { method: "get", path, weight };
  }
  if (best) return { method: best.method, path: best.path };
  const [path, item] = Object.entries((document.paths ?? {}) as Record<string, Json>)[0] ?? [];
  const method = Object.keys(item ?? {}).find((k) => /^(put|post|delete|patch)$/.test(k));
  if (!path || !method) throw new Error("scale: the document has no operation to time");
  return { method, path };
}

/** One first request: what was called, how it was answered, and its CPU time. */
export interface FirstRequest {
  readonly label: string;
  readonly status?: number;
  /**
   * The process's CPU time for it less the floor of its place, in ms: a bare Worker's first
   * request for an isolate's first, a warm health request's for any later one.
   */
  readonly cpuMs?: number;
  /** Why it was not measured, or what its answer means. */
  readonly note?: string;
}

export interface ScaleFigures {
  readonly label: string;
  readonly operations: number;
  readonly importSeconds: number;
  /** The importer's own peak heap (`.wrangler/import-outcome.json`), MiB. */
  readonly importPeakHeapMiB?: number;
  readonly oneOperationImportSeconds?: number;
  /** Why the import (or a later step) failed, when it did: every figure after it is missing. */
  readonly error?: string;
  readonly bundleRaw?: number;
  readonly bundleGzip?: number;
  readonly coldStartMs?: number;
  /** workerd's CPU time over the same span (spawn to first answer), median. */
  readonly coldStartCpuMs?: number;
  readonly firstRequests?: readonly FirstRequest[];
  /** The two pages, each as the first request of a fresh isolate. */
  readonly freshFirstRequests?: readonly FirstRequest[];
  /** What workerd spends on any lone request (a warm `/_service/health`), subtracted above. */
  readonly requestFloorMs?: number;
  /** What a bare Worker's first request costs under the same configuration, subtracted from each isolate's first. */
  readonly isolateFloorMs?: number;
  readonly heap?: HeapUsage;
  readonly simple?: {
    readonly label: string;
    readonly status: number;
    readonly cpuMicros: number;
    readonly oneOperationCpuMicros: number;
    /** Within-round ratios (large over one-operation), median and middle half. */
    readonly ratio: number;
    readonly spread: readonly [number, number];
  };
  readonly suite?: { readonly seconds: number; readonly ok: boolean; readonly summary: string };
  /** The reference's index and largest page opened in Chromium, to its `load` event. */
  readonly referenceLoad?: readonly {
    readonly path: string;
    readonly bytes: number;
    readonly ms: number;
  }[];
  /** The same first requests and heap under `examples` and `sandbox` (issue 42). */
  readonly modes?: Readonly<Partial<Record<(typeof MODES)[number], ModeFigures>>>;
}

/** A document's first requests and heap under one `UNHANDLED_OPERATIONS` setting. */
export type ModeFigures = Pick<
  ScaleFigures,
  "firstRequests" | "freshFirstRequests" | "requestFloorMs" | "isolateFloorMs" | "heap" | "error"
>;

/** The settings measured beside the default (`501`, the figures above). */
export const MODES = ["examples", "sandbox"] as const;

export interface ScaleResults {
  readonly bareHonoColdStartMs: number;
  readonly bareHonoColdStartCpuMs?: number;
  /** Rounds of the simple operation's CPU comparison. */
  readonly rounds?: number;
  readonly documents: Record<string, ScaleFigures>;
}

export interface ScaleOptions {
  readonly dir: string;
  readonly out: string;
  readonly cpus: string | undefined;
  readonly coldStarts: number;
  readonly rounds: number;
  readonly cpuLoop: number;
  readonly documents: readonly ScaleDocument[];
}

/** A document imported into a copy of the project: where, how long it took, or why it failed. */
interface Imported {
  readonly copy: string;
  readonly seconds: number;
  /** The importer's peak heap, as its outcome file says (MiB). */
  readonly peakHeapMiB?: number;
  readonly error?: string;
}

/** The importer's peak heap, from the outcome it writes however it ends (src/importer/import.ts). */
function importPeakHeap(copy: string): number | undefined {
  const file = join(copy, ".wrangler/import-outcome.json");
  if (!existsSync(file)) return undefined;
  const { peakHeapMiB } = JSON.parse(readFileSync(file, "utf8")) as { peakHeapMiB?: number };
  return peakHeapMiB;
}

/** `npm run contract:import` in a fresh copy, timed; its last line of output on failure. */
export function timedImport(dir: string, openapi: string): Imported {
  const copy = copyProject("bench-import-", resolve("."), dir);
  const started = performance.now();
  const ran = spawnSync("npm", ["run", "--silent", "contract:import", "--", openapi], {
    cwd: copy,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const peak = importPeakHeap(copy);
  const heap = peak === undefined ? {} : { peakHeapMiB: peak };
  if (ran.status === 0) return { copy, seconds, ...heap };
  const lines = `${ran.stderr}\n${ran.stdout}`.split("\n").filter((l) => l.trim() !== "");
  const cause = lines.filter((l) => l.startsWith("import: ")).at(0) ?? lines.at(-1) ?? "";
  return { copy, seconds, ...heap, error: `the import failed (${ran.status}): ${cause}` };
}

/** What `scale-setup.ts` writes, run inside the copy. */
function setupOf(copy: string, dir: string, name: string): ScaleSetup {
  const file = join(dir, `${name}-setup.json`);
  execFileSync("npx", ["tsx", "test/tools/bench/scale-setup.ts", file], {
    cwd: copy,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return JSON.parse(readFileSync(file, "utf8")) as ScaleSetup;
}

/** The document as JSON: written by the generator into test/artifacts/bench/, or read. */
async function sourceOf(doc: ScaleDocument, out: string): Promise<{ file: string; json: Json }> {
  if ("file" in doc.source)
    return { file: doc.source.file, json: (await bundleDocument(doc.source.file)) as Json };
  const { operations, schemas } = doc.source.generated;
  const json = generateDocument(doc.source.generated);
  const file = resolve(out, `fixture-${doc.name}-${operations}-operations-${schemas}-schemas.json`);
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return { file, json };
}

const operationCount = (document: Json) =>
  Object.values((document.paths ?? {}) as Record<string, Json>).reduce(
    (n, item) =>
      n +
      Object.keys(item).filter((k) => /^(get|put|post|delete|patch|head|options|trace)$/.test(k))
        .length,
    0,
  );

/** A copy's Worker: as deployed, and with the CPU probe around it. */
async function bundlesOf(copy: string, dir: string, name: string) {
  buildContractIn(copy);
  const entry = join(dir, `${name}-probe.ts`);
  writeFileSync(
    entry,
    `import worker from ${JSON.stringify(join(copy, "src/index.ts"))};\nimport { withCpuProbe } from ${JSON.stringify(resolve("test/tools/bench/cpu-probe.ts"))};\n// The Worker's Durable Object classes too, which its bindings name.\nexport * from ${JSON.stringify(join(copy, "src/index.ts"))};\nexport default withCpuProbe(worker);\n`,
  );
  const [plain, probed] = await Promise.all([
    buildBundle(name, join(copy, "src/index.ts"), dir, false),
    buildBundle(`${name}-probe`, entry, dir, false),
  ]);
  return { plain, probed };
}

/**
 * The copy's Worker as a deployment that answers operations without a handler builds it:
 * its wrangler.toml's `[vars]` set `UNHANDLED_OPERATIONS = "sandbox"`, so the build writes
 * the examples' chapters and the sandbox's code (src/build/write.ts). Built after the
 * default's figures were taken: the build rewrites the copy's assets.
 */
async function answeringBundle(copy: string, dir: string, name: string): Promise<string> {
  const toml = join(copy, "wrangler.toml");
  const text = readFileSync(toml, "utf8");
  const set = text.replace(/^UNHANDLED_OPERATIONS = .*$/m, 'UNHANDLED_OPERATIONS = "sandbox"');
  if (set === text) throw new Error("the copy's wrangler.toml sets no UNHANDLED_OPERATIONS");
  writeFileSync(toml, set);
  buildContractIn(copy);
  return buildBundle(`${name}-answering`, join(copy, "src/index.ts"), dir, false);
}

/** Everything one document needs before it is measured, or why it cannot be. */
interface Prepared {
  readonly doc: ScaleDocument;
  /** The operation timed against the one-operation Worker. */
  readonly simple: { readonly method: string; readonly path: string };
  readonly figures: ScaleFigures;
  readonly copy?: string;
  readonly oneCopy?: string;
  readonly setup?: ScaleSetup;
  readonly oneSetup?: ScaleSetup;
  readonly bundles?: { plain: string; probed: string };
  readonly oneProbed?: string;
}

async function prepare(doc: ScaleDocument, options: ScaleOptions): Promise<Prepared> {
  const { file, json } = await sourceOf(doc, options.out);
  const operations = operationCount(json);
  const simple = doc.simple ?? simplestOperation(json);
  console.log(`scale: importing ${doc.label} (${operations} operations)…`);
  const big = timedImport(options.dir, file);
  const base = {
    label: doc.label,
    operations,
    importSeconds: +big.seconds.toFixed(1),
    ...(big.peakHeapMiB === undefined ? {} : { importPeakHeapMiB: big.peakHeapMiB }),
  };
  console.log(
    `scale:   ${big.error ?? `imported in ${base.importSeconds} s, the importer's heap at most ${big.peakHeapMiB ?? "–"} MiB`}`,
  );
  if (big.error) return { doc, simple, figures: { ...base, error: big.error } };
  const oneFile = join(options.dir, `${doc.name}-one-operation.json`);
  writeFileSync(oneFile, JSON.stringify(oneOperationDocument(json, simple.path, simple.method)));
  const one = timedImport(options.dir, oneFile);
  const figures = { ...base, oneOperationImportSeconds: +one.seconds.toFixed(1) };
  if (one.error)
    return { doc, simple, figures: { ...figures, error: `one operation: ${one.error}` } };
  const bundles = await bundlesOf(big.copy, options.dir, doc.name);
  const oneBundles = await bundlesOf(one.copy, options.dir, `${doc.name}-one`);
  const bytes = readFileSync(bundles.plain);
  return {
    doc,
    simple,
    figures: {
      ...figures,
      bundleRaw: bytes.length,
      bundleGzip: gzipSync(bytes, { level: 9 }).length,
    },
    copy: big.copy,
    oneCopy: one.copy,
    setup: setupOf(big.copy, options.dir, doc.name),
    oneSetup: setupOf(one.copy, options.dir, `${doc.name}-one`),
    bundles,
    oneProbed: oneBundles.probed,
  };
}

/** Cold starts of bare Hono and every prepared Worker, spawned in alternating order. */
async function coldStarts(
  prepared: readonly Prepared[],
  options: ScaleOptions,
): Promise<{
  bare: number;
  bareCpu: number;
  byName: Map<string, number>;
  cpuByName: Map<string, number>;
}> {
  const bare = await buildBundle(
    "scale-bare-hono",
    resolve("test/tools/bench/variants/bare-hono.ts"),
    options.dir,
  );
  const list = [
    { name: "bare-hono", bundle: bare, vars: {} },
    ...prepared.flatMap((p) =>
      p.bundles && p.setup
        ? [{ name: p.doc.name, bundle: p.bundles.plain, vars: p.setup.vars }]
        : [],
    ),
  ];
  console.log(`scale: cold starts, ${options.coldStarts} spawns each, alternating…`);
  const times = new Map<string, number[]>(list.map((l) => [l.name, []]));
  const cpu = new Map<string, number[]>(list.map((l) => [l.name, []]));
  for (let i = 0; i < options.coldStarts; i++)
    for (const l of i % 2 ? [...list].reverse() : list) {
      const w = await serveWorker({ bundle: l.bundle, cpus: options.cpus, vars: l.vars });
      times.get(l.name)?.push(w.startupMs);
      cpu.get(l.name)?.push(processCpuNs(w.pid) / 1e6);
      await w.stop();
    }
  const medians = (m: Map<string, number[]>) =>
    new Map([...m].map(([name, xs]) => [name, +median(xs).toFixed(1)]));
  const byName = medians(times);
  const cpuByName = medians(cpu);
  return {
    bare: byName.get("bare-hono") ?? Number.NaN,
    bareCpu: cpuByName.get("bare-hono") ?? Number.NaN,
    byName,
    cpuByName,
  };
}

/** `npm test` in the copy: how long it took, whether it passed, and its summary lines. */
function suiteOf(copy: string, out: string, name: string): ScaleFigures["suite"] {
  console.log(`scale: npm test in the ${name} copy (minutes)…`);
  const started = performance.now();
  const ran = spawnSync("npm", ["test"], {
    cwd: copy,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  const seconds = +((performance.now() - started) / 1000).toFixed(1);
  const log = `${ran.stdout}\n${ran.stderr}`;
  writeFileSync(join(out, `suite-${name}.log`), log);
  const summary = log
    .split("\n")
    .filter((l) => /^\s*(Test Files|Tests)\s/.test(l))
    .map((l) => l.trim())
    .join("; ");
  return { seconds, ok: ran.status === 0, summary: summary || `exit ${ran.status}` };
}

/** Step 1 and 2 for every document: imports and builds (before the bench pins itself to a CPU). */
export async function prepareScale(options: ScaleOptions): Promise<Prepared[]> {
  mkdirSync(options.out, { recursive: true });
  const prepared: Prepared[] = [];
  for (const doc of options.documents) prepared.push(await prepare(doc, options));
  return prepared;
}

/** Steps 3 to 6: cold starts, first requests, heap, and the simple operation's CPU. */
export async function measureScale(
  prepared: readonly Prepared[],
  options: ScaleOptions,
): Promise<ScaleResults> {
  const starts = await coldStarts(prepared, options);
  const bareFetch = await buildBundle(
    "scale-bare-fetch",
    resolve("test/tools/bench/variants/bare-fetch.ts"),
    options.dir,
  );
  const documents: Record<string, ScaleFigures> = {};
  for (const p of prepared) {
    let figures: ScaleFigures = {
      ...p.figures,
      coldStartMs: starts.byName.get(p.doc.name),
      coldStartCpuMs: starts.cpuByName.get(p.doc.name),
    };
    if (p.copy && p.setup && !p.figures.error) {
      console.log(`scale: ${p.doc.label}`);
      try {
        const firsts = await measureFirstRequests(
          p.bundles?.plain ?? "",
          bareFetch,
          p.copy,
          p.setup,
          options.cpus,
        );
        const heap = await measureHeap(p.bundles?.plain ?? "", p.copy, p.setup, options.cpus);
        figures = { ...figures, ...firsts, heap, simple: await measureSimpleCpu(p, options) };
        const referenceLoad = await measureReferenceLoad(
          p.bundles?.plain ?? "",
          p.copy,
          p.setup,
          options.cpus,
        );
        if (referenceLoad) figures = { ...figures, referenceLoad };
        const modes: Partial<Record<(typeof MODES)[number], ModeFigures>> = {};
        const answering = await answeringBundle(p.copy, options.dir, p.doc.name);
        for (const mode of MODES) {
          console.log(`scale:   UNHANDLED_OPERATIONS = ${mode}`);
          try {
            modes[mode] = await measureMode(
              mode,
              answering,
              bareFetch,
              p.copy,
              p.setup,
              options.cpus,
            );
          } catch (error) {
            modes[mode] = { error: `measuring failed: ${(error as Error).message}` };
          }
        }
        figures = { ...figures, modes };
      } catch (error) {
        figures = { ...figures, error: `measuring failed: ${(error as Error).message}` };
      }
    }
    documents[p.doc.name] = figures;
  }
  return {
    bareHonoColdStartMs: starts.bare,
    bareHonoColdStartCpuMs: starts.bareCpu,
    rounds: options.rounds,
    documents,
  };
}

/** Step 7 (`--with-suite`): `npm test` in each imported copy, timed, into the results. */
export function suiteScale(
  prepared: readonly Prepared[],
  results: ScaleResults,
  out: string,
): void {
  for (const p of prepared) {
    const figures = results.documents[p.doc.name];
    if (p.copy && figures && !figures.error)
      results.documents[p.doc.name] = { ...figures, suite: suiteOf(p.copy, out, p.doc.name) };
  }
}

export type { Prepared };
