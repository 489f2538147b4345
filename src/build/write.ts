/**
 * The build's one step: the project's contract and handlers, checked and made into
 * src/generated/contract.ts (generate.ts). The command (contract.ts) and the test
 * configurations run it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
    // Reported, not refused: an imported document's wrong example must not stop its import.
    for (const finding of build.findings) console.warn(`build: ${finding}`);
  } catch (error) {
    const reason = `the contract cannot be served: ${(error as Error).message}`;
    write(refusedModule(contract ? neededParts(contract) : [], reason));
    throw new Error(reason);
  }
}

/** Whether the module was written by an earlier build (of this contract or another). */
export function built(): boolean {
  return existsSync(GENERATED);
}
