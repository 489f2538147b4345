/**
 * The build's one step: the project's contract and handlers, checked and made into
 * src/generated/contract.ts (generate.ts). The command (contract.ts) and the test
 * configurations run it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Contract } from "../contract-language/contract";
import { generatedModule, neededParts, prepareBuild, refusedModule } from "./generate";

/** Where the Worker entry imports what the build made from. */
export const GENERATED = fileURLToPath(new URL("../generated/contract.ts", import.meta.url));

function write(text: string): void {
  // Written only when it changes: `wrangler dev` rebuilds on every change it sees.
  if (existsSync(GENERATED) && readFileSync(GENERATED, "utf8") === text) return;
  mkdirSync(dirname(GENERATED), { recursive: true });
  writeFileSync(GENERATED, text);
}

/**
 * Checks the contract and writes what the Worker serves of it. For a contract that cannot
 * work it throws the line `createApp` would, and writes a module that throws it when loaded
 * (`refusedModule`), so nothing an earlier build wrote can be bundled in its place.
 */
export async function buildContract(): Promise<void> {
  let contract: Contract | undefined;
  try {
    contract = (await import("../contract")).contract;
    const { handlers } = await import("../handlers");
    const build = await prepareBuild(contract, handlers);
    write(generatedModule(build));
    report(build.findings);
  } catch (error) {
    const reason = `the contract cannot be served: ${(error as Error).message}`;
    write(refusedModule(contract ? neededParts(contract) : [], reason));
    throw new Error(reason);
  }
}

/** Where every finding of the last build is listed, when there are more than it prints. */
export const FINDINGS = fileURLToPath(
  new URL("../../.wrangler/build-findings.txt", import.meta.url),
);
const PRINTED = 5;

/**
 * What the build reports without refusing the contract (examples it does not serve): an
 * imported document's wrong example must not stop its import. `wrangler dev` builds again on
 * every change, so a long list is printed in part, and written whole to FINDINGS.
 */
function report(findings: readonly string[]): void {
  for (const finding of findings.slice(0, PRINTED)) console.warn(`build: ${finding}`);
  if (findings.length <= PRINTED) {
    rmSync(FINDINGS, { force: true });
    return;
  }
  mkdirSync(dirname(FINDINGS), { recursive: true });
  writeFileSync(FINDINGS, `${findings.join("\n")}\n`);
  console.warn(
    `build: ${findings.length - PRINTED} more; all ${findings.length} are in ${FINDINGS}`,
  );
}

/** Whether the module was written by an earlier build (of this contract or another). */
export function built(): boolean {
  return existsSync(GENERATED);
}
