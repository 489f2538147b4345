/**
 * `tsx test/tools/dev-conformance.ts [--port 18787]`: what a user does locally, checked:
 * gives part 5's secrets and settings local values in `.dev.vars` as `npm run dev` does
 * (test/tools/dev-credentials.ts: random secrets, a local issuer for JWT schemes), starts
 * `wrangler dev` on loopback so that it loads them the way it does for a user, waits for
 * health, runs the conformance checker over real HTTP with a working credential of each
 * scheme (so every operation gets a valid request), then calls each operation with the
 * typed client (src/client, its answers checked against the contract: client-check.ts), and
 * stops the server. Exit status is 1 when either finds a failure. CI runs it on the shipped Worker and, in the revision run, on an imported
 * contract.
 */
import { spawn } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import { contract as shipped } from "../../src/contract";
import type { Contract } from "../../src/contract-language/contract";
import { checkClient } from "./client-check";
import { checkConformance } from "./conformance/checker";
import { devCredentials, devCredentialValues } from "./dev-credentials";

const contract: Contract = shipped;
const i = process.argv.indexOf("--port");
const port = i === -1 ? 18787 : Number(process.argv[i + 1]);
const base = `http://127.0.0.1:${port}`;
// Written before wrangler dev starts: it reads .dev.vars once, at start.
const credentials = await devCredentials(contract);
mkdirSync("test/artifacts", { recursive: true });
const log = openSync("test/artifacts/wrangler-dev.log", "w");
const args = ["wrangler", "dev", "--port", String(port), "--ip", "127.0.0.1"];
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
  const report = await checkConformance(base, { credentials });
  for (const check of report.checks)
    if (!check.ok) console.log(`FAIL  ${check.name}\n      ${check.detail}`);
  for (const { operation, reason } of report.unprobed) console.log(`SKIP  ${operation}: ${reason}`);
  console.log(
    `${report.checks.length} checks against ${base}: ${report.passed} passed, ${report.failed} failed; ${report.unprobed.length} operations not fully probed`,
  );
  const client = await checkClient(base, contract, await devCredentialValues(contract));
  for (const line of client.lines) console.log(line);
  status = report.failed === 0 && client.failed === 0 ? 0 : 1;
} catch (error) {
  console.error((error as Error).message);
} finally {
  stop();
}
process.exit(status);
