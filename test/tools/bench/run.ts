/**
 * `npm run bench [-- --rounds 8 --seconds 2 --connections 32 --update-readme]`: builds every
 * variant with wrangler (minified), runs each on `workerd serve` (pinned to CPU 0, the load
 * generator on the others) and measures them side by side in one run: bundle size, cold
 * start, requests/s with p50/p99 latency under autocannon, in-process CPU µs per request,
 * and workerd's memory before and after. Rounds alternate the order of the variants; each
 * figure is the median over rounds, and each ratio is taken within a round, then the median.
 * Writes test/artifacts/bench/results.{md,json} and chart.svg; with --update-readme, also
 * the results sections of test/tools/bench/README.md and the committed copy in test/tools/bench/results/.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { experimental_readRawConfig } from "wrangler";
import { copyProject } from "../../../src/importer/copy-project";
import { buildBundle, buildContractIn, type ServedWorker, serveWorker } from "../serve";
import { renderChart, renderMarkdown, renderSummary, targets } from "./report";
import {
  measureScale,
  type Prepared,
  prepareScale,
  type ScaleOptions,
  type ScaleResults,
  scaleDocuments,
  suiteScale,
} from "./scale";
import { HEALTH_PATH, PLACEHOLDER_PATH, POST_BODY, POST_PATH } from "./shared";
import { median, middleHalf } from "./stats";
import { exitCodeOf, verdictTable } from "./verdict";
import { probeCpu, processCpuNs } from "./workerd";

const run = promisify(execFile);

export type Scenario = "placeholder" | "health" | "post";
const SCENARIOS: readonly Scenario[] = ["placeholder", "health", "post"];
export interface Variant {
  readonly name: string;
  readonly file: string;
  readonly label: string;
  readonly scenarios: readonly Scenario[];
  /** This service's own variants: built with its wrangler.toml settings. */
  readonly ours?: true;
  /**
   * An OpenAPI document (FIXTURE, written by the project): the variant is this service with
   * the contract `npm run contract:import` makes of it, in a copy of the project, so that
   * what an import costs is measured on what the importer writes today.
   */
  readonly openapi?: string;
}

