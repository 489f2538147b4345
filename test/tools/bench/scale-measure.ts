/**
 * The scale section's measurements inside workerd (test/tools/bench/scale.ts): the CPU of
 * each first request, the heap after every operation, and a simple operation's CPU per
 * request against a one-operation Worker's. How each is read, and its limits, is in
 * test/tools/bench/workerd.ts and the bench README ("At scale").
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Presented, validRequest } from "../conformance/valid-request";
import type { ProbeRequest } from "./cpu-probe";
import type { FirstRequest, ModeFigures, Prepared, ScaleFigures, ScaleOptions } from "./scale";
import type { ScaleSetup } from "./scale-setup-types";
import { median, middleHalf } from "./stats";
import { cpuOfRequest, type HeapUsage, probeCpu, startWorkerd, type Workerd } from "./workerd";

type Json = Record<string, unknown>;

/** The contract's operations; OPTIONS is the platform's own preflight answer on every path. */
const METHODS = ["get", "put", "post", "delete", "patch", "head", "trace"];

/** A request to send, or why none could be written. */
interface Planned {
  readonly label: string;
  readonly method: string;
  readonly request?: { path: string; headers: Record<string, string>; body?: BodyInit };
  readonly note?: string;
}

/** A valid request of every operation of the served document, in the document's order. */
export function operationRequests(setup: ScaleSetup): Planned[] {
  const document = setup.document as Json & { paths?: Record<string, Json> };
  const credentials = setup.credentials as Record<string, Presented>;
  const planned: Planned[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (path.startsWith("/_service")) continue;
    for (const method of Object.keys(item).filter((k) => METHODS.includes(k))) {
      const METHOD = method.toUpperCase();
      const label = `${METHOD} ${path}`;
      const built = validRequest(document, path, METHOD, credentials);
      planned.push(
        built.ok
          ? { label, method: METHOD, request: built.request }
          : { label, method: METHOD, note: `no valid request: ${built.reason}` },
      );
    }
  }
  return planned;
}

/** The pages every isolate may be asked first: a fresh isolate's first request of each is measured. */
const PAGES = ["/_service/openapi.json", "/_service/interface", "/_service/reference"];

/** The pages a large reference continues on, as the copy's build wrote them (its assets). */
function referencePages(copy: string): string[] {
  const dir = join(copy, "src/generated/assets/reference");
  const count = existsSync(dir)
    ? readdirSync(dir).filter((f) => /^current-page-\d+\.html$/.test(f)).length
    : 0;
  return Array.from({ length: count }, (_, i) => `/_service/reference/${i + 1}`);
}

const send = (w: Workerd, p: Planned) =>
  fetch(`${w.url}${p.request?.path ?? "/"}`, {
    method: p.method,
    headers: p.request?.headers ?? {},
    ...(p.request?.body === undefined ? {} : { body: p.request.body }),
  });

const pagePlanned = (path: string): Planned => ({
  label: `GET ${path}`,
  method: "GET",
  request: { path, headers: {} },
});

/** What an answer's status says about how far the request went. */
function noteOf(status: number): string | undefined {
  if (status === 501 || (status >= 200 && status < 300)) return undefined;
  return `answered ${status}: refused before its handler`;
}

const FLOOR_REQUESTS = 9;

/** The median CPU of a lone warm `/_service/health` request: what any request costs workerd. */
async function floorNs(w: Workerd): Promise<number> {
  const xs: number[] = [];
  const health = pagePlanned("/_service/health");
  await (await send(w, health)).arrayBuffer();
  for (let i = 0; i < FLOOR_REQUESTS; i++)
    xs.push((await cpuOfRequest(w, () => send(w, health))).cpuNs);
  return median(xs);
}

/** Each request once in order, its CPU time less `floor` (when given; measured after). */
async function firstsIn(w: Workerd, list: readonly Planned[]) {
  const raw: { p: Planned; status?: number; cpuNs?: number }[] = [];
  for (const p of list) {
    if (!p.request) raw.push({ p });
    else {
      const m = await cpuOfRequest(w, () => send(w, p));
      raw.push({ p, status: m.status, cpuNs: m.cpuNs });
    }
  }
  return raw;
}

const toFirst = (
  r: { p: Planned; status?: number; cpuNs?: number },
  floor: number,
): FirstRequest => {
  const note = r.p.note ?? (r.status === undefined ? undefined : noteOf(r.status));
  return {
    label: r.p.label,
    ...(r.status === undefined ? {} : { status: r.status }),
    ...(r.cpuNs === undefined ? {} : { cpuMs: +(Math.max(0, r.cpuNs - floor) / 1e6).toFixed(2) }),
    ...(note ? { note } : {}),
  };
};

const BARE_SPAWNS = 5;

/**
 * Spawns an isolate's very first request is measured over, its median judged: one such
 * request moves by several ms from spawn to spawn on this machine, as the bare Worker's
 * floor it is measured against does (median of `BARE_SPAWNS`).
 */
const FIRST_SPAWNS = 5;

