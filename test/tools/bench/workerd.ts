/**
 * One Worker on `workerd serve`, for the figures a request from outside cannot give: the
 * CPU time the process spends on one request, and the isolate's heap.
 *
 * - **Ready without a request.** workerd reports on `--control-fd` when its socket listens,
 *   after the Worker's module was evaluated, so the first request the bench sends is the
 *   isolate's first request (test/tools/serve.ts's readiness poll sends one of its own).
 * - **CPU time.** `/proc/<pid>/task/<tid>/schedstat` holds each thread's time on a CPU in
 *   nanoseconds (the scheduler's own accounting, not a sampled tick). Summed over workerd's
 *   threads before a request and after its answer, it is the CPU the process spent on that
 *   request: the JavaScript, V8's compilation and garbage collection on any thread, and
 *   workerd's own HTTP parsing of the request (a few tens of µs; `overheadNs` measures it),
 *   but not time another process took on the same core, which a wall clock would count.
 * - **Heap.** With `inspector: true` workerd serves the V8 inspector protocol, and
 *   `Runtime.getHeapUsage` answers the isolate's used and total heap. It is asked from a
 *   child Node (`--experimental-websocket`, Node 20 has no WebSocket otherwise).
 *   `HeapProfiler.collectGarbage` gets no answer from workerd (nor collects), so the used
 *   size includes garbage not yet collected: an upper bound of the live heap. A heap
 *   snapshot makes a full collection first, so the used size read after one is the live
 *   heap (measured on large-1201 under the sandbox: 55 to 70 MB used as it is, 21 MB live).
 */
import { execFile, spawn } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { experimental_readRawConfig } from "wrangler";
import { assetsOf, freePort } from "../serve";
import type { ProbeRequest } from "./cpu-probe";

export interface StartOptions {
  readonly bundle: string;
  /** The wrangler.toml whose compatibility settings and vars apply (the imported copy's). */
  readonly wranglerToml: string;
  /** Text bindings over wrangler.toml's vars: the run's secrets and settings. */
  readonly vars?: Readonly<Record<string, string>>;
  /** CPUs to pin workerd to (taskset's form, e.g. "0"). */
  readonly cpus?: string;
  readonly inspector?: boolean;
}

export interface HeapUsage {
  /** Used as it is: live objects and garbage not yet collected (an upper bound). */
  readonly usedBytes: number;
  readonly totalBytes: number;
  /** Used after a full collection: the live heap, what the isolate's memory must hold. */
  readonly liveBytes?: number;
}

export interface Workerd {
  readonly url: string;
  readonly pid: number;
  /** Spawn to listening: start-up, the module's evaluation included, no request. */
  readonly readyMs: number;
  /** The process's CPU time so far, every thread, in nanoseconds. */
  cpuNs(): number;
  heap(): Promise<HeapUsage>;
  stop(): Promise<void>;
}

const capnp = (value: string) => JSON.stringify(value);

/**
 * wrangler.toml's Durable Objects (the sandbox's store, SQLite-backed as its migration
 * declares), each with storage on disk under `dir`: fresh per spawn, as a new object is.
 */
function durableObjectsOf(
  raw: { durable_objects?: { bindings?: { name?: string; class_name?: string }[] } },
  dir: string,
): { bindings: string[]; services: string; worker: string } {
  const declared = (raw.durable_objects?.bindings ?? []).filter((b) => b.name && b.class_name);
  if (declared.length === 0) return { bindings: [], services: "", worker: "" };
  const classes = [...new Set(declared.map((b) => b.class_name as string))];
  return {
    bindings: declared.map(
      (b) =>
        `(name = ${capnp(b.name ?? "")}, durableObjectNamespace = ${capnp(b.class_name ?? "")})`,
    ),
    services: `, (name = "do-storage", disk = (path = ${capnp(dir)}, writable = true))`,
    worker: `
  durableObjectNamespaces = [${classes.map((c) => `(className = ${capnp(c)}, uniqueKey = ${capnp(`bench-${c}`)}, enableSql = true)`).join(", ")}],
  durableObjectStorage = (localDisk = "do-storage"),`,
  };
}

function config(options: StartOptions, dir: string): string {
  const raw = experimental_readRawConfig({ config: options.wranglerToml }).rawConfig as {
    compatibility_date?: string;
    compatibility_flags?: string[];
    vars?: Record<string, string>;
    durable_objects?: { bindings?: { name?: string; class_name?: string }[] };
  };
  const assets = assetsOf(options.wranglerToml);
  const objects = durableObjectsOf(raw, dir);
  const bindings = Object.entries({ ...raw.vars, ...options.vars }).map(
    ([name, value]) => `(name = ${capnp(name)}, text = ${capnp(String(value))})`,
  );
  bindings.push(...assets.bindings, ...objects.bindings);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)${assets.services}${objects.services}],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "index.js")],
  compatibilityDate = ${capnp(raw.compatibility_date ?? "2026-05-01")},
  compatibilityFlags = [${(raw.compatibility_flags ?? []).map(capnp).join(", ")}],
  bindings = [${bindings.join(", ")}],${objects.worker}
);
`;
}

/** The sum of every thread's time on a CPU (schedstat's first field), in nanoseconds. */
export function processCpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read: its time is no longer counted
      // anywhere, which a request's figure cannot tell from zero.
    }
  }
  return total;
}

/**
 * Asks the inspector for the heap's usage, from a child Node that has a WebSocket: as it
 * is, then after the full collection a heap snapshot makes (its chunks are dropped unread).
 */
async function heapOf(port: number): Promise<HeapUsage> {
  const script = `const ws = new WebSocket("ws://127.0.0.1:${port}/main");
