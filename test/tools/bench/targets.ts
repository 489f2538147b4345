/**
 * Every target the bench judges, from one run's results (test/tools/bench/verdict.ts holds
 * the thresholds and the verdict logic). A target whose figures the run did not measure
 * (`--only`, `--no-scale`, `--scale-only`) is left out, never counted as met.
 */
import type { Results } from "./run";
import { MODES, type ModeFigures, type ScaleFigures, type ScaleResults } from "./scale";
import {
  atLeast,
  atMost,
  everyWithin,
  LIMITS,
  startAllowanceMs,
  startMet,
  type Target,
} from "./verdict";
import type { HeapUsage } from "./workerd";

const KIB = 1024;
const MIB = 1024 * 1024;
const kib = (bytes: number) => (bytes / KIB).toFixed(1);
const x = (ratio: number | undefined) =>
  ratio === undefined || !Number.isFinite(ratio) ? "–" : `${ratio.toFixed(2)}×`;

type Entry = Results["variants"][string];

const spreadText = (spread: readonly [number, number] | undefined) =>
  spread ? `${x(spread[0])}–${x(spread[1])}` : undefined;

/** "≤ bare Hono + 19.7 ms (+ 8 ms at 43 ms, else 0.19 × bare Hono)": what a start-up limit reads as. */
function startLimit(extraMs: number, bareMs: number, bareCpuMs: number | undefined): string {
  const allowance = startAllowanceMs(extraMs, bareMs);
  const cpu =
    bareCpuMs === undefined
      ? ""
      : `, and its CPU ≤ bare Hono's + ${startAllowanceMs(extraMs, bareCpuMs).toFixed(1)} ms`;
  return `≤ bare Hono + ${allowance.toFixed(1)} ms${cpu} (+ ${extraMs} ms at 43 ms, else ${(extraMs / 43).toFixed(2)} × bare Hono)`;
}

/**
 * A cold start against bare Hono's from the same run, the allowance scaled with it. Beside
 * the wall clock, workerd's CPU time over the same spans (`cpu`: this one's and bare
 * Hono's), held to the same scaled allowance: on a loaded machine bare Hono's wall-clock
 * start grows far more than a heavier Worker's extra work does (942 ms against 43 on
 * 2026-11-24 at a load average of 13), so the scaled allowance grows with it and a
 * wall-clock figure alone would pass a start that costs 0.47× bare Hono's CPU. A start is
 * met only when both clocks are within it.
 */
function startTarget(
  text: string,
  startMs: number | undefined,
  bareMs: number,
  extraMs: number,
  cpu: readonly [number | undefined, number | undefined] = [undefined, undefined],
) {
  const [ownCpu, bareCpu] = cpu;
  const cpuMeasured = ownCpu !== undefined && bareCpu !== undefined;
  const cpuText = cpuMeasured
    ? `; CPU ${ownCpu.toFixed(1)} ms vs ${bareCpu.toFixed(1)} ms (+ ${(ownCpu - bareCpu).toFixed(1)} ms)`
    : "";
  return {
    text,
    limit: startLimit(extraMs, bareMs, cpuMeasured ? bareCpu : undefined),
    measured:
      startMs === undefined
        ? "not measured"
        : `${startMs.toFixed(1)} ms vs ${bareMs.toFixed(1)} ms (+ ${(startMs - bareMs).toFixed(1)} ms)${cpuText}`,
    met: startMet(startMs, bareMs, extraMs) && (!cpuMeasured || startMet(ownCpu, bareCpu, extraMs)),
  };
}

