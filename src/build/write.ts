/**
 * The build's one step: the project's contract and handlers, checked and made into
 * src/generated/contract.ts (generate.ts). The command (contract.ts) and the test
 * configurations run it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Contract } from "../contract-language/contract";
import {
  entryExports,
  generatedModule,
  neededParts,
  prepareBuild,
  refusedModule,
} from "./generate";

/** Where the Worker entry imports what the build made from. */
export const GENERATED = fileURLToPath(new URL("../generated/contract.ts", import.meta.url));
/** What the Worker entry exports besides its handlers: the classes its bindings name. */
export const GENERATED_EXPORTS = fileURLToPath(
  new URL("../generated/durable-objects.ts", import.meta.url),
);

function write(text: string, file = GENERATED): void {
  // Written only when it changes: `wrangler dev` rebuilds on every change it sees.
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
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
    write(entryExports(contract), GENERATED_EXPORTS);
    const { handlers } = await import("../handlers");
    write(generatedModule(await prepareBuild(contract, handlers)));
  } catch (error) {
    const reason = `the contract cannot be served: ${(error as Error).message}`;
    write(refusedModule(contract ? neededParts(contract) : [], reason));
    throw new Error(reason);
  }
}

/** Whether the module was written by an earlier build (of this contract or another). */
export function built(): boolean {
  return existsSync(GENERATED) && existsSync(GENERATED_EXPORTS);
}
