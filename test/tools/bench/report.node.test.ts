/**
 * The benchmark's verdicts: each target is judged at its exact threshold from the figures
 * of one run, start-up limits scale with bare Hono's own start, a missed target makes the
 * bench exit 1, and the report says how the variants were built. Synthetic BENCH FIXTURE
 * results, not measurements.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown, renderSummary, targets } from "./report";
import type { Results } from "./run";
import type { ModeFigures, ScaleFigures, ScaleResults } from "./scale";
import {
  atLeast,
  atMost,
  everyWithin,
  exitCodeOf,
  LIMITS,
  startAllowanceMs,
  startMet,
  verdictTable,
} from "./verdict";

type Entry = Results["variants"][string];
const MIB = 1024 * 1024;

function entry(label: string, overrides: Partial<Entry> = {}): Entry {
  return {
    label,
    bundleRaw: 40_000,
    bundleGzip: 15_000,
    coldStartMs: 30,
    cpuMicros: {},
    load: {},
    ratios: {},
    rssKiB: { before: 100_000, after: 100_000, growthPercent: 0 },
    ...overrides,
  };
}

/** The shipped Worker's continuous run, its RSS growing by `growthPercent` over the second half. */
function longRun(growthPercent: number, unexpected = 0): Results["longRun"] {
  return {
    seconds: 40,
    requests: 400_000,
    unexpected,
    rssKiB: { before: 100_000, after: 100_000 + growthPercent * 1000, growthPercent },
    wholeRun: { before: 80_000, after: 100_000 + growthPercent * 1000, growthPercent: 40 },
    samplesKiB: [80_000, 100_000, 100_000 + growthPercent * 1000],
  };
}

/** A run in which every target sits exactly on its threshold (bare Hono at 43 ms). */
function fixtureRun(overrides: Partial<Record<string, Partial<Entry>>> = {}): Results {
  return {
    date: "2026-11-21T00:00:00.000Z",
    machine: "BENCH FIXTURE machine",
    settings: { rounds: 8, seconds: 2, connections: 32, coldStarts: 15, cpuLoop: 5000 },
    responseValidation: "log",
    build: { sameBuild: false, serviceKeepNames: false },
    longRun: longRun(9.9),
    variants: {
      "bare-hono": entry("bare Hono", {
        coldStartMs: 43,
        coldStartCpuMs: 40,
        ...overrides["bare-hono"],
      }),
      shipped: entry("this service, as shipped", {
        bundleGzip: 16 * 1024,
        coldStartMs: 46,
        ratios: {
          "placeholder:bare-fetch": 0.75,
          "placeholder:hono-stock": 1.2,
          "health:bare-fetch": 0.75,
          "health:hono-stock": 1.2,
        },
        ...overrides.shipped,
      }),
      "hono-zod": entry("Hono + zod", { cpuMicros: { post: 50 } }),
      "zod-openapi-platform": entry("reference", { cpuMicros: { post: 80 } }),
      "service-op": entry("this service, fixture operation", {
        cpuMicros: { post: 50 },
        cpuRatios: {
          "post:hono-zod": 1.3,
          "post:zod-openapi-platform": 1,
          "post:post-ceiling": 1.15,
        },
        ratios: { "post:zod-openapi": 1, "post:hono-zod": 0.8, "post:zod-openapi-platform": 1.1 },
        ...overrides["service-op"],
      }),
      imported: entry("this service, imported FIXTURE document", {
        bundleGzip: 52 * 1024,
        // Bare Hono + 0.25 × bare Hono (43 ms): exactly on the limit.
        coldStartMs: 53.75,
        coldStartCpuMs: 50,
        ...overrides.imported,
      }),
      "post-ceiling": entry("ceiling", {
        cpuRatios: { "post:hono-zod": 0.97, "post:zod-openapi-platform": 0.6 },
      }),
    },
  };
}

/** One setting's first requests and heap, exactly on their thresholds. */
const onThreshold: ModeFigures = {
  firstRequests: [{ label: "GET /fixture/{id}", status: 200, cpuMs: 10 }],
  freshFirstRequests: [{ label: "GET /_service/reference", status: 200, cpuMs: 9.99 }],
  heap: { usedBytes: 64 * MIB, totalBytes: 80 * MIB },
};

