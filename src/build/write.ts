/**
 * The build's one step: the project's contract and handlers, checked and made into
 * src/generated/contract.ts (generate.ts). The command (contract.ts) and the test
 * configurations run it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Contract } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import { TENANCY_VAR, tenancyOf } from "../mocks/sandbox/tenancy";
import {
  assetsOf,
  type Build,
  entryExports,
  generatedModule,
  neededFeatures,
  prepareBuild,
  refusedModule,
} from "./generate";
import { SERVED_DIR, writeServedContract } from "./served-contract";

/** What a contract that does not even load is given: nothing can be said of its needs. */
const NOTHING = { engine: undefined, xml: false } as const;

/** Where the Worker entry imports what the build made from. */
const GENERATED = fileURLToPath(new URL("../generated/contract.ts", import.meta.url));
/** What the Worker entry exports besides its handlers: the classes its bindings name. */
const GENERATED_EXPORTS = fileURLToPath(
  new URL("../generated/durable-objects.ts", import.meta.url),
);

/** The deployment's configuration, which an upload's build reads its settings from. */
const WRANGLER_TOML = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));

/** The Worker's static assets (`[assets] directory` in wrangler.toml): the documents it serves. */
export const ASSETS = fileURLToPath(new URL("../generated/assets", import.meta.url));

