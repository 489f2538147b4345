// Repairs package-lock.json after `npm install` on a machine whose registry serves only
// this platform's binary packages: npm then leaves the other platforms' optional binaries
// (biome, workerd) out of the lock and `npm ci` rejects it (npm/cli#9846). This adds an
// entry with the exact version the parent package names for each one `npm ci` reports
// missing; npm skips them where the platform does not match and fetches them where it does.
// Run from the repository root: node .ci/lockfile-platform-stubs.mjs
import { execSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

let out = "";
try {
  execSync("npm ci --dry-run --no-audit --no-fund", { stdio: "pipe" });
} catch (e) {
  out = String(e.stderr);
}
const missing = new Set([...out.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((m) => m[1]));
const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const pkgs = lock.packages;
let added = 0;
for (const [key, entry] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (!missing.has(name)) continue;
    const top = pkgs[`node_modules/${name}`];
    const at =
      top && top.version !== version ? `${key}/node_modules/${name}` : `node_modules/${name}`;
    if (pkgs[at]) continue;
    pkgs[at] = { version, ...(entry.dev ? { dev: true } : {}), optional: true };
    added++;
  }
}
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`missing ${missing.size}, added ${added}`);