/** A large document's figures, every one exactly on its threshold (bare Hono at 43 ms). */
function scaleFigures(overrides: Partial<ScaleFigures> = {}): ScaleFigures {
  return {
    modes: { examples: onThreshold, sandbox: onThreshold },
    referenceLoad: [
      { path: "/_service/reference", bytes: 300_000, ms: 2000 },
      { path: "/_service/reference/3", bytes: 2_000_000, ms: 1500 },
    ],
    label: "FIXTURE large",
    operations: 300,
    importSeconds: 60,
    importPeakHeapMiB: 80,
    oneOperationImportSeconds: 40,
    bundleRaw: 1_000_000,
    bundleGzip: 200_000,
    coldStartMs: 83,
    firstRequests: [
      { label: "POST /fixture", status: 501, cpuMs: 10 },
      { label: "GET /_service/openapi.json", status: 200, cpuMs: 3 },
    ],
    freshFirstRequests: [{ label: "GET /_service/interface", status: 200, cpuMs: 9.99 }],
    requestFloorMs: 1,
    heap: { usedBytes: 64 * MIB, totalBytes: 80 * MIB },
    simple: {
      label: "POST /fixture-simple-items",
      status: 501,
      cpuMicros: 57.5,
      oneOperationCpuMicros: 50,
      ratio: 1.15,
      spread: [1.1, 1.2],
    },
    ...overrides,
  };
}

const scaleRun = (...figures: ScaleFigures[]): Results => ({
  ...fixtureRun(),
  variants: {},
  longRun: undefined,
  scale: {
    bareHonoColdStartMs: 43,
    documents: Object.fromEntries(figures.map((f, i) => [`doc${i}`, f])),
  } satisfies ScaleResults,
});

const judgedOf = (r: Results) => targets(r).filter((t) => t.met !== undefined);
const verdicts = (r: Results) =>
  Object.fromEntries(targets(r).map((t) => [t.text, t.met] as const));

describe("start-up limits scale with bare Hono's own start", () => {
  it("are + N ms where bare Hono starts in 43 ms or less, N/43 of it where slower", () => {
    expect(startAllowanceMs(8, 43)).toBe(8);
    expect(startAllowanceMs(8, 30)).toBe(8);
    expect(startAllowanceMs(40, 43)).toBe(40);
    // The fractions: + 8 ms is 0.19 of bare Hono's start, + 40 ms 0.93.
    expect(startAllowanceMs(8, 100) / 100).toBeCloseTo(0.186, 3);
    expect(startAllowanceMs(40, 100) / 100).toBeCloseTo(0.93, 2);
  });

  it("judge a start on the scaled allowance, and an unmeasured start as missed", () => {
    expect(startMet(43 + 8, 43, 8)).toBe(true);
    expect(startMet(43 + 8.01, 43, 8)).toBe(false);
    // On the day bare Hono took 105.9 ms, + 46.7 ms was over + 8 ms scaled (19.7 ms).
    expect(startMet(105.9 + 19.7, 105.9, 8)).toBe(true);
    expect(startMet(105.9 + 46.7, 105.9, 8)).toBe(false);
    expect(startMet(undefined, 43, 8)).toBe(false);
  });
});

describe("verdicts", () => {
  it("hold a figure that is not a number to no limit", () => {
    expect(atMost(1, 1)).toBe(true);
    expect(atMost(Number.NaN, 1)).toBe(false);
    expect(atMost(undefined, 1)).toBe(false);
    expect(atLeast(1, 1)).toBe(true);
    expect(atLeast(Number.NaN, 1)).toBe(false);
  });

  it("need every first request measured and within the limit", () => {
    expect(everyWithin([1, 10, 9.99], 10).met).toBe(true);
    expect(everyWithin([1, 10.01], 10)).toMatchObject({ met: false, over: 1, max: 10.01 });
    expect(everyWithin([1, undefined], 10)).toMatchObject({ met: false, unmeasured: 1 });
    expect(everyWithin([], 10).met).toBe(false);
  });

  it("make the bench exit 1 on any miss, never on context", () => {
    const met = { text: "a", measured: "1", met: true };
    const context = { text: "b", measured: "2", met: undefined };
    expect(exitCodeOf([met, context])).toBe(0);
    expect(exitCodeOf([met, context, { text: "c", measured: "3", met: false }])).toBe(1);
    const table = verdictTable([
      met,
      context,
      { text: "c", limit: "≤ 1", measured: "3", met: false },
    ]);
    expect(table).toContain("MISS  c (≤ 1): 3");
    expect(table).toContain("PASS  a: 1");
    expect(table).toContain("1 of 2 targets met; 1 MISS: the bench exits 1");
  });
});

