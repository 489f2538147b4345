/**
 * `npm run contract:diff -- <file> [--min 0.95] [--json <out.json>]`: the round-trip
 * report. Compares the OpenAPI document the service now serves (built from src/, run in
 * Node) with the source document, category by category (src/importer/compare.ts says
 * how), prints each loss with its JSON Pointer in the source, what is carried under another
 * name (once, where the import renamed it), and a fidelity figure per category and overall,
 * and exits 1 when the overall figure is below `--min` (0.95 unless given). What the
 * platform adds is never a loss.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATEGORIES, compareDocuments, FIDELITY_FLOOR } from "./compare/index";
import type { Json } from "./source";
import { readOpenApi } from "./source";
import { ended, run } from "./stage";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
};
const file = args.find((arg, i) => !arg.startsWith("--") && !args[i - 1]?.startsWith("--"));
const min = Number(option("min") ?? String(FIDELITY_FLOOR));
if (!file || !Number.isFinite(min) || min < 0 || min > 1) {
  console.error(
    "usage: npm run contract:diff -- <openapi.yaml|openapi.json> [--min 0.95] [--json out.json]",
  );
  process.exit(2);
}

const source = await readOpenApi(file).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
// The served document goes to a file, whatever its size (a big contract serves megabytes).
const scratch = mkdtempSync(join(tmpdir(), "contract-diff-"));
const out = join(scratch, "served-openapi.json");
const served = await run("npx", ["tsx", "src/importer/served-document.ts"], ".", { out });
if (served.status !== 0) {
  rmSync(scratch, { recursive: true, force: true });
  console.error(ended("serving the document", "npx tsx src/importer/served-document.ts", served));
  process.exit(1);
}
const servedDocument = JSON.parse(readFileSync(out, "utf8")) as Json;
rmSync(scratch, { recursive: true, force: true });
const comparison = compareDocuments(source.document, source.major, servedDocument);

const percent = (kept: number, total: number) =>
  total === 0 ? "  –   " : `${((100 * kept) / total).toFixed(1).padStart(5)}%`;
const lost = comparison.items.filter((item) => !item.kept);
for (const category of CATEGORIES) {
  const inCategory = lost.filter((item) => item.category === category);
  if (inCategory.length === 0) continue;
  console.log(`${category}:`);
  for (const item of inCategory) console.log(`  ${item.pointer}: ${item.note ?? "lost"}`);
}
// Kept, so not in the figures, but a client sees the new name: listed once, where it is made.
const changed = comparison.items.filter((item) => item.changed !== undefined);
if (changed.length > 0) console.log("carried under another name (kept):");
for (const item of changed) console.log(`  ${item.pointer}: ${item.changed}`);
console.log(`\nFidelity of the served document to ${file}:`);
for (const category of CATEGORIES) {
  const { kept, total } = comparison.byCategory.get(category) ?? { kept: 0, total: 0 };
  console.log(`  ${category.padEnd(18)} ${percent(kept, total)}  (${kept} of ${total})`);
}
console.log(
  `  ${"overall".padEnd(18)} ${percent(comparison.kept, comparison.total)}  (${comparison.kept} of ${comparison.total}; at least ${(min * 100).toFixed(1)}% required)`,
);

const json = option("json");
if (json)
  writeFileSync(
    json,
    `${JSON.stringify(
      {
        source: file,
        fidelity: comparison.fidelity,
        categories: Object.fromEntries(comparison.byCategory),
        losses: lost,
        changes: changed,
      },
      null,
      2,
    )}\n`,
  );
if (comparison.fidelity < min) process.exit(1);
