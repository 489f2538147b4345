/** The scale section's tables (test/tools/bench/scale.ts), for the bench's markdown report. */
import {
  type FirstRequest,
  MODES,
  type ModeFigures,
  type ScaleFigures,
  type ScaleResults,
} from "./scale";
import type { HeapUsage } from "./workerd";

const MIB = 1024 * 1024;
const kib = (bytes: number | undefined) =>
  bytes === undefined ? "–" : `${(bytes / 1024).toFixed(1)} KiB`;

/** The heap as the table shows it: live after a full collection (used before it). */
const heapText = (heap: HeapUsage | undefined) =>
  heap === undefined
    ? "–"
    : heap.liveBytes === undefined
      ? (heap.usedBytes / MIB).toFixed(1)
      : `${(heap.liveBytes / MIB).toFixed(1)} (${(heap.usedBytes / MIB).toFixed(1)})`;

/** How many first requests to list per document, slowest first. */
const SLOWEST = 5;

function row(f: ScaleFigures, bareMs: number): string {
  const firsts = [...(f.firstRequests ?? []), ...(f.freshFirstRequests ?? [])];
  const cpus = firsts.map((r) => r.cpuMs).filter((c): c is number => c !== undefined);
  const start =
    f.coldStartMs === undefined
      ? "–"
      : `${f.coldStartMs.toFixed(1)} (+ ${(f.coldStartMs - bareMs).toFixed(1)}); CPU ${f.coldStartCpuMs ?? "–"}`;
  const heap = heapText(f.heap);
  const simple = f.simple
    ? `${f.simple.cpuMicros} vs ${f.simple.oneOperationCpuMicros} (${f.simple.ratio.toFixed(2)}×)`
    : "–";
  const suite = f.suite ? `${f.suite.seconds} s, ${f.suite.ok ? "passed" : "failed"}` : "not run";
  return `| ${f.label} | ${f.operations} | ${f.importSeconds} s, ${f.importPeakHeapMiB ?? "–"} MiB | ${kib(f.bundleRaw)} | ${kib(f.bundleGzip)} | ${start} | ${cpus.length > 0 ? Math.max(...cpus).toFixed(1) : "–"} | ${f.isolateFloorMs ?? "–"}; ${f.requestFloorMs ?? "–"} | ${heap} | ${simple} | ${suite} |`;
}

const firstRow = (name: string, r: FirstRequest) =>
  `| ${name} | ${r.label} | ${r.status ?? "–"} | ${r.cpuMs ?? "–"} | ${r.note ?? ""} |`;

/** One row per document and setting: the slowest first request and the heap. */
function modeRows(f: ScaleFigures): string[] {
  const settings: [string, ModeFigures | undefined][] = [
    ["501", f],
    ...MODES.map((mode): [string, ModeFigures | undefined] => [mode, f.modes?.[mode]]),
  ];
  return settings.map(([setting, m]) => {
    if (!m || m.error) return `| ${f.label} | ${setting} | ${m?.error ?? "not measured"} | – | – |`;
    const firsts = [...(m.firstRequests ?? []), ...(m.freshFirstRequests ?? [])];
    const slowest = firsts
      .filter((r) => r.cpuMs !== undefined)
      .sort((a, b) => (b.cpuMs ?? 0) - (a.cpuMs ?? 0))[0];
    const heap = heapText(m.heap);
    return `| ${f.label} | ${setting} | ${slowest ? `${slowest.cpuMs} (${slowest.label})` : "–"} | ${firsts.length} | ${heap} |`;
  });
}

export function scaleTables(scale: ScaleResults): string[] {
  const docs = Object.values(scale.documents);
  const slowest = docs.flatMap((f) =>
    [
      ...(f.firstRequests ?? []),
      ...(f.freshFirstRequests ?? []).map((r) => ({ ...r, label: `${r.label} (fresh isolate)` })),
    ]
      .filter((r) => r.cpuMs !== undefined)
      .sort((a, b) => (b.cpuMs ?? 0) - (a.cpuMs ?? 0))
      .slice(0, SLOWEST)
      .map((r) => firstRow(f.label, r)),
  );
  const errors = docs.filter((f) => f.error).map((f) => `- ${f.label}: ${f.error}`);
  return [
    `At scale (bare Hono's cold start in the same alternating series: ${scale.bareHonoColdStartMs.toFixed(1)} ms, of which workerd's CPU time ${scale.bareHonoColdStartCpuMs ?? "–"} ms):`,
    "",
    `| document | operations | import (time, importer's peak heap) | bundle (min) | gzip | cold start ms (+ bare Hono) | slowest first request, CPU ms | floor ms (isolate's first; warm) | heap MB, live (used before) | simple operation CPU µs vs one-operation Worker (${scale.rounds ?? "–"} rounds) | npm test |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...docs.map((f) => row(f, scale.bareHonoColdStartMs)),
    "",
    ...(errors.length > 0 ? [...errors, ""] : []),
    "First requests, the slowest of each document (CPU ms: workerd's CPU time for the request less the floor of its place: for an isolate's first request, a bare `fetch` Worker's first request under the same configuration; for any later one, a warm lone `/_service/health` request's):",
    "",
    "| document | request | status | CPU ms | note |",
    "| --- | --- | ---: | ---: | --- |",
    ...slowest,
    "",
    "In each setting of `UNHANDLED_OPERATIONS` (the sandbox's first call is a fresh Durable Object's):",
    "",
    "| document | setting | slowest first request, CPU ms | first requests | heap MB, live (used before) |",
    "| --- | --- | ---: | ---: | ---: |",
    ...docs.flatMap(modeRows),
    "",
  ];
}
