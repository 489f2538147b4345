/**
 * The corpus run's figures (./run.ts): documents, operations, and failed imports and left-out
 * units by the class of their cause (`causeClass`, the importer's own rule), so that one
 * cause met in many documents counts as one class.
 */
import { causeClass } from "../../../src/importer/findings";

/** What one document gave, as the corpus run records it (one JSON line each). */
export interface DocumentResult {
  /** The document's path, relative to the folder or collection it came from. */
  readonly document: string;
  readonly bytes: number;
  /** The OpenAPI or Swagger version the document states. */
  readonly version: string;
  /** Swagger 2.0 at its origin, where the collection says so (APIs.guru's `info.x-origin`). */
  readonly origin?: string;
  readonly ok: boolean;
  /** The one-line cause of a failed import (its own, or how its process ended). */
  readonly cause?: string;
  readonly declared: number;
  readonly served: number;
  /** Each left-out unit's finding, as it says it (classed when summarised). */
  readonly leftOut: readonly string[];
  readonly findings: Readonly<Record<string, number>>;
  readonly seconds: number;
  readonly peakHeapMiB: number;
}

/** The run's figures: documents, operations, and the classes with their counts. */
export function summarise(results: readonly DocumentResult[]): string[] {
  const imported = results.filter((r) => r.ok);
  const whole = imported.filter((r) => r.declared === 0 || r.served / r.declared >= 0.98);
  const declared = results.reduce((n, r) => n + r.declared, 0);
  const served = imported.reduce((n, r) => n + r.served, 0);
  const pct = (part: number, all: number) =>
    all === 0 ? "-" : `${((100 * part) / all).toFixed(1)}%`;
  const failures = new Map<string, number>();
  for (const r of results) if (!r.ok) bump(failures, causeClass(r.cause ?? "no cause"), 1);
  const leftOut = new Map<string, number>();
  for (const r of imported) for (const message of r.leftOut) bump(leftOut, causeClass(message), 1);
  const heaviest = [...results].sort((a, b) => b.peakHeapMiB - a.peakHeapMiB)[0];
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds)[0];
  return [
    `documents: ${results.length}; imported ${imported.length} (${pct(imported.length, results.length)}), whole (>= 98% of their operations served) ${whole.length}`,
    `operations: ${served} of ${declared} served (${pct(served, declared)})`,
    ...(heaviest ? [`peak importer heap: ${heaviest.peakHeapMiB} MiB (${heaviest.document})`] : []),
    ...(slowest ? [`slowest import: ${slowest.seconds.toFixed(0)} s (${slowest.document})`] : []),
    `failed imports, by class (${results.length - imported.length}):`,
    ...ranked(failures),
    "operations and other units left out of imported documents, by class:",
    ...ranked(leftOut),
  ];
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

/** The classes, most frequent first: the first 30, then how many more. */
function ranked(counts: ReadonlyMap<string, number>): string[] {
  if (counts.size === 0) return ["  none"];
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const rest = sorted.slice(30).reduce((n, [, count]) => n + count, 0);
  return [
    ...sorted.slice(0, 30).map(([name, count]) => `  ${String(count).padStart(6)}  ${name}`),
    ...(sorted.length > 30
      ? [`  ${String(rest).padStart(6)}  (${sorted.length - 30} other classes)`]
      : []),
  ];
}