describe("benchmark targets", () => {
  it("are met exactly at their thresholds", () => {
    const judged = judgedOf(fixtureRun());
    expect(judged).toHaveLength(11);
    expect(judged.filter((t) => !t.met)).toEqual([]);
    expect(exitCodeOf(targets(fixtureRun()))).toBe(0);
  });

  it("fail just past each threshold", () => {
    const past = fixtureRun({
      shipped: {
        bundleGzip: 16 * 1024 + 1,
        coldStartMs: 46.1,
        ratios: {
          "placeholder:bare-fetch": 0.749,
          "placeholder:hono-stock": 1.199,
          "health:bare-fetch": 0.749,
          "health:hono-stock": 1.199,
        },
      },
      "service-op": {
        cpuRatios: { "post:zod-openapi-platform": 1.001, "post:post-ceiling": 1.151 },
      },
      imported: { bundleGzip: 52 * 1024 + 1, coldStartMs: 53.76 },
    });
    const judged = judgedOf({ ...past, longRun: longRun(10) });
    expect(judged).toHaveLength(11);
    expect(judged.filter((t) => t.met)).toEqual([]);
  });

  it("judge the validated POST on CPU per request against the peers doing the same work (issue 42 (a))", () => {
    const v = verdicts(
      fixtureRun({ "service-op": { cpuRatios: { "post:zod-openapi-platform": 1.01 } } }),
    );
    expect(v["validated POST: CPU per request vs the reference row (same headers)"]).toBe(false);
    // A ratio the run did not measure is missed, not met.
    expect(
      v["validated POST: CPU per request vs the ceiling row (no validation, same headers)"],
    ).toBe(false);
  });

  it("list the references as context, never as met or missed", () => {
    const context = targets(fixtureRun()).filter((t) => t.met === undefined);
    expect(context.map((t) => t.measured)).toEqual([
      "1.30×",
      "1.00× / 0.80× / 1.10×",
      "0.97× / 0.60×",
    ]);
  });

  it("judge memory on the second half of the continuous long run (growth under 10%, every answer expected)", () => {
    const memory = (r: Results) => targets(r).find((t) => t.text.startsWith("workerd RSS"));
    expect(memory({ ...fixtureRun(), longRun: longRun(9.9) })?.met).toBe(true);
    expect(memory({ ...fixtureRun(), longRun: longRun(10) })?.met).toBe(false);
    expect(memory({ ...fixtureRun(), longRun: longRun(1, 3) })?.met).toBe(false);
    expect(memory({ ...fixtureRun(), longRun: longRun(1) })?.text).toContain(
      "second half of a 40 s",
    );
    expect(memory({ ...fixtureRun(), longRun: longRun(1) })?.measured).toContain("whole run 40%");
    const notRun = memory({ ...fixtureRun(), longRun: undefined });
    expect([notRun?.measured, notRun?.met]).toEqual(["not measured", false]);
  });

  it("judge cold start against bare Hono of the same run, scaled when it is slower", () => {
    const slower = fixtureRun({
      "bare-hono": { coldStartMs: 100 },
      shipped: { coldStartMs: 106.9 },
      imported: { coldStartMs: 125 },
    });
    expect(verdicts(slower)["shipped: cold start"]).toBe(true);
    expect(verdicts(slower)["imported FIXTURE rich document: cold start"]).toBe(true);
    const over = fixtureRun({
      "bare-hono": { coldStartMs: 100 },
      imported: { coldStartMs: 125.1 },
    });
    expect(verdicts(over)["imported FIXTURE rich document: cold start"]).toBe(false);
  });

  it("judge a cold start on workerd's CPU time too, so a loaded machine's slow bare Hono passes nothing", () => {
    // Wall clock within + 0.25 × bare Hono's inflated start, CPU far over it: a miss.
    const loaded = fixtureRun({
      "bare-hono": { coldStartMs: 942.2, coldStartCpuMs: 128.7 },
      imported: { coldStartMs: 1085.6, coldStartCpuMs: 189.2 },
    });
    const start = (r: Results) =>
      targets(r).find((t) => t.text === "imported FIXTURE rich document: cold start");
    expect(start(loaded)?.measured).toBe(
      "wall 1085.6 ms vs 942.2 ms (+ 0.15×); CPU 189.2 ms vs 128.7 ms (+ 0.47×)",
    );
    expect(start(loaded)?.met).toBe(false);
    // Both clocks exactly on the limit: met; the CPU just past it: missed.
    const onBoth = (importedCpu: number) =>
      fixtureRun({
        "bare-hono": { coldStartMs: 100, coldStartCpuMs: 80 },
        imported: { coldStartMs: 125, coldStartCpuMs: importedCpu },
      });
    expect(start(onBoth(100))?.met).toBe(true);
    expect(start(onBoth(100.01))?.met).toBe(false);
    // Either clock unmeasured misses.
    expect(start(fixtureRun({ imported: { coldStartCpuMs: undefined } }))?.met).toBe(false);
  });

  it("judge the imported document only when the run built it (--only leaves it out)", () => {
    const { imported: _, ...variants } = fixtureRun().variants;
    const texts = targets({ ...fixtureRun(), variants }).map((t) => t.text);
    expect(texts.some((t) => t.startsWith("imported"))).toBe(false);
  });
});

