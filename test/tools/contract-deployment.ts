/**
 * `npm run contract:deployment [-- --check]`: writes what the contract needs from a
 * deployment into wrangler.toml (its generated block) and .dev.vars.example, from
 * src/contract. `--check` writes nothing and exits 1 when either file is out of date.
 * Never writes a credential: secrets are listed by name, with placeholders.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { experimental_readRawConfig } from "wrangler";
import { contract } from "../../src/contract";
import { deploymentBlock, devVarsExample, withDeploymentBlock } from "../support/deployment";

const WRANGLER = "wrangler.toml";
const DEV_VARS_EXAMPLE = ".dev.vars.example";

const raw = experimental_readRawConfig({ config: WRANGLER }).rawConfig as {
  name?: string;
  ratelimits?: readonly { name: string; namespace_id: string }[];
  vars?: Record<string, string>;
};
const block = deploymentBlock(contract, {
  namespaceIds: new Map((raw.ratelimits ?? []).map((r) => [r.name, r.namespace_id])),
  responseValidation: raw.vars?.RESPONSE_VALIDATION,
  vars: raw.vars,
  ...(raw.name ? { workerName: raw.name } : {}),
});
const files = [
  [WRANGLER, withDeploymentBlock(readFileSync(WRANGLER, "utf8"), block)],
  [DEV_VARS_EXAMPLE, devVarsExample(contract)],
] as const;

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
