/**
 * The ten slowest test files of the lanes that ran (test/artifacts/vitest-*.json, vitest's
 * JSON reports), with each lane's test count and the summed time of its files, so that
 * time creep shows in CI's log. `npx tsx test/tools/test-times.ts` prints them; the slow
 * lane (./slow-lane.ts) prints them at its end.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

/** Each lane's report, by the name its npm script gives it. */
export const LANE_REPORTS = {
  fast: "test/artifacts/vitest-fast.json",
  slow: "test/artifacts/vitest-slow.json",
} as const;

interface Report {
  readonly numTotalTests: number;
  readonly numFailedTests: number;
  readonly testResults: readonly {
    readonly name: string;
    readonly startTime: number;
    readonly endTime: number;
    readonly assertionResults: readonly unknown[];
  }[];
}

interface FileTime {
  readonly lane: string;
  readonly file: string;
  readonly seconds: number;
  readonly tests: number;
}

/** The lines to print: one per lane that ran, then the ten slowest files among them. */
export function testTimes(root = "."): string[] {
  const files: FileTime[] = [];
  const lines: string[] = [];
  for (const [lane, path] of Object.entries(LANE_REPORTS)) {
    if (!existsSync(`${root}/${path}`)) continue;
    const report = JSON.parse(readFileSync(`${root}/${path}`, "utf8")) as Report;
    const mine = report.testResults.map((r) => ({
      lane,
      file: relative(root, r.name),
      seconds: (r.endTime - r.startTime) / 1000,
      tests: r.assertionResults.length,
    }));
    files.push(...mine);
    const sum = mine.reduce((s, f) => s + f.seconds, 0);
    lines.push(
      `lane ${lane}: ${report.numTotalTests} tests (${report.numFailedTests} failed) in ${mine.length} files, ${sum.toFixed(1)} s summed over files`,
    );
  }
  lines.push("the ten slowest test files:");
  for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10))
    lines.push(
      `  ${f.seconds.toFixed(1).padStart(6)} s  ${f.lane.padEnd(7)} ${f.file} (${f.tests} tests)`,
    );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`)
  for (const line of testTimes()) console.log(line);