export const VARIANTS: readonly Variant[] = [
  {
    name: "bare-fetch",
    file: "bare-fetch.ts",
    label: "bare Worker fetch (baseline)",
    scenarios: ["placeholder", "health"],
  },
  {
    name: "bare-hono",
    file: "bare-hono.ts",
    label: "bare Hono",
    scenarios: ["placeholder", "health"],
  },
  {
    name: "hono-stock",
    file: "hono-stock-middleware.ts",
    label: "Hono + requestId + secureHeaders",
    scenarios: ["placeholder", "health"],
  },
  {
    name: "shipped",
    file: "shipped.ts",
    label: "this service, as shipped",
    scenarios: ["placeholder", "health"],
    ours: true,
  },
  {
    name: "hono-zod",
    file: "hono-zod.ts",
    label: "Hono + zod safeParse (hand-written)",
    scenarios: ["post"],
  },
  { name: "zod-openapi", file: "zod-openapi.ts", label: "@hono/zod-openapi", scenarios: ["post"] },
  { name: "chanfana", file: "chanfana.ts", label: "chanfana", scenarios: ["post"] },
  {
    name: "service-op",
    file: "service-operation.ts",
    label: "this service, fixture operation",
    scenarios: ["post"],
    ours: true,
  },
  {
    name: "imported",
    file: "",
    openapi: "test/fixtures/openapi/rich-3.1.yaml",
    label: "this service, imported FIXTURE document (10 operations, webhooks, security)",
    scenarios: ["health"],
    ours: true,
  },
  {
    name: "zod-openapi-platform",
    file: "zod-openapi-platform.ts",
    label: "reference: @hono/zod-openapi + this platform's headers",
    scenarios: ["post"],
  },
  {
    name: "post-ceiling",
    file: "post-ceiling.ts",
    label: "ceiling: bare fetch + this platform's headers, no validation",
    scenarios: ["post"],
  },
];

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? Number.NaN : Number(process.argv[i + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
const ROUNDS = option("rounds", 8);
const SECONDS = option("seconds", 2);
const CONNECTIONS = option("connections", 32);
const COLD_STARTS = option("cold-starts", 15);
const CPU_LOOP = option("cpu-loop", 5000);
const WARM_UP_SECONDS = 4;
/** The memory target's long run: the shipped Worker under continuous load. */
const LONG_RUN_SECONDS = option("long-run", 60);
/**
 * The bench's sections, each with the variants its targets need: `--only shipped,post`
 * re-runs those alone (with `--only`, the scale section runs only when named). `--only`
 * also takes variant names, for a quick look at one row (its targets may then be left out).
 */
const SECTIONS: Readonly<Record<string, readonly string[]>> = {
  shipped: ["bare-fetch", "bare-hono", "hono-stock", "shipped"],
  post: [
    "hono-zod",
    "zod-openapi",
    "chanfana",
    "service-op",
    "zod-openapi-platform",
    "post-ceiling",
  ],
  imported: ["bare-hono", "imported"],
  scale: [],
};
const ONLY = (() => {
  const i = process.argv.indexOf("--only");
  if (i === -1) return undefined;
  const names = (process.argv[i + 1] ?? "").split(",").filter((n) => n !== "");
  const known = new Set([...Object.keys(SECTIONS), ...VARIANTS.map((v) => v.name)]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(
      `--only takes sections (${Object.keys(SECTIONS).join(", ")}) or variants (${VARIANTS.map((v) => v.name).join(", ")}); got ${unknown.join(", ") || "nothing"}`,
    );
  return new Set(names.flatMap((n) => [n, ...(SECTIONS[n] ?? [])]));
})();
/**
 * The scale section (test/tools/bench/scale.ts): on by default, `--no-scale` leaves it out,
 * `--scale-only` (or `--only scale`) runs it alone; `--scale-operations`/`--scale-schemas`
 * size the generated document (300 and 1,000), `--scale-documents generated,real` picks documents,
 * `--scale-rounds` sets the rounds of its CPU comparison, and `--with-suite` also times
 * `npm test` in each imported copy (minutes each).
 */
const SCALE = ONLY ? ONLY.has("scale") : !process.argv.includes("--no-scale");
const SCALE_ONLY =
  process.argv.includes("--scale-only") ||
  (ONLY !== undefined && VARIANTS.every((v) => !ONLY.has(v.name)));
const SCALE_OPERATIONS = option("scale-operations", 300);
const SCALE_SCHEMAS = option("scale-schemas", 1000);
const WITH_SUITE = process.argv.includes("--with-suite");
/**
 * Rounds of the simple operation's CPU comparison: each is two loops of under a second, and
 * a large contract's ratio moves more from round to round (its heap, its collections) than
 * the main section's, so it gets three times the main section's rounds unless told.
 */
const SCALE_ROUNDS = option("scale-rounds", ROUNDS * 3);
const scaleSelected = () => {
  const i = process.argv.indexOf("--scale-documents");
  const names = i === -1 ? undefined : new Set((process.argv[i + 1] ?? "").split(","));
  return scaleDocuments(SCALE_OPERATIONS, SCALE_SCHEMAS).filter((d) => !names || names.has(d.name));
};

const SHIPPED = experimental_readRawConfig({ config: "wrangler.toml" }).rawConfig as {
  vars?: Record<string, string>;
  keep_names?: boolean;
};
/** The shipped default (wrangler.toml's var) unless `--response-validation off|log|enforce`. */
const RESPONSE_VALIDATION = (() => {
  const i = process.argv.indexOf("--response-validation");
  if (i !== -1) return process.argv[i + 1] ?? "log";
  return SHIPPED.vars?.RESPONSE_VALIDATION ?? "log";
})();
/** wrangler.toml's keep_names (wrangler's default is true). */
const KEEP_NAMES = SHIPPED.keep_names ?? true;
/**
 * Each variant is built as its own project would deploy it: this service's two with its
 * wrangler.toml settings, every other one with wrangler's defaults (and --minify, as the
 * issue asks of all). `--same-build` gives every variant the service's settings instead,
 * which compares code with code rather than as deployed.
 */
const SAME_BUILD = process.argv.includes("--same-build");
const keepNamesOf = (variant: Variant) => (variant.ours || SAME_BUILD ? KEEP_NAMES : undefined);

const OUT = "test/artifacts/bench";
const RESULTS = "test/tools/bench/results";

interface Built {
  readonly variant: Variant;
  /** The variant alone, as it would deploy: what its size is measured on. */
  readonly bundle: string;
  /** The variant wrapped with the in-process CPU probe route: what is served. */
  readonly probed: string;
}

/** The variants of the sections (or the variants themselves) `--only` names; all without it. */
function selected(): readonly Variant[] {
  return ONLY ? VARIANTS.filter((v) => ONLY.has(v.name)) : VARIANTS;
}

/** A copy of the project (inside the run's directory) with the document imported into it. */
function importedCopy(dir: string, openapi: string): string {
  const copy = copyProject("bench-import-", resolve("."), dir);
  execFileSync("npm", ["run", "--silent", "contract:import", "--", resolve(openapi)], {
    cwd: copy,
    stdio: ["ignore", "ignore", "inherit"],
  });
  // What the entry imports (src/generated/, not copied: it is gitignored), as a deploy makes it.
  buildContractIn(copy);
  return copy;
}

async function buildAll(dir: string): Promise<Built[]> {
  buildContractIn(resolve("."));
  return Promise.all(
    selected().map(async (variant) => {
      const source = variant.openapi
        ? join(importedCopy(dir, variant.openapi), "src/index.ts")
        : resolve("test/tools/bench/variants", variant.file);
      const entry = join(dir, `${variant.name}-probe.ts`);
      writeFileSync(
        entry,
        `import worker from ${JSON.stringify(source)};\nimport { withCpuProbe } from ${JSON.stringify(resolve("test/tools/bench/cpu-probe.ts"))};\n// The Worker's Durable Object classes too, which its bindings name.\nexport * from ${JSON.stringify(source)};\nexport default withCpuProbe(worker);\n`,
      );
      const keepNames = keepNamesOf(variant);
      const bundle =
        variant.name === "shipped"
          ? await buildBundle("shipped", resolve("src/index.ts"), dir, keepNames)
          : await buildBundle(variant.name, source, dir, keepNames);
      const probed = await buildBundle(`${variant.name}-probe`, entry, dir, keepNames);
      return { variant, bundle, probed };
    }),
  );
}

function requestFor(scenario: Scenario) {
  if (scenario === "post")
    return {
      method: "POST" as const,
      path: POST_PATH,
      headers: { "content-type": "application/json" },
      body: POST_BODY,
    };
  return { method: "GET" as const, path: scenario === "health" ? HEALTH_PATH : PLACEHOLDER_PATH };
}
const EXPECTED: Record<Scenario, number> = { placeholder: 501, health: 200, post: 201 };

interface LoadFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly unexpected: number;
}

async function load(url: string, scenario: Scenario, seconds: number): Promise<LoadFigures> {
  let unexpected = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        ...requestFor(scenario),
        onResponse: (status: number) => void (status !== EXPECTED[scenario] && unexpected++),
      },
    ],
  });
  if (result.errors > 0 || result.timeouts > 0) unexpected += result.errors + result.timeouts;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    unexpected,
  };
}