function write(text: string, file = GENERATED): void {
  // Written only when it changes: `wrangler dev` rebuilds on every change it sees.
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Every file under `dir`, as `/`-rooted paths. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(dir, join(entry.parentPath, entry.name))}`);
}

/** The assets directory holds exactly `files`: what an earlier build left is removed. */
function writeAssets(files: Readonly<Record<string, string>>): void {
  mkdirSync(ASSETS, { recursive: true });
  for (const path of filesUnder(ASSETS))
    if (!Object.hasOwn(files, path)) rmSync(join(ASSETS, path));
  for (const [path, text] of Object.entries(files)) write(text, join(ASSETS, path));
}

/**
 * Checks the contract and writes what the Worker serves of it: the module src/index.ts
 * imports and the documents among its static assets. For a contract that cannot work it
 * throws the line `createApp` would, and writes a module that throws it when loaded
 * (`refusedModule`) and no assets, so nothing an earlier build wrote can be bundled or
 * uploaded in its place. It removes the stamp of an earlier build's inputs first (`stampFile`,
 * BUILD_STAMP unless a test gives its own).
 */
export async function buildContract(stampFile = BUILD_STAMP): Promise<void> {
  // Whatever this build writes, the inputs of an earlier one no longer say what is there.
  rmSync(stampFile, { force: true });
  let contract: Contract | undefined;
  const unhandledAnswers = unhandledAnswersWanted();
  // A source transform only: written first, so a refused contract's Worker still bundles
  // (the generated module then throws the refusal when it is loaded).
  await writeServedContract(unhandledAnswers);
  try {
    contract = (await import("../contract")).contract;
    const build = await buildProject(unhandledAnswers);
    write(
      entryExports(contract, build.needed.engine?.includes("store") ?? false),
      GENERATED_EXPORTS,
    );
    const { built, files } = assetsOf(build.built);
    writeAssets(files);
    write(
      generatedModule({
        needed: build.needed,
        built,
        ...(build.routing ? { routing: build.routing } : {}),
        ...(build.sandboxCards ? { sandboxCards: build.sandboxCards } : {}),
      }),
    );
    report(build.findings);
  } catch (error) {
    const reason = `the contract cannot be served: ${(error as Error).message}`;
    writeAssets({});
    // The binding's class is still exported, so the Worker bundles and fails at load only.
    if (contract) write(entryExports(contract, false), GENERATED_EXPORTS);
    // Its handlers may not have loaded: it is given the features of a contract without any.
    write(refusedModule(contract ? neededFeatures(contract, {}) : NOTHING, reason));
    throw new Error(reason);
  }
}

/**
 * The inputs of the last build that succeeded, from `npm run build:contract` (./stamp.ts):
 * gitignored, beside wrangler's own state. Any build removes it first.
 */
export const BUILD_STAMP = fileURLToPath(
  new URL("../../.wrangler/build-inputs.sha256", import.meta.url),
);

/** Where every finding of the last build is listed, when there are more than it prints. */
const FINDINGS = fileURLToPath(new URL("../../.wrangler/build-findings.txt", import.meta.url));
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

/**
 * What the build makes of the project's contract and handlers, in process, without writing
 * it: the importer proves a new contract with it, and prints the document it would serve.
 * It throws what `createApp` would for a contract that cannot work.
 */
export async function buildProject(unhandledAnswers = true): Promise<Build> {
  const { contract } = await import("../contract");
  const { handlers } = await import("../handlers");
  // Typed by the project's own contract, whose handlers TypeScript cannot widen to the
  // build's `AnyHandler` (their inputs are the contract's); the build reads them by id only.
  return prepareBuild(
    contract,
    handlers as Readonly<Record<string, AnyHandler | undefined>>,
    unhandledAnswers,
  );
}

/** The commands wrangler runs the build for that upload a Worker (it sets WRANGLER_COMMAND). */
const UPLOADS = new Set(["deploy", "versions upload"]);
/** A setting of UNHANDLED_OPERATIONS, in any [vars] table of wrangler.toml, that needs them. */
const ASKS_FOR_ANSWERS = /^\s*UNHANDLED_OPERATIONS\s*=\s*["'](?:examples|sandbox)["']/m;

/**
 * Whether the Worker is built with the answers of operations without a handler (the
 * examples' and the sandbox's: about a quarter of an imported Worker's script). Always for
 * `wrangler dev`, the tests and the type check, where `--var` or `.dev.vars` may ask for
 * them; for an upload (`wrangler deploy`, `npm run build`, `wrangler versions upload`) only
 * when wrangler.toml sets UNHANDLED_OPERATIONS to `examples` or `sandbox`, in its own
 * [vars] or an environment's. Otherwise such an operation answers 501 (RFC 9110 §15.6.2),
 * what a production deployment keeps; a setting changed on the dashboard alone is logged
 * and answered 501 too (src/engine/operations/unhandled.ts).
 */
export function unhandledAnswersWanted(
  command = process.env.WRANGLER_COMMAND,
  wranglerToml = WRANGLER_TOML,
): boolean {
  if (command === undefined || !UPLOADS.has(command)) return true;
  return existsSync(wranglerToml) && ASKS_FOR_ANSWERS.test(readFileSync(wranglerToml, "utf8"));
}

/** wrangler.toml setting, in any [vars] table, the loopback deliveries only `npm run dev` may make. */
const LOCAL_DELIVERY = /^\s*WEBHOOK_LOCAL_DELIVERY\s*=/m;

/**
 * Why an upload is refused, if it is: a wrangler.toml that sets WEBHOOK_LOCAL_DELIVERY,
 * which `npm run dev` sets with `--var` so that events reach the developer's own machine;
 * a deployment delivers to public https destinations only (OWASP SSRF Prevention).
 */
export function uploadRefusal(
  command = process.env.WRANGLER_COMMAND,
  wranglerToml = WRANGLER_TOML,
): string | undefined {
  if (command === undefined || !UPLOADS.has(command) || !existsSync(wranglerToml)) return undefined;
  return LOCAL_DELIVERY.test(readFileSync(wranglerToml, "utf8"))
    ? "build: wrangler.toml sets WEBHOOK_LOCAL_DELIVERY, which only npm run dev may set (a deployment delivers events to public https destinations only); remove it"
    : undefined;
}

/** STORE_TENANCY's settings, in any [vars] table of wrangler.toml. */
const TENANCY_SETTING = new RegExp(`^\\s*${TENANCY_VAR}\\s*=\\s*(.*)$`, "gm");

/**
 * Why the build refuses wrangler.toml's STORE_TENANCY, if it does: a setting that is none
 * of src/mocks/sandbox/tenancy.ts's would fail every store closed (a 500), so it never
 * reaches a Worker.
 */
export function tenancyRefusal(wranglerToml = WRANGLER_TOML): string | undefined {
  if (!existsSync(wranglerToml)) return undefined;
  for (const [, raw = ""] of readFileSync(wranglerToml, "utf8").matchAll(TENANCY_SETTING)) {
    const quoted = /^(["'])(.*)\1\s*(?:#.*)?$/.exec(raw.trim());
    const tenancy = tenancyOf(quoted ? quoted[2] : raw.trim());
    if ("refused" in tenancy)
      return `build: wrangler.toml sets ${TENANCY_VAR} = ${raw.trim().slice(0, 80)}; ${tenancy.refused}`;
  }
  return undefined;
}

/** Whether the module was written by an earlier build (of this contract or another). */
export function built(): boolean {
  return (
    existsSync(GENERATED) &&
    existsSync(GENERATED_EXPORTS) &&
    existsSync(join(SERVED_DIR, "index.js"))
  );
}
