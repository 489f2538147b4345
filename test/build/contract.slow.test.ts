/**
 * The build refuses a contract that cannot work (src/build/contract.ts), as a user meets it:
 * `npm run build:contract` and `npm run build` (wrangler's dry run, which runs `[build]` as
 * `wrangler deploy` does) in a copy of the project whose contract is a FIXTURE that the
 * compiler accepts and the start-up checks refuse. Each exits 1 with the line `createApp`
 * throws for the same contract, no bundle is written, and what an earlier build wrote is
 * replaced by a module that throws that line when loaded.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { defineContract } from "../../src/contract-language/define-contract";
import { copyProject } from "../../src/importer/copy-project";

const SLOW = 300_000;

/** A FIXTURE operation inside the platform's own prefix: it compiles, and cannot be served. */
const BROKEN_ENDPOINTS = `import type { Operation } from "../contract-language/contract";

export const operations = {
  fixtureInsideService: {
    method: "GET",
    path: "/_service/fixture",
    responses: { 200: { description: "FIXTURE" } },
  },
} as const satisfies Readonly<Record<string, Operation>>;
`;

/** The line createApp throws for the same contract, in process. */
function createAppRefusal(): string {
  const contract = defineContract({
    operations: {
      fixtureInsideService: {
        method: "GET",
        path: "/_service/fixture",
        responses: { 200: { description: "FIXTURE" } },
      },
    },
  });
  try {
    createApp(contract, { engine: BUILD_ENGINE });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("createApp accepted the FIXTURE contract");
}

describe("the build, on a contract that cannot work", () => {
  const copy = copyProject("build-refusal-", resolve("."), undefined, { blank: true });
  const generated = join(copy, "src/generated/contract.ts");
  const npm = (...args: string[]) =>
    spawnSync("npm", ["run", "--silent", ...args], { cwd: copy, encoding: "utf8" });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it(
    "writes the Worker's documents while the contract works, and refuses it with createApp's line once it cannot",
    () => {
      const built = npm("build:contract");
      expect(built.status, built.stderr).toBe(0);
      // The document, as the JSON text the Worker serves, among its static assets; the
      // module names it there.
      const document = join(copy, "src/generated/assets/openapi/current.json");
      expect(readFileSync(document, "utf8").startsWith('{"openapi":"3.1.1"')).toBe(true);
      expect(readFileSync(generated, "utf8")).toContain('"asset": "/openapi/current.json"');

      writeFileSync(join(copy, "src/contract/endpoints.ts"), BROKEN_ENDPOINTS);
      const refused = npm("build:contract");
      const expected = `the contract cannot be served: ${createAppRefusal()}`;
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim().split("\n").at(-1)).toBe(expected);
      // Nothing the earlier build wrote stays: the module throws the same line when loaded.
      const module = readFileSync(generated, "utf8");
      expect(module.includes('"openapi"')).toBe(false);
      expect(existsSync(document)).toBe(false);
      expect(module).toContain(`throw new Error(${JSON.stringify(expected)})`);
    },
    SLOW,
  );

  it(
    "npm run build (wrangler deploy's dry run) stops at the build: no bundle is written",
    () => {
      rmSync(join(copy, "dist"), { recursive: true, force: true });
      const deploy = npm("build");
      expect(deploy.status).not.toBe(0);
      expect(`${deploy.stdout}${deploy.stderr}`).toContain(
        `the contract cannot be served: ${createAppRefusal()}`,
      );
      expect(existsSync(join(copy, "dist/index.js"))).toBe(false);
    },
    SLOW,
  );
});
