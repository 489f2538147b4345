/**
 * An app as the deployed Worker makes it: the contract built as `npm run build:contract`
 * builds it (checked, its documents made, the parts it needs chosen), then served by
 * `serveApp` from that with exactly those parts (the serving engine with only the parts the
 * contract uses), no converter and no documenter, as src/index.ts does.
 */
import { prepareBuild, servedParts } from "../../src/build/generate";
import type { Contract } from "../../src/contract-language/contract";
import type { AnyHandler } from "../../src/contract-language/define-handlers";
import type { BuiltDocuments } from "../../src/platform/documents";
import { type ServeOptions, type ServiceApp, serveApp } from "../../src/serve-app";

export interface BuiltApp {
  readonly app: ServiceApp;
  readonly built: BuiltDocuments;
}

export async function builtApp(contract: Contract, handlers: object = {}): Promise<BuiltApp> {
  const { needed, built } = await prepareBuild(
    contract,
    handlers as Readonly<Record<string, AnyHandler | undefined>>,
  );
  const options = { handlers, built, ...servedParts(needed) } as ServeOptions<Contract>;
  return { app: serveApp(contract, options), built };
}
