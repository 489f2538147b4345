/**
 * The benchmark's targets and their verdicts: pure functions of one run's figures, so a
 * test can hold each threshold (test/tools/bench/report.node.test.ts). `npm run bench` exits
 * non-zero when any target is missed (`exitCodeOf`).
 */

/** Issue 23's figures (test/tools/bench/README.md, "Targets"), in one place. */
export const LIMITS = {
  /** The imported FIXTURE rich document's bundle, gzip (issue 42's decision (a)). */
  importedGzipKiB: 52,
  /** … and its cold start's excess over bare Hono's, as a fraction of bare Hono's (wall and CPU). */
  importedStartVsBareHono: 0.25,
  /**
   * The validated POST's CPU per request over the reference row's (@hono/zod-openapi with
   * this platform's headers: the peer doing the same work), issue 42's decision (a).
   */
  postCpuVsReference: 1.0,
  /** … and over the ceiling row's (no validation, the same headers: the least they allow). */
  postCpuVsCeiling: 1.15,
  /** A large imported contract's cold start over bare Hono's (at 43 ms). */
  scaleStartMs: 40,
  /** The CPU of every first request: of each operation, the document, the status report. */
  firstRequestCpuMs: 10,
  /** The isolate's heap after every operation was called once. */
  heapMiB: 64,
  /** The reference's index and largest page opened in a browser (issue 42). */
  referenceLoadMs: 2000,
  /** … each page's size, at most. */
  referencePageBytes: 2_000_000,
  /** A simple validated operation's CPU per request over the same one in a one-operation Worker. */
  simpleCpuVsOneOperation: 1.15,
} as const;

/** What the start-up targets were set against: bare Hono's cold start on that machine. */
export const REFERENCE_BARE_HONO_MS = 43;

/**
 * The start-up allowance over bare Hono on this machine: `extraMs` where bare Hono starts
 * in 43 ms or less, else the same fraction of bare Hono's own start (`extraMs / 43`: 0.19
 * for + 8 ms, 0.93 for + 40 ms), since a slower machine or a loaded one slows both.
 *
 *     allowance = max(extraMs, extraMs / 43 ms × bare Hono's cold start)
 */
export function startAllowanceMs(extraMs: number, bareHonoMs: number): number {
  return Math.max(extraMs, (extraMs / REFERENCE_BARE_HONO_MS) * bareHonoMs);
}

/** Met when `value` is at most `limit`; a figure that is not a number (not measured) is not. */
export const atMost = (value: number | undefined, limit: number): boolean =>
  value !== undefined && Number.isFinite(value) && value <= limit;

/** Met when `value` is at least `limit`; a figure that is not a number is not. */
export const atLeast = (value: number | undefined, limit: number): boolean =>
  value !== undefined && Number.isFinite(value) && value >= limit;

/** A cold start within the scaled allowance over bare Hono's, both from the same run. */
export function startMet(startMs: number | undefined, bareHonoMs: number, extraMs: number) {
  return atMost(startMs, bareHonoMs + startAllowanceMs(extraMs, bareHonoMs));
}

/** Every first request measured and each within the CPU limit (an unmeasured one fails it). */
export function everyWithin(
  figures: readonly (number | undefined)[],
  limit: number,
): { met: boolean; over: number; unmeasured: number; max: number } {
  const measured = figures.filter((f): f is number => f !== undefined && Number.isFinite(f));
  const over = measured.filter((f) => f > limit).length;
  const unmeasured = figures.length - measured.length;
  return {
    met: figures.length > 0 && over === 0 && unmeasured === 0,
    over,
    unmeasured,
    max: measured.length > 0 ? Math.max(...measured) : Number.NaN,
  };
}

/** One row of the verdict table. */
export interface Target {
  readonly text: string;
  /** The threshold as read: "≤ 50 KiB", "≤ bare Hono + 8.0 ms". */
  readonly limit?: string;
  readonly measured: string;
  /** For a ratio: the middle half of the rounds' ratios, so a verdict near its threshold reads as such. */
  readonly spread?: string;
  /** Undefined for a figure shown for context, which is not a target. */
  readonly met: boolean | undefined;
}

export const verdictWord = (met: boolean | undefined) =>
  met === undefined ? "–" : met ? "PASS" : "MISS";

/** The targets a run missed (context rows are never missed). */
export const missed = (targets: readonly Target[]) => targets.filter((t) => t.met === false);

/** The bench's exit code: 1 when any target was missed, else 0. */
export const exitCodeOf = (targets: readonly Target[]) => (missed(targets).length > 0 ? 1 : 0);

/** The verdict table for a terminal: one line per row, the verdict first. */
export function verdictTable(targets: readonly Target[]): string {
  const lines = targets.map(
    (t) =>
      `${verdictWord(t.met).padEnd(4)}  ${t.text}${t.limit ? ` (${t.limit})` : ""}: ${t.measured}${t.spread ? ` [rounds ${t.spread}]` : ""}`,
  );
  const judged = targets.filter((t) => t.met !== undefined).length;
  const miss = missed(targets).length;
  return [
    ...lines,
    `${judged - miss} of ${judged} targets met${miss > 0 ? `; ${miss} MISS: the bench exits 1` : ""}`,
  ].join("\n");
}
