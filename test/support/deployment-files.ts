/**
 * What `npm run contract:deployment` writes, computed in Node (it reads wrangler.toml with
 * wrangler's own reader): apart from ./deployment.ts, which workerd's tests load too.
 */
import { readFileSync } from "node:fs";
import { experimental_readRawConfig } from "wrangler";
import type { Contract } from "../../src/contract-language/contract";
import { deploymentBlock, devVarsExample, withDeploymentBlock } from "./deployment";

const WRANGLER = "wrangler.toml";
const DEV_VARS_EXAMPLE = ".dev.vars.example";

/**
 * wrangler.toml and .dev.vars.example as `contract` needs them (`npm run contract:deployment`
 * writes them), each with its text: the generated block made from the ids, names and vars
 * the file already holds.
 */
export function deploymentFiles(contract: Contract): readonly (readonly [string, string])[] {
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
  return [
    [WRANGLER, withDeploymentBlock(readFileSync(WRANGLER, "utf8"), block)],
    [DEV_VARS_EXAMPLE, devVarsExample(contract)],
  ];
}

/** Those of `deploymentFiles` whose text on disk is not what `contract` needs. */
export function staleDeploymentFiles(contract: Contract): readonly string[] {
  return deploymentFiles(contract)
    .filter(([file, text]) => readFileSync(file, "utf8") !== text)
    .map(([file]) => file);
}
