/**
 * `npm run contract:deployment [-- --check]`: writes what the contract needs from a
 * deployment into wrangler.toml (its generated block) and .dev.vars.example, from
 * src/contract. `--check` writes nothing and exits 1 when either file is out of date.
 * Never writes a credential: secrets are listed by name, with placeholders.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { contract } from "../../src/contract";
import { deploymentFiles } from "../support/deployment-files";

const files = deploymentFiles(contract);

const check = process.argv.includes("--check");
let stale = 0;
for (const [file, text] of files) {
  if (readFileSync(file, "utf8") === text) continue;
  stale += 1;
  if (check)
    console.error(`${file} does not list what src/contract needs: run npm run contract:deployment`);
  else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
if (check && stale > 0) process.exit(1);
if (!check && stale === 0)
  console.log("wrangler.toml and .dev.vars.example already match src/contract");
