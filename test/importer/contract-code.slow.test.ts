/**
 * The code the importer generates (src/importer/contract-code.ts), compiled and linked as
 * the project's own: every case the importer's fast tests wrote under test/artifacts/imports
 * (test/support/import-case.ts) compiles under the project's strict tsconfig and passes Biome
 * once formatted. It spawns tsc and Biome, so it runs in the slow lane, after the fast one
 * has written the cases; the fast Node run clears the folder first, so what is compiled is
 * that run's cases.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TSC } from "../../src/importer/stage";
import { CASES } from "../support/import-case";

/** Each case directory with a contract the import wrote (a refused document writes none). */
function caseDirectories(): string[] {
  if (!existsSync(CASES)) return [];
  return readdirSync(CASES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(CASES, entry.name))
    .filter((dir) => existsSync(join(dir, "src/contract/index.ts")))
    .sort();
}

describe("the generated code", () => {
  it("of every case compiles under the project's strict tsconfig, and passes Biome once formatted", () => {
    const dirs = caseDirectories();
    if (dirs.length === 0)
      throw new Error(
        "no imported cases under test/artifacts/imports: run the fast lane first (npm test)",
      );
    writeFileSync(
      join(CASES, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.json",
        compilerOptions: { noEmit: true },
        include: [
          ...dirs.map((dir) => `${dir}/src/contract`),
          "../../../src/worker-configuration.d.ts",
        ],
        exclude: [],
      }),
    );
    const tsc = spawnSync(TSC[0], [...TSC.slice(1), "-p", join(CASES, "tsconfig.json")], {
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).not.toMatch(/error TS/);
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const files = dirs.flatMap((dir) =>
      readdirSync(join(dir, "src/contract")).map((f) => join(dir, "src/contract", f)),
    );
    // As the importer does: Biome's layout of long generated lines settles in a second pass.
    for (let pass = 0; pass < 2; pass++)
      spawnSync("npx", ["biome", "check", "--write", "--vcs-use-ignore-file=false", ...files]);
    const biome = spawnSync(
      "npx",
      ["biome", "ci", "--colors=off", "--vcs-use-ignore-file=false", ...files],
      { encoding: "utf8" },
    );
    expect(biome.status, biome.stdout + biome.stderr).toBe(0);
    // Warnings too: a document's `${` once made noTemplateCurlyInString warn.
    expect(biome.stdout + biome.stderr).not.toMatch(/Found \d+ warning/);
  }, 240_000);
});
