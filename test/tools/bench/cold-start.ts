/**
 * `npx tsx test/tools/bench/cold-start.ts <bundle.js>... [--spawns 15]`: the cold start of each
 * bundle (spawn of `workerd serve` on CPU 0 to its first answer), spawned in alternating
 * order and reported as medians side by side, for A/B questions the full benchmark is too
 * coarse for (test/tools/bench/README.md, "What an import costs").
 */
import { serveWorker } from "../serve";

const args = process.argv.slice(2);
const at = args.indexOf("--spawns");
const spawns = at === -1 ? 15 : Number(args[at + 1]);
const bundles = args.filter((arg, i) => !arg.startsWith("--") && i !== at + 1);
if (bundles.length === 0 || !(spawns > 0)) {
  console.error("usage: npx tsx test/tools/bench/cold-start.ts <bundle.js>... [--spawns 15]");
  process.exit(2);
}
const times = new Map<string, number[]>(bundles.map((b) => [b, []]));
for (let i = 0; i < spawns; i += 1) {
  const order = i % 2 === 0 ? bundles : [...bundles].reverse();
  for (const bundle of order) {
    const worker = await serveWorker({ bundle, cpus: "0" });
    times.get(bundle)?.push(worker.startupMs);
    await worker.stop();
  }
}
const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2
    ? (sorted[Math.floor(mid)] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
for (const [bundle, xs] of times)
  console.log(`${median(xs).toFixed(1).padStart(7)} ms  ${bundle}  (median of ${xs.length})`);