/** The platform's earlier targets: the shipped Worker's size, start, throughput and memory. */
function shippedTargets(r: Results, shipped: Entry, bareHono: Entry | undefined): Target[] {
  const list: Target[] = [
    {
      text: "shipped bundle, gzip",
      limit: "≤ 16 KiB",
      measured: `${kib(shipped.bundleGzip)} KiB`,
      met: shipped.bundleGzip <= 16 * KIB,
    },
  ];
  if (bareHono)
    list.push(
      startTarget("shipped: cold start", shipped.coldStartMs, bareHono.coldStartMs, 3, [
        shipped.coldStartCpuMs,
        bareHono.coldStartCpuMs,
      ]),
    );
  for (const s of ["placeholder", "health"] as const)
    for (const [baseline, label, limit] of [
      ["bare-fetch", "bare Worker", 0.75],
      ["hono-stock", "Hono + stock middleware", 1.2],
    ] as const) {
      const ratio = shipped.ratios[`${s}:${baseline}`];
      if (ratio === undefined) continue;
      list.push({
        text: `${s}: req/s vs ${label}`,
        limit: `≥ ${limit.toFixed(2)}×`,
        measured: x(ratio),
        spread: spreadText(shipped.ratioSpread?.[`${s}:${baseline}`]),
        met: atLeast(ratio, limit),
      });
    }
  list.push(memoryTarget(r.longRun));
  return list;
}

/** The memory target, judged on the second half of the shipped Worker's continuous run. */
function memoryTarget(run: Results["longRun"]): Target {
  const text = `workerd RSS growth over the second half of a ${run?.seconds ?? "–"} s continuous run (shipped)`;
  if (!run) return { text, limit: "< 10%", measured: "not measured", met: false };
  const { rssKiB, wholeRun } = run;
  return {
    text,
    limit: "< 10%",
    measured: `${rssKiB.growthPercent}% (${rssKiB.before} → ${rssKiB.after} KiB; whole run ${wholeRun.growthPercent}%, ${run.requests} requests)`,
    met: rssKiB.growthPercent < 10 && run.unexpected === 0,
  };
}

/**
 * The validated POST: CPU per request against the peers doing the same work (issue 42's
 * decision (a)): the reference row, same validation library and headers, and the ceiling
 * row, what the headers alone cost; Hono + zod by hand, which sends none of them, is context.
 */
function postTargets(r: Results, op: Entry): Target[] {
  const list: Target[] = [];
  const rows = [
    ["zod-openapi-platform", "the reference row (same headers)", LIMITS.postCpuVsReference],
    ["post-ceiling", "the ceiling row (no validation, same headers)", LIMITS.postCpuVsCeiling],
  ] as const;
  for (const [baseline, label, limit] of rows) {
    if (!r.variants[baseline]) continue;
    const ratio = op.cpuRatios?.[`post:${baseline}`];
    list.push({
      text: `validated POST: CPU per request vs ${label}`,
      limit: `≤ ${limit.toFixed(2)}×`,
      measured: `${x(ratio)} (${op.cpuMicros.post ?? "–"} µs vs ${r.variants[baseline]?.cpuMicros.post ?? "–"} µs)`,
      spread: spreadText(op.cpuRatioSpread?.[`post:${baseline}`]),
      met: atMost(ratio, limit),
    });
  }
  const ceiling = r.variants["post-ceiling"];
  list.push(
    {
      text: "validated POST: CPU per request vs Hono + zod by hand, no platform headers (context)",
      measured: x(op.cpuRatios?.["post:hono-zod"]),
      met: undefined,
    },
    {
      text: "validated POST: req/s vs @hono/zod-openapi / Hono + zod / reference (context)",
      measured: `${x(op.ratios["post:zod-openapi"])} / ${x(op.ratios["post:hono-zod"])} / ${x(op.ratios["post:zod-openapi-platform"])}`,
      met: undefined,
    },
    {
      text: "ceiling, no validation but the same headers: CPU vs Hono + zod / vs reference (context: the least CPU these headers allow)",
      measured: `${x(ceiling?.cpuRatios?.["post:hono-zod"])} / ${x(ceiling?.cpuRatios?.["post:zod-openapi-platform"])}`,
      met: undefined,
    },
  );
  return list;
}

/**
 * A cold start whose excess over bare Hono's is at most `fraction` of bare Hono's own, on the
 * wall clock and in workerd's CPU time over the same spans (both must hold).
 */
