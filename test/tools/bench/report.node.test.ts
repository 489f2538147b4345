/**
 * The benchmark's verdicts: each target is judged at its exact threshold from the figures
 * of one run, and the report says how the variants were built. Synthetic BENCH FIXTURE
 * results, not measurements.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown, renderSummary, targets } from "./report";
import type { Results } from "./run";

type Entry = Results["variants"][string];

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

/** A run in which every target sits exactly on its threshold. */
function fixtureRun(overrides: Partial<Record<string, Partial<Entry>>> = {}): Results {
  return {
    date: "2026-11-21T00:00:00.000Z",
    machine: "BENCH FIXTURE machine",
    settings: { rounds: 8, seconds: 2, connections: 32, coldStarts: 15, cpuLoop: 5000 },
    responseValidation: "log",
    build: { sameBuild: false, serviceKeepNames: false },
    longRun: longRun(9.9),
    variants: {
      "bare-hono": entry("bare Hono", { coldStartMs: 30, ...overrides["bare-hono"] }),
      shipped: entry("this service, as shipped", {
        bundleGzip: 16 * 1024,
        coldStartMs: 33,
        ratios: {
          "placeholder:bare-fetch": 0.75,
          "placeholder:hono-stock": 1.2,
          "health:bare-fetch": 0.75,
          "health:hono-stock": 1.2,
        },
        ...overrides.shipped,
      }),
      "service-op": entry("this service, fixture operation", {
        ratios: { "post:zod-openapi": 1, "post:hono-zod": 0.8, "post:zod-openapi-platform": 1.1 },
        ...overrides["service-op"],
      }),
      imported: entry("this service, imported FIXTURE document", {
        bundleGzip: 40 * 1024,
        coldStartMs: 35,
        ...overrides.imported,
      }),
      "post-ceiling": entry("ceiling", {
        ratios: { "post:zod-openapi": 0.97, "post:hono-zod": 0.86 },
      }),
    },
  };
}

const verdicts = (r: Results) =>
  Object.fromEntries(targets(r).map((t) => [t.text, t.met] as const));

describe("benchmark targets", () => {
  it("are met exactly at their thresholds", () => {
    const judged = targets(fixtureRun()).filter((t) => t.met !== undefined);
    expect(judged).toHaveLength(11);
    expect(judged.filter((t) => !t.met)).toEqual([]);
  });

  it("fail just past each threshold", () => {
    const past = fixtureRun({
      shipped: {
        bundleGzip: 16 * 1024 + 1,
        coldStartMs: 33.1,
        ratios: {
          "placeholder:bare-fetch": 0.749,
          "placeholder:hono-stock": 1.199,
          "health:bare-fetch": 0.749,
          "health:hono-stock": 1.199,
        },
      },
      "service-op": { ratios: { "post:zod-openapi": 0.999, "post:hono-zod": 0.799 } },
      imported: { bundleGzip: 40 * 1024 + 1, coldStartMs: 35.1 },
    });
    const judged = targets({ ...past, longRun: longRun(10) }).filter((t) => t.met !== undefined);
    expect(judged).toHaveLength(11);
    expect(judged.filter((t) => t.met)).toEqual([]);
  });

  it("list the references as context, never as met or missed", () => {
    const context = targets(fixtureRun()).filter((t) => t.met === undefined);
    expect(context.map((t) => t.measured)).toEqual(["1.10×", "0.97× / 0.86×"]);
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

  it("judge cold start against bare Hono of the same run", () => {
    const slower = fixtureRun({
      "bare-hono": { coldStartMs: 40 },
      shipped: { coldStartMs: 43 },
      imported: { coldStartMs: 45 },
    });
    expect(verdicts(slower)["cold start ≤ bare Hono + 3 ms"]).toBe(true);
    expect(verdicts(slower)["imported document: cold start ≤ bare Hono + 5 ms"]).toBe(true);
  });

  it("judge the imported document only when the run built it (--only leaves it out)", () => {
    const { imported: _, ...variants } = fixtureRun().variants;
    const texts = targets({ ...fixtureRun(), variants }).map((t) => t.text);
    expect(texts.some((t) => t.startsWith("imported document"))).toBe(false);
  });
});

describe("benchmark report", () => {
  it("shows the middle half of the rounds beside a median, so a verdict near its threshold reads as one", () => {
    const run = fixtureRun({
      "service-op": {
        ratios: { "post:zod-openapi": 0.97, "post:hono-zod": 0.8 },
        ratioSpread: { "post:zod-openapi": [0.9, 1.1] },
      },
    });
    const summary = renderSummary(run);
    expect(summary).toContain(
      "| validated POST: ≥ 1.0× @hono/zod-openapi req/s | 0.97× | 0.90×–1.10× | **no** |",
    );
    expect(summary).toContain("| validated POST: ≥ 0.8× Hono + zod req/s | 0.80× | – | yes |");
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
    const summary = renderSummary(
      fixtureRun({ "service-op": { ratios: { "post:zod-openapi": 0.5 } } }),
    );
    expect(summary).toContain(
      "| validated POST: ≥ 1.0× @hono/zod-openapi req/s | 0.50× | – | **no** |",
    );
    expect(summary).not.toContain("| Placeholder answer");
  });
});
