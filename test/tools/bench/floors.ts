/**
 * `npx tsx test/tools/bench/floors.ts [--spawns 15]`: what the imported FIXTURE document's Worker
 * cannot go below, whatever the platform does (test/tools/bench/README.md, "What an import costs").
 * The document is imported into a copy of the project, and four Workers are built from it
 * as wrangler bundles them:
 *
 * - `libraries`: Hono, zod/mini and jose, each with one use (a route, a schema, a JWT check);
 * - `contract`: Hono and the imported contract, evaluated (its zod/mini schemas are built on
 *   first use, src/contract-language/lazy.ts, so none is);
 * - `libraries + contract`: both, each operation routed with its JWT checked and body parsed
 *   (its schema built on the operation's first request, as the engine builds it);
 * - `imported`: the Worker the import writes.
 *
 * It prints each one's size (raw and gzip) and the cold start of each beside bare Hono's
 * (spawned in alternating order, medians), so the figures come from one run on one machine:
 * the wall clock from spawn to first answer, and workerd's CPU time over the same span
 * (test/tools/bench/workerd.ts), which a loaded machine does not inflate as it does the
 * wall clock; each also as a fraction of bare Hono's, the form issue 23's targets take.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { copyProject } from "../../../src/importer/copy-project";
import { buildBundle, buildContractIn, serveWorker } from "../serve";
import { processCpuNs } from "./workerd";

const at = process.argv.indexOf("--spawns");
const spawns = at === -1 ? 15 : Number(process.argv[at + 1]);
const DOCUMENT = resolve("test/fixtures/openapi/rich-3.1.yaml");

const FLOORS: Readonly<Record<string, string>> = {
  libraries: `import { Hono } from "hono";
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as z from "zod/mini";
const app = new Hono();
const keys = createRemoteJWKSet(new URL("https://fixture.invalid/jwks"));
const body = z.object({ name: z.string(), size: z.optional(z.number()) });
app.post("/floor", async (c) => {
  await jwtVerify(c.req.header("authorization") ?? "", keys);
  return c.json(body.safeParse(await c.req.json()).success);
});
export default app;
`,
  contract: `import { Hono } from "hono";
import { contract } from "./src/contract";
const app = new Hono();
app.get("/floor", (c) => c.json(Object.keys(contract.operations).length));
export default app;
`,
  "libraries + contract": `import { Hono } from "hono";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { contract } from "./src/contract";
import { schemaOf } from "./src/contract-language/contract";
const app = new Hono();
const keys = createRemoteJWKSet(new URL("https://fixture.invalid/jwks"));
for (const [id, operation] of Object.entries(contract.operations)) {
  const declared = Object.values(operation.request?.body ?? {})[0];
  app.on(operation.method, operation.path.replace(/\\{([^}]+)\\}/g, ":$1"), async (c) => {
    await jwtVerify(c.req.header("authorization") ?? "", keys);
    const body = declared && (schemaOf(declared) as unknown as { safeParse(v: unknown): { success: boolean } });
    return c.json({ id, ok: body ? body.safeParse(await c.req.json()).success : true });
  });
}
export default app;
`,
};

const dir = mkdtempSync(join(tmpdir(), "bench-floors-"));
try {
  const copy = copyProject("import-", resolve("."), dir);
  execFileSync("npm", ["run", "--silent", "contract:import", "--", DOCUMENT], {
    cwd: copy,
    stdio: ["ignore", "ignore", "inherit"],
  });
  // What the entry imports (src/generated/, gitignored), as a deploy's build makes it.
  buildContractIn(copy);
  const entries: [string, string][] = [
    ["bare Hono", resolve("test/tools/bench/variants/bare-hono.ts")],
  ];
  Object.entries(FLOORS).forEach(([name, code], i) => {
    const file = join(copy, `floor-${i}.ts`);
    writeFileSync(file, code);
    entries.push([name, file]);
  });
  entries.push(["imported", join(copy, "src/index.ts")]);
  const bundles = await Promise.all(
    entries.map(([, file], i) => buildBundle(`floor-${i}`, file, dir, false)),
  );
  const times = bundles.map((): number[] => []);
  const cpu = bundles.map((): number[] => []);
  for (let round = 0; round < spawns; round += 1) {
    const order = bundles.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const worker = await serveWorker({ bundle: bundles[i] as string, cpus: "0" });
      times[i]?.push(worker.startupMs);
      cpu[i]?.push(processCpuNs(worker.pid) / 1e6);
      await worker.stop();
    }
  }
  const median = (xs: readonly number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length / 2;
    return s.length % 2 ? (s[Math.floor(m)] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
  };
  const bare = median(times[0] ?? []);
  const bareCpu = median(cpu[0] ?? []);
  const over = (ms: number, base: number) =>
    `bare + ${(ms - base).toFixed(1)} ms (${((ms - base) / base).toFixed(2)}×)`;
  console.log(`| Worker | raw | gzip | cold start (median of ${spawns}) | its CPU |`);
  console.log("| --- | --: | --: | --: | --: |");
  entries.forEach(([name], i) => {
    const code = readFileSync(bundles[i] as string);
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    const ms = median(times[i] ?? []);
    const cpuMs = median(cpu[i] ?? []);
    const cold = i === 0 ? `${ms.toFixed(1)} ms` : over(ms, bare);
    const its = i === 0 ? `${cpuMs.toFixed(1)} ms` : over(cpuMs, bareCpu);
    console.log(
      `| ${name} | ${kib(code.length)} | ${kib(gzipSync(code).length)} | ${cold} | ${its} |`,
    );
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