describe("scale targets", () => {
  it("are met exactly at their thresholds", () => {
    const judged = judgedOf(scaleRun(scaleFigures({ importPeakHeapMiB: 1024 })));
    // Five of the 501 setting, the reference in a browser, and first requests and heap of
    // each other setting.
    expect(judged).toHaveLength(10);
    expect(judged.filter((t) => !t.met)).toEqual([]);
  });

  it("fail just past each threshold", () => {
    const past = scaleFigures({
      coldStartMs: 83.1,
      firstRequests: [{ label: "POST /fixture", status: 501, cpuMs: 10.01 }],
      heap: { usedBytes: 64 * MIB + 1, totalBytes: 80 * MIB },
      simple: { ...(scaleFigures().simple as NonNullable<ScaleFigures["simple"]>), ratio: 1.151 },
      importPeakHeapMiB: 1025,
      referenceLoad: [{ path: "/_service/reference/1", bytes: 2_000_001, ms: 900 }],
      modes: {
        examples: { ...onThreshold, heap: { usedBytes: 64 * MIB + 1, totalBytes: 80 * MIB } },
        sandbox: {
          ...onThreshold,
          firstRequests: [{ label: "POST /fixture", status: 201, cpuMs: 10.01 }],
          heap: { usedBytes: 64 * MIB + 1, totalBytes: 80 * MIB },
        },
      },
    });
    const judged = judgedOf(scaleRun(past));
    expect(judged.filter((t) => t.met).map((t) => t.text)).toEqual([
      "FIXTURE large, examples: CPU of every first request (each operation, every page)",
    ]);
    expect(judged).toHaveLength(10);
  });

  it("judge the heap live (after a full collection) where it was read so, else as used", () => {
    const heapRow = (heap: NonNullable<ScaleFigures["heap"]>) =>
      targets(scaleRun(scaleFigures({ heap }))).find(
        (t) => t.text === "FIXTURE large: isolate heap after every operation was called once",
      );
    // Garbage past the limit, the live heap within it: met, and both are shown.
    const live = heapRow({ usedBytes: 90 * MIB, totalBytes: 120 * MIB, liveBytes: 64 * MIB });
    expect(live).toMatchObject({ met: true });
    expect(live?.measured).toBe(
      "64.0 MB live after a full collection; 90.0 MB used before (120.0 MB total)",
    );
    expect(
      heapRow({ usedBytes: 60 * MIB, totalBytes: 80 * MIB, liveBytes: 64 * MIB + 1 })?.met,
    ).toBe(false);
    expect(heapRow({ usedBytes: 64 * MIB + 1, totalBytes: 80 * MIB })?.met).toBe(false);
  });

  it("miss a reference slower to open than 2 s, or not opened", () => {
    const slow = scaleFigures({
      referenceLoad: [{ path: "/_service/reference", bytes: 10_000, ms: 2001 }],
    });
    const unopened = scaleFigures({ referenceLoad: [] });
    for (const figures of [slow, unopened])
      expect(
        targets(scaleRun(figures)).find((t) => t.text.includes("opened in a browser"))?.met,
      ).toBe(false);
  });

  it("miss a setting that was not measured, or whose measuring failed", () => {
    const rows = targets(
      scaleRun(scaleFigures({ modes: { examples: { error: "measuring failed: it broke" } } })),
    ).filter((t) => t.text.includes(", examples") || t.text.includes(", sandbox"));
    expect(rows.map((t) => [t.text, t.met, t.measured])).toEqual([
      ["FIXTURE large, examples: measured", false, "measuring failed: it broke"],
      ["FIXTURE large, sandbox: measured", false, "not measured"],
    ]);
  });

  it("count a first request that could not be measured as missed", () => {
    const unmeasured = scaleFigures({
      firstRequests: [{ label: "GET /x", note: "no valid request: …" }],
    });
    const first = targets(scaleRun(unmeasured)).find((t) => t.text.includes("first request"));
    expect(first?.met).toBe(false);
    expect(first?.measured).toContain("1 not measured");
  });

  it("miss a document whose import failed, and still show its import time", () => {
    const failed = scaleFigures({ error: "the import failed (1): import: it broke" });
    const rows = targets(scaleRun(failed));
    expect(rows.map((t) => [t.met, t.measured])).toEqual([
      [undefined, "60 s; 40 s"],
      [true, "80 MiB"],
      [false, "the import failed (1): import: it broke"],
    ]);
    expect(exitCodeOf(rows)).toBe(1);
  });

  it("miss an import whose heap went past 1 GiB (issue 45)", () => {
    const rows = targets(scaleRun(scaleFigures({ importPeakHeapMiB: 1500 })));
    expect(rows.find((t) => t.text.includes("peak heap"))).toMatchObject({
      met: false,
      measured: "1500 MiB",
    });
  });

  it("scale the start allowance from the scale section's own bare Hono", () => {
    const run = scaleRun(scaleFigures({ coldStartMs: 100 + 93 }));
    const slow = { ...run, scale: { ...(run.scale as ScaleResults), bareHonoColdStartMs: 100 } };
    expect(targets(slow).find((t) => t.text.endsWith("cold start"))?.met).toBe(true);
  });

  it("print npm test's time as context when the suite ran", () => {
    const withSuite = scaleFigures({
      suite: { seconds: 200, ok: true, summary: "Tests 10 passed" },
    });
    const row = targets(scaleRun(withSuite)).find((t) => t.text.includes("npm test"));
    expect([row?.met, row?.measured]).toEqual([undefined, "200 s, passed (Tests 10 passed)"]);
  });

  it("render the scale tables with the slowest first requests", () => {
    const markdown = renderMarkdown(scaleRun(scaleFigures()));
    expect(markdown).toContain("| FIXTURE large | POST /fixture | 501 | 10 |  |");
    expect(markdown).toContain("GET /_service/interface (fresh isolate)");
    expect(markdown).not.toContain("Placeholder answer");
    expect(LIMITS.firstRequestCpuMs).toBe(10);
  });
});