/** The in-process loop's CPU per request (workerd's CPU time) and its wall time (the probe's). */
async function cpuMicros(w: ServedWorker, scenario: Scenario) {
  const figures = await probeCpu(w.url, w.pid, scenario, CPU_LOOP);
  if (figures.status !== EXPECTED[scenario]) throw new Error(`cpu loop answered ${figures.status}`);
  return figures;
}

interface RssGrowth {
  readonly before: number;
  readonly after: number;
  readonly growthPercent: number;
}

const rssGrowth = (before: number, after: number): RssGrowth => ({
  before,
  after,
  growthPercent: +(((after - before) / before) * 100).toFixed(1),
});

export interface Results {
  readonly date: string;
  readonly machine: string;
  readonly settings: Record<string, number>;
  /** The RESPONSE_VALIDATION var every variant ran with. */
  readonly responseValidation: string;
  /** Whether every variant had this service's build settings (`--same-build`), and those. */
  readonly build: { readonly sameBuild: boolean; readonly serviceKeepNames: boolean };
  /** The shipped Worker's continuous long run, for the memory target. */
  readonly longRun?: {
    readonly seconds: number;
    readonly requests: number;
    readonly unexpected: number;
    /** Over the second half of the run: what the target is judged on. */
    readonly rssKiB: RssGrowth;
    readonly wholeRun: RssGrowth;
    readonly samplesKiB: readonly number[];
  };
  /** The scale section: large imported contracts (test/tools/bench/scale.ts). */
  readonly scale?: ScaleResults;
  readonly variants: Record<
    string,
    {
      label: string;
      bundleRaw: number;
      bundleGzip: number;
      coldStartMs: number;
      /** workerd's CPU time over the same span (spawn to first answer), median. */
      coldStartCpuMs?: number;
      /** workerd's CPU time per request of the in-process loop (medians over rounds). */
      cpuMicros: Partial<Record<Scenario, number>>;
      /** The same loop's wall time between timer turns, as the probe measures it. */
      wallMicros?: Partial<Record<Scenario, number>>;
      /** POST only: within-round CPU ratios over each baseline (`post:hono-zod`), medians. */
      cpuRatios?: Record<string, number>;
      cpuRatioSpread?: Record<string, readonly [number, number]>;
      load: Partial<Record<Scenario, LoadFigures>>;
      /** Within-round ratios, medians: rps over the baseline's in the same round. */
      ratios: Record<string, number>;
      /** The middle half of those rounds' ratios (first and third quartile): how noisy each is. */
      ratioSpread?: Record<string, readonly [number, number]>;
      rssKiB: RssGrowth;
    }
  >;
}

