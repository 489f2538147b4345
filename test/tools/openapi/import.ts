/**
 * `npm run contract:import -- <file> [--force]`: takes an OpenAPI 3.0.x or 3.1.x document
 * (YAML or JSON; `$ref`s to files beside it are bundled in) and writes the contract:
 * src/contract's part files (zod/mini), SPECIFICATION.md's sections for the parts it gives,
 * src/contract/IMPORT-REPORT.md (every finding with its JSON Pointer), the Worker entry
 * the contract needs, and, through `npm run contract:deployment`, what wrangler.toml and
 * .dev.vars.example must list (secret names with placeholders, never a value). Everything
 * it writes is formatted with Biome, and the app is started once to prove the contract
 * serves. A contract that already declares something is left alone unless `--force`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { SPEC_PARTS } from "../../../src/domain/parts";
import { importContract } from "./contract-code";
import {
  contractFiles,
  entryFile,
  findingLine,
  handlersFile,
  reportText,
  specificationText,
  type WrittenFile,
} from "./emit";
import { readOpenApi } from "./source";

const args = process.argv.slice(2);
const force = args.includes("--force");
const file = args.find((arg) => !arg.startsWith("--"));
if (!file) {
  console.error("usage: npm run contract:import -- <openapi.yaml|openapi.json> [--force]");
  process.exit(2);
}

const { contract } = await import("../../../src/contract");
const declared = SPEC_PARTS.filter((part) => part.count(contract) > 0);
if (declared.length > 0 && !force) {
  console.error(
    `src/contract already declares parts ${declared.map((p) => p.number).join(", ")}: nothing written (add --force to replace them)`,
  );
  process.exit(1);
}

/** A progress line on a terminal; a line per quarter otherwise. */
const interactive = process.stderr.isTTY === true;
let lastQuarter = "";
const progress = (what: string, done: number, total: number) => {
  if (interactive) {
    process.stderr.write(`\rimport: ${what} ${done}/${total}${done === total ? "\n" : ""}`);
    return;
  }
  const quarter = `${what}:${Math.floor((done / total) * 4)}`;
  if (
    quarter !== lastQuarter &&
    (done === total || done % Math.max(1, Math.ceil(total / 4)) === 0)
  ) {
    lastQuarter = quarter;
    console.error(`import: ${what} ${done}/${total}`);
  }
};

console.error(`import: reading ${file}`);
const source = await readOpenApi(file).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
let result: ReturnType<typeof importContract>;
try {
  result = importContract(source, { progress });
} catch (error) {
  console.error(`import: ${(error as Error).message}`);
  process.exit(1);
}

const needsEngine = [...result.parts.keys()].some((name) => name !== "purpose");
const files: WrittenFile[] = [
  ...contractFiles(result, source),
  {
    path: "src/contract/SPECIFICATION.md",
    text: specificationText(readFileSync("src/contract/SPECIFICATION.md", "utf8"), result, source),
  },
  { path: "src/contract/IMPORT-REPORT.md", text: reportText(result, source) },
  { path: "src/index.ts", text: entryFile(needsEngine, result.jwt) },
];
// The handlers are the service's own code: rewritten only while there is none.
const handlers = readFileSync("src/handlers.ts", "utf8");
if (/defineHandlers\(contract, \{\}\)/.test(handlers))
  files.push({ path: "src/handlers.ts", text: handlersFile(result.operations) });
else
  console.error(
    "import: src/handlers.ts has handlers: left as it is (a handler of an operation the document no longer has will not compile)",
  );
for (const { path, text } of files) writeFileSync(path, text);

const run = (command: string, commandArgs: string[]) =>
  spawnSync(command, commandArgs, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const code = files.map((f) => f.path);
// Biome's layout of very long lines settles in a second pass.
let biome = run("npx", ["biome", "check", "--write", ...code]);
if (biome.status === 0) biome = run("npx", ["biome", "check", "--write", ...code]);
if (biome.status !== 0) {
  console.error(`import: Biome could not format what was written:\n${biome.stdout}${biome.stderr}`);
  process.exit(1);
}
const deployment = run("npx", ["tsx", "test/tools/contract-deployment.ts"]);
if (deployment.status !== 0) {
  console.error(`import: writing the deployment files failed:\n${deployment.stderr}`);
  process.exit(1);
}
const served = run("npx", ["tsx", "test/tools/served-document.ts"]);
if (served.status !== 0) {
  console.error(`import: ${served.stderr.trim()}`);
  process.exit(1);
}

for (const finding of result.findings) console.log(findingLine(finding));
const count = (kind: string) => result.findings.filter((f) => f.kind === kind).length;
console.log(
  `\n${result.findings.length} findings (${count("lost")} not carried, ${count("not-enforced")} not enforced, ${count("changed")} carried differently): src/contract/IMPORT-REPORT.md`,
);
console.log(`\nWrote the contract from ${file} (OpenAPI ${source.openapi}):`);
for (const part of SPEC_PARTS) {
  const written = result.parts.get(part.name);
  const what =
    part.name === "states"
      ? "left as it was (OpenAPI does not carry it)"
      : (written?.summary ?? "nothing in the document");
  console.log(`  ${String(part.number).padStart(2)}. ${part.title.padEnd(28)} ${what}`);
}
console.log(
  `and ${files
    .filter((f) => !f.path.startsWith("src/contract/") || f.path.endsWith(".md"))
    .map((f) => f.path)
    .join(", ")}, wrangler.toml's generated block, .dev.vars.example.`,
);
console.log(`The app starts with it. Next: npm test; npm run contract:diff -- ${file}`);