describe("benchmark report", () => {
  it("shows the middle half of the rounds beside a median, so a verdict near its threshold reads as one", () => {
    const run = fixtureRun({
      "service-op": {
        cpuMicros: { post: 84 },
        cpuRatios: { "post:zod-openapi-platform": 1.05, "post:post-ceiling": 1.1 },
        cpuRatioSpread: { "post:zod-openapi-platform": [0.9, 1.1] },
      },
    });
    const summary = renderSummary(run);
    expect(summary).toContain(
      "| validated POST: CPU per request vs the reference row (same headers) | ≤ 1.00× | 1.05× (84 µs vs 80 µs) | 0.90×–1.10× | **MISS** |",
    );
    expect(summary).toContain(
      "| validated POST: CPU per request vs the ceiling row (no validation, same headers) | ≤ 1.15× | 1.10× (84 µs vs – µs) | – | PASS |",
    );
  });

  it("says how the variants were built: as deployed, or all alike", () => {
    const asDeployed = renderMarkdown(fixtureRun());
    expect(asDeployed).toContain("the others with wrangler's defaults");
    const sameBuild = renderSummary({
      ...fixtureRun(),
      build: { sameBuild: true, serviceKeepNames: false },
    });
    expect(sameBuild).toContain("Every variant built with this service's settings");
    expect(sameBuild).toContain("keep_names = false");
  });

  it("prints the same verdicts it computes", () => {
    const summary = renderSummary(fixtureRun({ imported: { bundleGzip: 70 * 1024 } }));
    expect(summary).toContain(
      "| imported FIXTURE rich document: bundle, gzip | ≤ 52 KiB | 70.0 KiB | – | **MISS** |",
    );
    expect(summary).not.toContain("| Placeholder answer");
  });
});