/** `p` as a fresh isolate's very first request, once per spawn, the median of `spawns`. */
async function freshFirstOf(
  options: Parameters<typeof startWorkerd>[0],
  p: Planned,
  spawns: number,
  measured: readonly { p: Planned; status?: number; cpuNs?: number }[] = [],
) {
  const runs = [...measured];
  while (runs.length < spawns) {
    const w = await startWorkerd(options);
    try {
      runs.push(...(await firstsIn(w, [p])));
    } finally {
      await w.stop();
    }
  }
  const cpu = runs.flatMap((r) => (r.cpuNs === undefined ? [] : [r.cpuNs]));
  return { ...runs[0], p, ...(cpu.length > 0 ? { cpuNs: median(cpu) } : {}) };
}

/**
 * What workerd spends on a fresh isolate's first request whatever the Worker does: a bare
 * `fetch` Worker (test/tools/bench/variants/bare-fetch.ts) under the same configuration
 * (the copy's wrangler.toml, its assets and bindings), its first request's CPU, median of
 * a few spawns. About 4 ms on this machine against a warm request's 1: the isolate's first
 * request context, which every Worker's first request pays.
 */
async function isolateFloorNs(options: Parameters<typeof startWorkerd>[0]): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < BARE_SPAWNS; i++) {
    const w = await startWorkerd(options);
    try {
      xs.push((await cpuOfRequest(w, () => send(w, pagePlanned("/")))).cpuNs);
    } finally {
      await w.stop();
    }
  }
  return median(xs);
}

/**
 * The first call of every operation in one fresh isolate, in the document's order, then
 * the two pages; then each page alone as a fresh isolate's first request. Each is less the
 * floor of its place: an isolate's first request less a bare Worker's first request under
 * the same configuration (`bareFetch`), any later one less a warm lone health request.
 * An isolate's very first request (the first operation's, each page's alone) is the
 * median over `FIRST_SPAWNS` spawns, as its floor is a median over spawns.
 */
export async function measureFirstRequests(
  bundle: string,
  bareFetch: string,
  copy: string,
  setup: ScaleSetup,
  cpus: string | undefined,
): Promise<
  Pick<ScaleFigures, "firstRequests" | "freshFirstRequests" | "requestFloorMs" | "isolateFloorMs">
> {
  const options = { bundle, wranglerToml: join(copy, "wrangler.toml"), vars: setup.vars, cpus };
  const isolateFloor = await isolateFloorNs({ ...options, bundle: bareFetch });
  const planned = [
    ...operationRequests(setup),
    ...[...PAGES, ...referencePages(copy)].map(pagePlanned),
  ];
  console.log(`scale:   first requests: ${planned.length}, in one fresh isolate…`);
  const w = await startWorkerd(options);
  let raw: Awaited<ReturnType<typeof firstsIn>>;
  let floor: number;
  try {
    raw = await firstsIn(w, planned);
    floor = await floorNs(w);
  } finally {
    await w.stop();
  }
  // The isolate's first request is the first one sent (an operation with no valid request
  // sends none), measured again in fresh isolates for its median.
  const first = raw.findIndex((r) => r.cpuNs !== undefined);
  const at = raw[first];
  if (at) raw[first] = await freshFirstOf(options, at.p, FIRST_SPAWNS, [at]);
  const fresh: Awaited<ReturnType<typeof firstsIn>> = [];
  for (const page of PAGES)
    fresh.push(await freshFirstOf(options, pagePlanned(page), FIRST_SPAWNS));
  return {
    firstRequests: raw.map((r, i) => toFirst(r, i === first ? isolateFloor : floor)),
    freshFirstRequests: fresh.map((r) => toFirst(r, isolateFloor)),
    requestFloorMs: +(floor / 1e6).toFixed(2),
    isolateFloorMs: +(isolateFloor / 1e6).toFixed(2),
  };
}

/**
 * The same first requests and heap with `UNHANDLED_OPERATIONS` set to `mode` (`examples`,
 * `sandbox`): operations answered from their examples' chapters, or from the sandbox's
 * Durable Object, fresh per spawn, so the first call a sandbox places is a new object's.
 */
export async function measureMode(
  mode: "examples" | "sandbox",
  bundle: string,
  bareFetch: string,
  copy: string,
  setup: ScaleSetup,
  cpus: string | undefined,
): Promise<ModeFigures> {
  const set = { ...setup, vars: { ...setup.vars, UNHANDLED_OPERATIONS: mode } };
  const firsts = await measureFirstRequests(bundle, bareFetch, copy, set, cpus);
  return { ...firsts, heap: await measureHeap(bundle, copy, set, cpus) };
}

