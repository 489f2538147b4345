/**
 * What the build makes of a contract (src/build/contract.ts): the contract checked, with the
 * engine parts it needs (and only those), its documents made and tagged, and the module the
 * Worker entry imports them from.
 */
import { toJSONSchema } from "zod/mini";
import { type AppOptions, type PreparedContract, prepareContract } from "../app";
import { type Contract, declaresXml } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import { needsEngine, needsJwt } from "../contract-language/needs";
import { OPERATION_ENGINE } from "../engine";
import { JWT_VERIFIER } from "../engine/jwt";
import { needsSandbox } from "../engine/sandbox/place";
import { SANDBOX_CLASS } from "../engine/sandbox/records";
import { XML_CODEC } from "../engine/xml";
import type { BuiltDocuments, ServedDocument } from "../platform/documents";
import { entityTag } from "../platform/etag";

/** The engine parts a Worker may be given, each with the module that exports it. */
const PARTS = {
  engine: { name: "SERVING_ENGINE", from: "../engine/serving" },
  jwt: { name: "JWT_VERIFIER", from: "../engine/jwt" },
  xml: { name: "XML_CODEC", from: "../engine/xml" },
} as const;

type Part = keyof typeof PARTS;

export interface Build {
  /** The parts the contract needs, which the Worker is given. */
  readonly parts: readonly Part[];
  readonly built: BuiltDocuments;
}

/** The parts `contract` needs: exactly those the option types of `serveApp` require. */
export function neededParts(contract: Contract): Part[] {
  return [
    ...(needsEngine(contract) ? (["engine"] as const) : []),
    ...(needsJwt(contract) ? (["jwt"] as const) : []),
    ...(declaresXml(contract) ? (["xml"] as const) : []),
  ];
}

/** A document with its strong entity tag (RFC 9110 §8.8.3), as the Worker would compute it. */
async function tagged(document: ServedDocument): Promise<ServedDocument> {
  return { body: document.body, etag: await entityTag(document.body) };
}

/**
 * Checks `contract` as `createApp` does (it throws the same line for a contract that cannot
 * work) with what it needs, and makes everything the Worker serves of it.
 */
export async function prepareBuild(
  contract: Contract,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
): Promise<Build> {
  const parts = neededParts(contract);
  const options = {
    handlers,
    ...(parts.includes("engine") ? { engine: OPERATION_ENGINE, jsonSchema: toJSONSchema } : {}),
    ...(parts.includes("jwt") ? { jwt: JWT_VERIFIER } : {}),
    ...(parts.includes("xml") ? { xml: XML_CODEC } : {}),
  } as AppOptions<Contract>;
  const prepared: PreparedContract = prepareContract(contract, options);
  const { documents } = prepared;
  const current = documents.openapi(undefined);
  if (!current) throw new Error("the contract has no OpenAPI document");
  const versions: Record<string, ServedDocument> = {};
  for (const version of prepared.versions) {
    const document = documents.openapi(version);
    if (document) versions[version] = await tagged(document);
  }
  const { report, page } = documents.report();
  return {
    parts,
    built: {
      openapi: { current: await tagged(current), versions },
      report,
      reportPage: page,
      problemPages: Object.fromEntries(documents.problemPages),
      xmlSchemas: prepared.xmlSchemas,
    },
  };
}

/** Each part's import, and each part as a member of `BUILT`. */
function partsCode(parts: readonly Part[]): { imports: string; given: string } {
  return {
    imports: parts
      .map((part) => `import { ${PARTS[part].name} } from "${PARTS[part].from}";\n`)
      .join(""),
    given: parts.map((part) => `  ${part}: ${PARTS[part].name},\n`).join(""),
  };
}

/** The generated module: the parts' imports, and what the build made, as data. */
export function generatedModule(build: Build): string {
  const { imports, given } = partsCode(build.parts);
  return `// Written by src/build/contract.ts (npm run build:contract) from src/contract: do not edit.
// \`npm run build\`, \`wrangler dev\`, \`npm test\` and \`npm run typecheck\` write it again.
${imports}import type { BuiltDocuments } from "../platform/documents";

const built: BuiltDocuments = ${JSON.stringify(build.built, null, 1)};

/** What src/index.ts passes to serveApp: what the build made, and the parts the contract needs. */
export const BUILT = {
  built,
${given}} as const;
`;
}

/**
 * The module of a refused contract: loading it throws the build's line, so nothing bundled
 * from it can start, while the entry still type-checks (the parts the contract needs are
 * there, so `wrangler types` still sees the Worker's exports).
 */
export function refusedModule(parts: readonly Part[], reason: string): string {
  const { imports, given } = partsCode(parts);
  return `// Written by src/build/contract.ts (npm run build:contract), which refused the contract:
// loading this module throws the same line, so no Worker starts from it.
${imports}import type { BuiltDocuments } from "../platform/documents";

const refused = (): never => {
  throw new Error(${JSON.stringify(reason)});
};

export const BUILT = {
  built: refused() as BuiltDocuments,
${given}} as const;
`;
}

/**
 * What the Worker entry re-exports: the sandbox's Durable Object class exactly when the
 * contract places an operation in the sandbox, which is when wrangler.toml's generated block
 * declares its binding (test/support/deployment.ts); a binding whose class the entry does
 * not export fails to deploy, and a class no binding names is not shipped.
 */
export function entryExports(contract: Contract): string {
  const header = `// Written by src/build/contract.ts (npm run build:contract) from src/contract: do not edit.
// The classes the Worker's bindings name, re-exported by src/index.ts.
`;
  return needsSandbox(contract)
    ? `${header}export { ${SANDBOX_CLASS} } from "../engine/sandbox/durable-object";\n`
    : `${header}export {};\n`;
}