/** Median cold start of each variant, spawn after spawn, alternating the order. */
async function measureColdStarts(
  built: readonly Built[],
  cpuPin: string | undefined,
  vars: Record<string, string>,
): Promise<{ wall: Map<string, number[]>; cpu: Map<string, number[]> }> {
  console.log(`cold starts: ${COLD_STARTS} spawns per variant, alternating…`);
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  // One unmeasured spawn first: the first start of workerd also pays for reading its binary.
  await (await serveWorker({ bundle: built[0]?.bundle, cpus: cpuPin, vars })).stop();
  for (let i = 0; i < COLD_STARTS; i++) {
    const order = i % 2 ? [...built].reverse() : built;
    for (const b of order) {
      const w = await serveWorker({ bundle: b.bundle, cpus: cpuPin, vars });
      push(wall, b.variant.name, w.startupMs);
      // The same span's CPU time: what a loaded machine does not inflate.
      push(cpu, b.variant.name, processCpuNs(w.pid) / 1e6);
      await w.stop();
    }
  }
  return { wall, cpu };
}

/** What the rounds measured, by `<variant>/<scenario>` (ratios by `<variant>/<scenario>:<baseline>`). */
interface Rounds {
  readonly loads: Map<string, LoadFigures[]>;
  readonly ratios: Map<string, number[]>;
  readonly cpu: Map<string, number[]>;
  /** The probe's own wall-clock figure beside each CPU one. */
  readonly wall: Map<string, number[]>;
  /** Within-round CPU ratios of the POST variants, by `<variant>/post:<baseline>`. */
  readonly cpuRatios: Map<string, number[]>;
}

/** What a POST variant's CPU per request is compared with: the best peer and the reference row. */
export const CPU_BASELINES = ["hono-zod", "zod-openapi-platform", "post-ceiling"] as const;

const push = <T>(m: Map<string, T[]>, k: string, v: T) => m.set(k, [...(m.get(k) ?? []), v]);

/** One round's ratios: each variant's requests/s over its baselines' in the same round. */
function pushRatios(ratios: Map<string, number[]>, rps: ReadonlyMap<string, number>): void {
  for (const [key, value] of rps) {
    const [name, s] = key.split("/") as [string, Scenario];
    const baselines =
      s === "post"
        ? ["zod-openapi", "hono-zod", "zod-openapi-platform"]
        : ["bare-fetch", "hono-stock"];
    for (const baseline of baselines)
      push(ratios, `${name}/${s}:${baseline}`, value / (rps.get(`${baseline}/${s}`) ?? Number.NaN));
  }
}

/** One round's CPU ratios: each POST variant's CPU per request over its baselines'. */
function pushCpuRatios(ratios: Map<string, number[]>, cpu: ReadonlyMap<string, number>): void {
  for (const [key, value] of cpu) {
    if (!key.endsWith("/post")) continue;
    for (const baseline of CPU_BASELINES)
      push(ratios, `${key}:${baseline}`, value / (cpu.get(`${baseline}/post`) ?? Number.NaN));
  }
}

