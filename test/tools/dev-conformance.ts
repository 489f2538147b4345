/**
 * `tsx test/tools/dev-conformance.ts [--port 18787] [--test-credentials]`: what a user
 * does locally, checked: starts `wrangler dev` on loopback, waits for health, runs the
 * conformance checker over real HTTP (test/conformance), and stops the server. Exit status
 * is the checker's. CI runs it on the shipped Worker and, in the revision run, on an
 * imported contract, with `--test-credentials`: the secrets and vars the contract names get
 * values made for this run (secrets in `.dev.vars`, which is gitignored; vars as `--var`),
 * as a deployment would set its own.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, openSync, writeFileSync } from "node:fs";
import { contract } from "../../src/contract";
import { checkConformance } from "../conformance/checker";
import { requiredSecrets, requiredVars } from "../support/deployment";

const i = process.argv.indexOf("--port");
const port = i === -1 ? 18787 : Number(process.argv[i + 1]);
const base = `http://127.0.0.1:${port}`;
const vars: string[] = [];
if (process.argv.includes("--test-credentials")) {
  const secrets = requiredSecrets(contract).map(({ name }) => `${name}=test-only-${randomUUID()}`);
  writeFileSync(".dev.vars", `# Values made for one local run.\n${secrets.join("\n")}\n`);
  for (const { name, kind } of requiredVars(contract))
    vars.push(
      "--var",
      `${name}:${kind === "jwksUrl" ? `https://${name.toLowerCase()}.invalid/jwks.json` : `test-only-${name}`}`,
    );
}
mkdirSync("test/artifacts", { recursive: true });
const log = openSync("test/artifacts/wrangler-dev.log", "w");
const args = ["wrangler", "dev", "--port", String(port), "--ip", "127.0.0.1", ...vars];
const dev = spawn("npx", args, {
  detached: true,
  stdio: ["ignore", log, log],
});
const stop = () => {
  try {
    if (dev.pid) process.kill(-dev.pid, "SIGTERM");
  } catch {}
};
process.on("exit", stop);

let status = 1;
try {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/_service/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline)
      throw new Error("wrangler dev did not start (test/artifacts/wrangler-dev.log)");
    await new Promise((r) => setTimeout(r, 500));
  }
  const report = await checkConformance(base);
  for (const check of report.checks)
    if (!check.ok) console.log(`FAIL  ${check.name}\n      ${check.detail}`);
  console.log(
    `${report.checks.length} checks against ${base}: ${report.passed} passed, ${report.failed} failed`,
  );
  status = report.failed === 0 ? 0 : 1;
} catch (error) {
  console.error((error as Error).message);
} finally {
  stop();
}
process.exit(status);