const ask = (id, method) => ws.send(JSON.stringify({ id, method, params: {} }));
const seen = {};
ws.onopen = () => ask(1, "Runtime.getHeapUsage");
ws.onmessage = (m) => {
  const d = JSON.parse(m.data);
  if (d.id === 1) { seen.before = d.result; ask(2, "HeapProfiler.takeHeapSnapshot"); }
  if (d.id === 2) ask(3, "Runtime.getHeapUsage");
  if (d.id === 3) { seen.after = d.result; console.log(JSON.stringify(seen)); ws.close(); process.exit(0); }
};
setTimeout(() => process.exit(3), 120000);`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--experimental-websocket", "--no-warnings", "-e", script],
    { maxBuffer: 1024 * 1024 },
  );
  type Usage = { usedSize: number; totalSize: number };
  const { before, after } = JSON.parse(stdout) as { before: Usage; after: Usage };
  return {
    usedBytes: before.usedSize,
    totalBytes: before.totalSize,
    liveBytes: after.usedSize,
  };
}

export async function startWorkerd(options: StartOptions): Promise<Workerd> {
  const dir = mkdtempSync(join(tmpdir(), "bench-workerd-"));
  copyFileSync(options.bundle, join(dir, "index.js"));
  const storage = join(dir, "durable-objects");
  mkdirSync(storage);
  writeFileSync(join(dir, "config.capnp"), config(options, storage));
  const binary = createRequire(import.meta.url).resolve("workerd/bin/workerd");
  const inspectorPort = options.inspector ? await freePort() : undefined;
  const args = [
    "serve",
    join(dir, "config.capnp"),
    "--control-fd=3",
    ...(inspectorPort ? [`--inspector-addr=127.0.0.1:${inspectorPort}`] : []),
  ];
  const [command, argv] = options.cpus
    ? ["taskset", ["-c", options.cpus, binary, ...args]]
    : [binary, args];
  const spawned = performance.now();
  const child = spawn(command, argv, { stdio: ["ignore", "inherit", "inherit", "pipe"] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((done) => child.once("exit", done));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const port = await new Promise<number>((done, fail) => {
    let text = "";
    const timer = setTimeout(() => fail(new Error("workerd did not listen within 60 s")), 60_000);
    child.once("exit", (code) => fail(new Error(`workerd exited with ${code} before listening`)));
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const listen = /"event":"listen"[^}]*"port":(\d+)/.exec(text);
      if (listen) {
        clearTimeout(timer);
        done(Number(listen[1]));
      }
    });
  }).catch(async (error: Error) => {
    await stop();
    throw error;
  });
  const readyMs = performance.now() - spawned;
  const pid = child.pid ?? -1;
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    readyMs,
    cpuNs: () => processCpuNs(pid),
    heap: () => {
      if (!inspectorPort) throw new Error("started without the inspector");
      return heapOf(inspectorPort);
    },
    stop,
  };
}

/** How long the process stays idle after an answer before its CPU time is read again. */
const SETTLE_MS = 20;

/** A request sent from outside, and the CPU time workerd spent on it. */
export async function cpuOfRequest(
  w: Workerd,
  request: () => Promise<Response>,
): Promise<{ status: number; cpuNs: number }> {
  const before = w.cpuNs();
  const response = await request();
  await response.arrayBuffer();
  // What the isolate does right after answering (a microtask, a log line) is the request's.
  await new Promise((done) => setTimeout(done, SETTLE_MS));
  return { status: response.status, cpuNs: w.cpuNs() - before };
}

/** What one call of the CPU probe (test/tools/bench/cpu-probe.ts) measured. */
export interface ProbeFigures {
  readonly status: number;
  /** workerd's CPU time over the call, per request of the loop (what targets are judged on). */
  readonly cpuMicros: number;
  /** The probe's own figure: the loop's wall time between two timer turns, per request. */
  readonly wallMicros: number;
}

/**
 * Runs the probe's in-process loop of `n` requests in the Worker at `url` (process `pid`),
 * after an unmeasured call of `warm` requests. `request` is a probe kind (`post`) or a
 * described request (an operation of an imported contract).
 */
export async function probeCpu(
  url: string,
  pid: number,
  request: string | ProbeRequest,
  n: number,
  warm = 200,
): Promise<ProbeFigures> {
  const call = async (count: number) => {
    const query = `n=${count}&warm=0${typeof request === "string" ? `&kind=${request}` : ""}`;
    const res = await fetch(
      `${url}/__bench/cpu?${query}`,
      typeof request === "string" ? {} : { method: "POST", body: JSON.stringify(request) },
    );
    return (await res.json()) as { status: number; microsPerRequest: number };
  };
  if (warm > 0) await call(warm);
  const before = processCpuNs(pid);
  const measured = await call(n);
  const cpuNs = processCpuNs(pid) - before;
  return {
    status: measured.status,
    cpuMicros: +(cpuNs / 1000 / n).toFixed(2),
    wallMicros: +measured.microsPerRequest.toFixed(2),
  };
}