/**
 * The rounds: every scenario of every variant under load, then the in-process CPU loop of
 * each, back to back in the same order, so that a CPU ratio compares neighbours in time.
 */
async function measureRounds(
  built: readonly Built[],
  served: ReadonlyMap<string, ServedWorker>,
): Promise<Rounds> {
  const rounds: Rounds = {
    loads: new Map(),
    ratios: new Map(),
    cpu: new Map(),
    wall: new Map(),
    cpuRatios: new Map(),
  };
  for (let round = 0; round < ROUNDS; round++) {
    console.log(`round ${round + 1} of ${ROUNDS}…`);
    const order = round % 2 ? [...built].reverse() : built;
    const rps = new Map<string, number>();
    const cpu = new Map<string, number>();
    // Scenario by scenario, so the variants a ratio compares are loaded back to back: this
    // shared machine's speed drifts over seconds, and a ratio between loads far apart in
    // time measures that drift as much as the variants.
    for (const s of SCENARIOS) {
      const these = order.filter((o) => o.variant.scenarios.includes(s));
      for (const b of these) {
        const f = await load((served.get(b.variant.name) as ServedWorker).url, s, SECONDS);
        push(rounds.loads, `${b.variant.name}/${s}`, f);
        rps.set(`${b.variant.name}/${s}`, f.rps);
      }
      for (const b of these) {
        const f = await cpuMicros(served.get(b.variant.name) as ServedWorker, s);
        push(rounds.cpu, `${b.variant.name}/${s}`, f.cpuMicros);
        push(rounds.wall, `${b.variant.name}/${s}`, f.wallMicros);
        cpu.set(`${b.variant.name}/${s}`, f.cpuMicros);
      }
    }
    pushRatios(rounds.ratios, rps);
    pushCpuRatios(rounds.cpuRatios, cpu);
  }
  return rounds;
}

/**
 * The memory target: one continuous run of the shipped Worker, its RSS sampled every
 * 2 s. Under load, workerd's RSS steps up once when V8 grows its heap to its working
 * size, then stays flat; a leak instead keeps growing. So the target is judged on the
 * second half of the run, and the whole run's growth is reported beside it.
 */
async function measureLongRun(
  shippedWorker: ServedWorker | undefined,
): Promise<Results["longRun"]> {
  if (!shippedWorker) return undefined;
  console.log(`long run: the shipped Worker, ${LONG_RUN_SECONDS} s…`);
  const samples = [shippedWorker.rssKiB()];
  const sampler = setInterval(() => samples.push(shippedWorker.rssKiB()), 2000);
  const half = Math.max(1, Math.round(LONG_RUN_SECONDS / 2));
  const figures = [
    await load(shippedWorker.url, "placeholder", half),
    await load(shippedWorker.url, "health", half),
  ];
  clearInterval(sampler);
  samples.push(shippedWorker.rssKiB());
  const first = samples[0] ?? Number.NaN;
  const middle = samples[Math.floor(samples.length / 2)] ?? Number.NaN;
  const last = samples[samples.length - 1] ?? Number.NaN;
  return {
    seconds: half * 2,
    requests: Math.round(figures.reduce((n, f) => n + f.rps * half, 0)),
    unexpected: figures.reduce((n, f) => n + f.unexpected, 0),
    rssKiB: rssGrowth(middle, last),
    wholeRun: rssGrowth(first, last),
    samplesKiB: samples,
  };
}