/** The isolate's heap after every operation and every page was called once. */
export async function measureHeap(
  bundle: string,
  copy: string,
  setup: ScaleSetup,
  cpus: string | undefined,
): Promise<HeapUsage> {
  const w = await startWorkerd({
    bundle,
    wranglerToml: join(copy, "wrangler.toml"),
    vars: setup.vars,
    cpus,
    inspector: true,
  });
  try {
    for (const p of [
      ...operationRequests(setup),
      ...[...PAGES, ...referencePages(copy)].map(pagePlanned),
    ])
      if (p.request) await (await send(w, p)).arrayBuffer();
    return await w.heap();
  } finally {
    await w.stop();
  }
}

/**
 * The reference as a reader opens it: its index and its largest page in headless Chromium
 * (Debian's, as `npm run test:browser` uses), each from navigation to its `load` event,
 * with the page's bytes. Undefined when no Chromium is installed (said in the report).
 */
export async function measureReferenceLoad(
  bundle: string,
  copy: string,
  setup: ScaleSetup,
  cpus: string | undefined,
): Promise<ScaleFigures["referenceLoad"]> {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(executablePath)) return undefined;
  const { chromium } = await import("playwright-core");
  const pages = referencePages(copy);
  const sizeOf = (path: string) =>
    statSync(join(copy, "src/generated/assets/reference", path)).size;
  const largest = pages
    .map((path) => ({ path, bytes: sizeOf(`current-page-${path.split("/").at(-1)}.html`) }))
    .sort((a, b) => b.bytes - a.bytes)[0];
  const asked = [
    { path: "/_service/reference", bytes: sizeOf("current.html") },
    ...(largest ? [largest] : []),
  ];
  const w = await startWorkerd({
    bundle,
    wranglerToml: join(copy, "wrangler.toml"),
    vars: setup.vars,
    cpus,
  });
  const browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
  });
  try {
    const loads: { path: string; bytes: number; ms: number }[] = [];
    for (const { path, bytes } of asked) {
      const page = await browser.newPage();
      const started = performance.now();
      await page.goto(`${w.url}${path}`, { waitUntil: "load" });
      loads.push({ path, bytes, ms: +(performance.now() - started).toFixed(0) });
      await page.close();
    }
    return loads;
  } finally {
    await browser.close();
    await w.stop();
  }
}

/** The simple operation as the CPU probe takes it (its body must be text). */
function probeRequestOf(setup: ScaleSetup, simple: { method: string; path: string }): ProbeRequest {
  const METHOD = simple.method.toUpperCase();
  // The document's path as served: under the base path its server URL gives, if any.
  const paths = Object.keys((setup.document.paths ?? {}) as Record<string, unknown>);
  const served = paths.includes(simple.path)
    ? simple.path
    : (paths.find((p) => p.endsWith(simple.path) && !p.startsWith("/_service/")) ?? simple.path);
  const built = validRequest(
    setup.document,
    served,
    METHOD,
    setup.credentials as Record<string, Presented>,
  );
  if (!built.ok) throw new Error(`no valid request of ${METHOD} ${simple.path}: ${built.reason}`);
  const { body } = built.request;
  if (body !== undefined && typeof body !== "string")
    throw new Error(`${METHOD} ${simple.path}: the probe sends text bodies only`);
  return {
    method: METHOD,
    path: built.request.path,
    headers: built.request.headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** The simple operation's CPU per request, large contract over one-operation Worker, by rounds. */
export async function measureSimpleCpu(
  p: Prepared,
  options: ScaleOptions,
): Promise<ScaleFigures["simple"]> {
  if (!p.copy || !p.oneCopy || !p.setup || !p.oneSetup || !p.bundles || !p.oneProbed)
    return undefined;
  const sides = [
    { copy: p.copy, setup: p.setup, bundle: p.bundles.probed },
    { copy: p.oneCopy, setup: p.oneSetup, bundle: p.oneProbed },
  ];
  const served = await Promise.all(
    sides.map((s) =>
      startWorkerd({
        bundle: s.bundle,
        wranglerToml: join(s.copy, "wrangler.toml"),
        vars: s.setup.vars,
        cpus: options.cpus,
      }),
    ),
  );
  const label = `${p.simple.method.toUpperCase()} ${p.simple.path}`;
  console.log(`scale:   CPU per request of ${label}, ${options.rounds} rounds…`);
  try {
    const requests = sides.map((s) => probeRequestOf(s.setup, p.simple));
    const cpu: [number[], number[]] = [[], []];
    let status = 0;
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 ? [1, 0] : [0, 1];
      for (const i of order) {
        const w = served[i] as Workerd;
        const f = await probeCpu(w.url, w.pid, requests[i] as ProbeRequest, options.cpuLoop);
        cpu[i]?.push(f.cpuMicros);
        if (i === 0) status = f.status;
      }
    }
    const ratios = cpu[0].map((big, k) => big / (cpu[1][k] ?? Number.NaN));
    return {
      label,
      status,
      cpuMicros: +median(cpu[0]).toFixed(1),
      oneOperationCpuMicros: +median(cpu[1]).toFixed(1),
      ratio: +median(ratios).toFixed(3),
      spread: middleHalf(ratios),
    };
  } finally {
    await Promise.all(served.map((w) => w.stop()));
  }
}
