/**
 * The contract as the Worker serves it: src/contract's modules as JavaScript, with the text
 * that only documents the interface left out, written to src/generated/served-contract/
 * for src/index.ts. The build makes every document from the declared contract, so the
 * Worker reads none of that text, yet its script would carry it all the same, and every
 * byte of script is parsed at each cold start and counts against the plan's script size
 * (Workers limits). share-schemas.ts then shares and defers the schemas. The module's types
 * are the declared contract's (`index.d.ts` re-exports them). What is left out, and why:
 * src/engine/README.md, "What the build writes".
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The declared contract's modules. */
const CONTRACT_DIR = fileURLToPath(new URL("../contract", import.meta.url));
/** Where the served copy is written (gitignored, with the rest of src/generated). */
export const SERVED_DIR = fileURLToPath(new URL("../generated/served-contract", import.meta.url));

const HEADER = "// Written by src/build/served-contract.ts from src/contract: do not edit.\n";

/** The declared contract's types, for the copy: only text the Worker never reads differs. */
const declarations = (fromDir: string, toDir: string) =>
  `${HEADER}export * from "${relative(toDir, fromDir).replaceAll("\\", "/")}";\n`;

/** The transforms' own sources: a change to one makes every module again. */
const TRANSFORMS = ["./strip-documentation.ts", "./share-schemas.ts"].map((name) =>
  fileURLToPath(new URL(name, import.meta.url)),
);

/**
 * Writes the served copy of the contract in `fromDir` to `toDir`: each `.ts` module as
 * `.js`, and an `index.d.ts` that gives it the declared contract's types. A module whose
 * source, setting and transform are those of the copy already there is not made again (its
 * first line records their digest), so a build that changes no contract module does not
 * load TypeScript. What an earlier build wrote and the contract no longer has is removed.
 */
export async function writeServedContract(
  keepExamples: boolean,
  fromDir = CONTRACT_DIR,
  toDir = SERVED_DIR,
): Promise<void> {
  const modules = readdirSync(fromDir, { recursive: true, encoding: "utf8" }).filter(
    (name) => name.endsWith(".ts") && !name.endsWith(".d.ts"),
  );
  const transform = TRANSFORMS.map((path) => readFileSync(path, "utf8")).join("\n");
  const files = new Map<string, string>([["index.d.ts", declarations(fromDir, toDir)]]);
  let strip: typeof import("./strip-documentation") | undefined;
  for (const name of modules) {
    const file = join(fromDir, name);
    const source = readFileSync(file, "utf8");
    const digest = createHash("sha256")
      .update(`${keepExamples}\n${transform}\n${source}`)
      .digest("hex");
    const header = `${HEADER.trimEnd()} (${digest})\n`;
    const copy = join(toDir, name.replace(/\.ts$/, ".js"));
    const previous = existsSync(copy) ? readFileSync(copy, "utf8") : undefined;
    if (previous?.startsWith(header)) {
      files.set(name.replace(/\.ts$/, ".js"), previous);
      continue;
    }
    strip ??= await import("./strip-documentation");
    files.set(
      name.replace(/\.ts$/, ".js"),
      header + strip.servedModule(source, file, fromDir, toDir, keepExamples),
    );
  }
  if (existsSync(toDir))
    for (const name of readdirSync(toDir, { recursive: true, encoding: "utf8" }))
      if (name.includes(".") && !files.has(name)) rmSync(join(toDir, name), { force: true });
  for (const [name, text] of files) {
    const path = join(toDir, name);
    if (existsSync(path) && readFileSync(path, "utf8") === text) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