function startFractionTarget(
  text: string,
  own: readonly [number | undefined, number | undefined],
  bare: readonly [number, number | undefined],
  fraction: number,
): Target {
  const within = (mine: number | undefined, theirs: number | undefined) =>
    mine !== undefined && theirs !== undefined && mine - theirs <= fraction * theirs;
  const shown = (mine: number | undefined, theirs: number | undefined) =>
    mine === undefined || theirs === undefined
      ? "not measured"
      : `${mine.toFixed(1)} ms vs ${theirs.toFixed(1)} ms (+ ${((mine - theirs) / theirs).toFixed(2)}×)`;
  return {
    text,
    limit: `≤ bare Hono + ${fraction.toFixed(2)}× bare Hono, wall and CPU`,
    measured: `wall ${shown(own[0], bare[0])}; CPU ${shown(own[1], bare[1])}`,
    met: within(own[0], bare[0]) && within(own[1], bare[1]),
  };
}

/** The imported FIXTURE rich document: its bundle and its cold start (issue 42's decision (a)). */
function importedTargets(imported: Entry, bareHono: Entry | undefined): Target[] {
  const list: Target[] = [
    {
      text: "imported FIXTURE rich document: bundle, gzip",
      limit: `≤ ${LIMITS.importedGzipKiB} KiB`,
      measured: `${kib(imported.bundleGzip)} KiB`,
      met: atMost(imported.bundleGzip, LIMITS.importedGzipKiB * KIB),
    },
  ];
  if (bareHono)
    list.push(
      startFractionTarget(
        "imported FIXTURE rich document: cold start",
        [imported.coldStartMs, imported.coldStartCpuMs],
        [bareHono.coldStartMs, bareHono.coldStartCpuMs],
        LIMITS.importedStartVsBareHono,
      ),
    );
  return list;
}

export function targets(r: Results): Target[] {
  const v = r.variants;
  const list: Target[] = [];
  if (v.shipped) list.push(...shippedTargets(r, v.shipped, v["bare-hono"]));
  if (v["service-op"]) list.push(...postTargets(r, v["service-op"]));
  if (v.imported) list.push(...importedTargets(v.imported, v["bare-hono"]));
  if (r.scale)
    for (const figures of Object.values(r.scale.documents))
      list.push(...scaleTargets(figures, r.scale));
  return list;
}

/** The slowest of a document's first requests, with how many there were. */
function firstRequestsText(
  f: Pick<ScaleFigures, "firstRequests" | "freshFirstRequests">,
  judged: ReturnType<typeof everyWithin>,
): string {
  const all = [...(f.firstRequests ?? []), ...(f.freshFirstRequests ?? [])];
  const slowest = all.reduce<(typeof all)[number] | undefined>(
    (worst, r) => (r.cpuMs !== undefined && r.cpuMs > (worst?.cpuMs ?? -1) ? r : worst),
    undefined,
  );
  const parts = [
    `slowest ${slowest?.cpuMs ?? "–"} ms (${slowest?.label ?? "–"}) of ${all.length}`,
    `${judged.over} over ${LIMITS.firstRequestCpuMs} ms`,
  ];
  if (judged.unmeasured > 0) parts.push(`${judged.unmeasured} not measured`);
  return parts.join("; ");
}

/**
 * Issue 42: the same first requests (the sandbox's first call of a fresh Durable Object
 * among them) and heap under `UNHANDLED_OPERATIONS = examples` and `sandbox`. A mode not
 * measured is a miss: the section measures every mode of every document it imports.
 */
function modeTargets(name: string, mode: string, m: ModeFigures | undefined): Target[] {
  if (!m || m.error)
    return [
      {
        text: `${name}, ${mode}: measured`,
        measured: m?.error ?? "not measured",
        met: false,
      },
    ];
  const judged = everyWithin(
    [...(m.firstRequests ?? []), ...(m.freshFirstRequests ?? [])].map((r) => r.cpuMs),
    LIMITS.firstRequestCpuMs,
  );
  return [
    {
      text: `${name}, ${mode}: CPU of every first request (each operation, every page)`,
      limit: `≤ ${LIMITS.firstRequestCpuMs} ms each`,
      measured: firstRequestsText(m, judged),
      met: judged.met,
    },
    heapTarget(`${name}, ${mode}`, m.heap),
  ];
}