/** One variant's figures: its bundle, cold start, medians over the rounds, and memory. */
function variantResults(
  b: Built,
  w: ServedWorker,
  coldStarts: { readonly wall: readonly number[]; readonly cpu: readonly number[] },
  rounds: Rounds,
  rssBefore: number,
): Results["variants"][string] {
  const name = b.variant.name;
  const bytes = readFileSync(b.bundle);
  const ratioSpread: Record<string, readonly [number, number]> = {};
  const wallMicros: Partial<Record<Scenario, number>> = {};
  const cpuRatios: Record<string, number> = {};
  const cpuRatioSpread: Record<string, readonly [number, number]> = {};
  const entry: Results["variants"][string] = {
    label: b.variant.label,
    bundleRaw: bytes.length,
    bundleGzip: gzipSync(bytes, { level: 9 }).length,
    coldStartMs: median(coldStarts.wall),
    coldStartCpuMs: +median(coldStarts.cpu).toFixed(1),
    cpuMicros: {},
    wallMicros,
    cpuRatios,
    cpuRatioSpread,
    load: {},
    ratios: {},
    ratioSpread,
    rssKiB: rssGrowth(rssBefore, w.rssKiB()),
  };
  for (const s of b.variant.scenarios) {
    const figures = rounds.loads.get(`${name}/${s}`) ?? [];
    entry.load[s] = {
      rps: Math.round(median(figures.map((f) => f.rps))),
      p50: median(figures.map((f) => f.p50)),
      p99: median(figures.map((f) => f.p99)),
      unexpected: figures.reduce((n, f) => n + f.unexpected, 0),
    };
    entry.cpuMicros[s] = +median(rounds.cpu.get(`${name}/${s}`) ?? []).toFixed(1);
    wallMicros[s] = +median(rounds.wall.get(`${name}/${s}`) ?? []).toFixed(1);
  }
  for (const [all, medians, spreads] of [
    [rounds.ratios, entry.ratios, ratioSpread],
    [rounds.cpuRatios, cpuRatios, cpuRatioSpread],
  ] as const)
    for (const [key, values] of all) {
      if (!key.startsWith(`${name}/`)) continue;
      const ratio = key.slice(name.length + 1);
      medians[ratio] = +median(values).toFixed(3);
      spreads[ratio] = middleHalf(values);
    }
  return entry;
}

