/**
 * `npx tsx test/tools/bench/scale-setup.ts <out.json>`, run inside a copy of the project
 * with a document imported into it (test/tools/bench/scale.ts does): writes what the bench
 * needs to call every operation of that copy's Worker with a working credential:
 *
 * - `document`: the OpenAPI document the Worker serves (built in Node, as the importer's own
 *   start check does: src/importer/served-document.ts), which valid requests are made from;
 * - `vars`: a local value for every secret and setting part 5 names (what `npm run dev`
 *   writes into the copy's `.dev.vars`: random secrets, a local JWT issuer, a pinned
 *   introspection answer), given to workerd as bindings;
 * - `credentials`: how a request presents each scheme's local credential.
 *
 * The copy is the bench's own scratch directory, so nothing here touches the project.
 */
import { writeFileSync } from "node:fs";
import { contract } from "../../../src/contract";
import type { Contract } from "../../../src/contract-language/contract";
import { devCredentials, ensureDevVars } from "../dev-credentials";
import type { ScaleSetup } from "./scale-setup-types";

const out = process.argv[2];
if (out) {
  const declared: Contract = contract;
  const { default: worker } = await import("../../../src/index");
  const context = { waitUntil() {}, passThroughOnException() {}, props: {} };
  const response = await worker.fetch(
    new Request("http://localhost/_service/openapi.json"),
    {} as Env,
    context as unknown as ExecutionContext,
  );
  if (!response.ok) throw new Error(`the document was answered ${response.status}`);
  const credentials = await devCredentials(declared, ".");
  const { values } = await ensureDevVars(declared, ".");
  const setup: ScaleSetup = {
    document: (await response.json()) as Record<string, unknown>,
    vars: Object.fromEntries(values),
    credentials,
  };
  writeFileSync(out, JSON.stringify(setup));
}