/**
 * The isolate's heap after every operation was called once, judged live (after a full
 * collection: workerd.ts), else as used with its garbage where no live figure was read.
 */
function heapTarget(name: string, heap: HeapUsage | undefined): Target {
  const mb = (bytes: number) => (bytes / MIB).toFixed(1);
  const used = heap && `${mb(heap.usedBytes)} MB used before (${mb(heap.totalBytes)} MB total)`;
  return {
    text: `${name}: isolate heap after every operation was called once`,
    limit: `≤ ${LIMITS.heapMiB} MB`,
    measured: heap
      ? heap.liveBytes === undefined
        ? `${used}`
        : `${mb(heap.liveBytes)} MB live after a full collection; ${used}`
      : "not measured",
    met: atMost(heap?.liveBytes ?? heap?.usedBytes, LIMITS.heapMiB * MIB),
  };
}

/** Issue 23's large contracts: start, every first request, heap, a simple operation's CPU. */
export function scaleTargets(f: ScaleFigures, scale: ScaleResults): Target[] {
  const name = f.label;
  const list: Target[] = [
    {
      text: `${name}: import time; one-operation import time (context)`,
      measured: `${f.importSeconds} s; ${f.oneOperationImportSeconds ?? "–"} s`,
      met: undefined,
    },
    {
      text: `${name}: the importer's peak heap ≤ 1024 MiB (issue 45)`,
      measured: `${f.importPeakHeapMiB ?? "–"} MiB`,
      met: f.importPeakHeapMiB === undefined ? undefined : f.importPeakHeapMiB <= 1024,
    },
  ];
  if (f.error) {
    list.push({ text: `${name}: imported and measured`, measured: f.error, met: false });
    return list;
  }
  const firsts = [...(f.firstRequests ?? []), ...(f.freshFirstRequests ?? [])];
  const judged = everyWithin(
    firsts.map((r) => r.cpuMs),
    LIMITS.firstRequestCpuMs,
  );
  list.push(
    startTarget(
      `${name}: cold start`,
      f.coldStartMs,
      scale.bareHonoColdStartMs,
      LIMITS.scaleStartMs,
      [f.coldStartCpuMs, scale.bareHonoColdStartCpuMs],
    ),
    {
      text: `${name}: CPU of every first request (each operation, every page)`,
      limit: `≤ ${LIMITS.firstRequestCpuMs} ms each`,
      measured: firstRequestsText(f, judged),
      met: judged.met,
    },
    heapTarget(name, f.heap),
    {
      text: `${name}: CPU per request of ${f.simple?.label ?? "the simple operation"} vs a one-operation Worker`,
      limit: `≤ ${LIMITS.simpleCpuVsOneOperation.toFixed(2)}×`,
      measured: f.simple
        ? `${x(f.simple.ratio)} (${f.simple.cpuMicros} µs vs ${f.simple.oneOperationCpuMicros} µs)`
        : "not measured",
      spread: spreadText(f.simple?.spread),
      met: atMost(f.simple?.ratio, LIMITS.simpleCpuVsOneOperation),
    },
  );
  const loads = f.referenceLoad ?? [];
  list.push({
    text: `${name}: the reference's index and largest page, each ≤ 2 MB, opened in a browser`,
    limit: `≤ ${LIMITS.referenceLoadMs} ms each`,
    measured:
      loads.length === 0
        ? "not measured (no Chromium)"
        : loads.map((l) => `${l.path} ${(l.bytes / 1e6).toFixed(2)} MB in ${l.ms} ms`).join("; "),
    met:
      loads.length > 0 &&
      loads.every((l) => l.ms <= LIMITS.referenceLoadMs && l.bytes <= LIMITS.referencePageBytes),
  });
  for (const mode of MODES) list.push(...modeTargets(name, mode, f.modes?.[mode]));
  if (f.suite)
    list.push({
      text: `${name}: npm test after the import (context)`,
      measured: `${f.suite.seconds} s, ${f.suite.ok ? "passed" : "failed"} (${f.suite.summary})`,
      met: undefined,
    });
  return list;
}