/** Writes the run's results to test/artifacts/bench/, and with --update-readme the reviewed copy. */
function writeResults(results: Results): void {
  const markdown = renderMarkdown(results);
  const suffix = results.build.sameBuild ? "-same-build" : "";
  writeFileSync(`${OUT}/results${suffix}.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${OUT}/results${suffix}.md`, markdown);
  writeFileSync(`${OUT}/chart${suffix}.svg`, renderChart(results));
  console.log(`\n${markdown}`);
  if (process.argv.includes("--update-readme")) {
    // The reviewed copy: the bench README's tables and the chart they link to. A --same-build
    // run fills its own, shorter section (its settings and targets).
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(`${RESULTS}/chart${suffix}.svg`, renderChart(results));
    writeFileSync(`${RESULTS}/results${suffix}.json`, `${JSON.stringify(results, null, 2)}\n`);
    if (results.build.sameBuild) updateReadme("bench-same-build", renderSummary(results));
    else updateReadme("bench", markdown);
    // As `npm run lint` (biome ci) wants them: aligned tables, compact JSON.
    execFileSync("npx", ["biome", "format", "--write", BENCH_README, RESULTS], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
}

/** The main section's figures: every variant side by side, and the shipped Worker's long run. */
async function mainSection(
  built: readonly Built[],
  cpuPin: string | undefined,
): Promise<Pick<Results, "variants" | "longRun">> {
  // The response check mode reaches the Worker as a binding, as wrangler.toml's var would.
  const vars = { RESPONSE_VALIDATION };
  const cold = await measureColdStarts(built, cpuPin, vars);
  const served = new Map<string, ServedWorker>();
  for (const b of built)
    served.set(b.variant.name, await serveWorker({ bundle: b.probed, cpus: cpuPin, vars }));
  const rssBefore = new Map<string, number>();
  try {
    console.log("warm-up…");
    for (const b of built) {
      const w = served.get(b.variant.name) as ServedWorker;
      // JIT and caches warm before anything is measured; "before" is RSS after it.
      for (const s of b.variant.scenarios) await load(w.url, s, WARM_UP_SECONDS);
      rssBefore.set(b.variant.name, w.rssKiB());
    }
    const rounds = await measureRounds(built, served);
    const longRun = await measureLongRun(served.get("shipped"));
    const variants: Results["variants"] = {};
    for (const b of built) {
      const name = b.variant.name;
      variants[name] = variantResults(
        b,
        served.get(name) as ServedWorker,
        { wall: cold.wall.get(name) ?? [], cpu: cold.cpu.get(name) ?? [] },
        rounds,
        rssBefore.get(name) ?? Number.NaN,
      );
    }
    return { variants, longRun };
  } finally {
    for (const w of served.values()) await w.stop();
  }
}

/** This process and its children on every CPU but 0 (`pin`), or on all of them again. */
async function pinSelf(pin: boolean): Promise<void> {
  const n = cpus().length;
  if (n > 1)
    await run("taskset", [
      "-a",
      "-p",
      "-c",
      pin ? `1-${n - 1}` : `0-${n - 1}`,
      String(process.pid),
    ]);
}

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(OUT, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "bench-"));
  const cpuPin = cpus().length > 1 ? "0" : undefined;
  const scaleOptions: ScaleOptions = {
    dir,
    out: OUT,
    cpus: cpuPin,
    coldStarts: COLD_STARTS,
    rounds: SCALE_ROUNDS,
    cpuLoop: CPU_LOOP,
    documents: scaleSelected(),
  };
  const mainToo = !SCALE_ONLY;
  console.log(
    mainToo
      ? `building ${selected().length} variants (wrangler deploy --dry-run --minify; ${SAME_BUILD ? "all with" : "this service's with"} keep_names = ${KEEP_NAMES})…`
      : "the scale section only (--scale-only)…",
  );
  const built = mainToo ? await buildAll(dir) : [];
  // Imports and builds use both CPUs; what is measured then runs with workerd alone on CPU 0.
  const prepared: Prepared[] = SCALE ? await prepareScale(scaleOptions) : [];
  await pinSelf(true);
  const results: Results = {
    date: new Date().toISOString(),
    machine: `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} CPUs, Node ${process.version}, workerd pinned to CPU ${cpuPin ?? "any"}`,
    settings: {
      rounds: ROUNDS,
      seconds: SECONDS,
      connections: CONNECTIONS,
      coldStarts: COLD_STARTS,
      cpuLoop: CPU_LOOP,
      scaleRounds: SCALE_ROUNDS,
    },
    responseValidation: RESPONSE_VALIDATION,
    build: { sameBuild: SAME_BUILD, serviceKeepNames: KEEP_NAMES },
    variants: {},
    ...(mainToo ? await mainSection(built, cpuPin) : {}),
  };
  const scale = prepared.length > 0 ? await measureScale(prepared, scaleOptions) : undefined;
  await pinSelf(false);
  const complete: Results = scale ? { ...results, scale } : results;
  if (scale && WITH_SUITE) {
    // The figures so far are kept first: the suites take minutes each.
    writeResults(complete);
    suiteScale(prepared, scale, OUT);
  }
  writeResults(complete);
  judge(complete);
  if (ONLY)
    console.log(
      `--only ${process.argv[process.argv.indexOf("--only") + 1]}: other sections' targets were not judged`,
    );
  console.log(`\nbench took ${Math.round((Date.now() - started) / 1000)} s; results in ${OUT}/`);
}

/** Prints the verdict table of `results` and sets the exit code: 1 when a target was missed. */
function judge(results: Results): void {
  const judged = targets(results);
  console.log(`\nTargets:\n${verdictTable(judged)}`);
  process.exitCode = exitCodeOf(judged);
}

/**
 * `--report <results.json>`: the report and verdict of a run already made, measured nothing
 * again (after a change to how a figure is judged or shown; with --update-readme, rewrites
 * the README's section from it).
 */
function reportOnly(file: string): void {
  mkdirSync(OUT, { recursive: true });
  const results = JSON.parse(readFileSync(file, "utf8")) as Results;
  writeResults(results);
  judge(results);
}

/** Where the reviewed results are published: the benchmark's own README. */
const BENCH_README = "test/tools/bench/README.md";

/** Replaces a section of the benchmark's README, between its `<!-- marker:start/end -->` lines, with this run's tables. */
function updateReadme(marker: string, markdown: string): void {
  const readme = readFileSync(BENCH_README, "utf8");
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i === -1 || j < i) throw new Error(`${BENCH_README} has no ${marker} markers`);
  writeFileSync(
    BENCH_README,
    `${readme.slice(0, i + start.length)}\n\n${markdown}\n${readme.slice(j)}`,
  );
}

const reportAt = process.argv.indexOf("--report");
if (reportAt === -1) await main();
else reportOnly(process.argv[reportAt + 1] ?? "");
