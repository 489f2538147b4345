/**
 * The build skips itself when nothing it reads changed since a build that succeeded
 * (src/build/stamp.ts): `wrangler dev` runs it twice when it starts, and an imported API's
 * build takes seconds. What it reads is every file under src/ but its own output, the
 * lockfile, wrangler.toml and whether it makes the answers of unhandled operations; any
 * build removes the stamp first, so a refused build is never taken for the one before it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputsDigest, stamp, unchanged } from "../../src/build/stamp";
import { buildContract } from "../../src/build/write";

const root = mkdtempSync(join(tmpdir(), "build-stamp-"));
const put = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};
put("src/contract/endpoints.ts", "export const operations = {};\n");
put("src/generated/contract.ts", "// FIXTURE output\n");
put("package-lock.json", "{}\n");
put("wrangler.toml", 'name = "fixture"\n');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the build's inputs", () => {
  it("digest the same while nothing the build reads changes, its own output aside", () => {
    const before = inputsDigest(root, true);
    put("src/generated/contract.ts", "// FIXTURE output, written again\n");
    expect(inputsDigest(root, true)).toBe(before);
  });

  it.each([
    ["a contract file", "src/contract/endpoints.ts", "export const operations = { a: 1 };\n"],
    ["a new file under src/", "src/handlers.ts", "export const handlers = {};\n"],
    ["the lockfile", "package-lock.json", '{"lockfileVersion": 3}\n'],
    ["wrangler.toml", "wrangler.toml", 'name = "fixture-2"\n'],
  ])("digest differently once %s changes", (_what, path, text) => {
    const before = inputsDigest(root, true);
    put(path, text);
    expect(inputsDigest(root, true)).not.toBe(before);
  });

  it("digest differently for an upload that leaves out the answers of unhandled operations", () => {
    expect(inputsDigest(root, false)).not.toBe(inputsDigest(root, true));
  });

  it("are unchanged only against the stamp of the same digest", () => {
    const file = join(root, ".wrangler/build-inputs.sha256");
    expect(unchanged(file, "a")).toBe(false);
    stamp(file, "a");
    expect(unchanged(file, "a")).toBe(true);
    expect(unchanged(file, "b")).toBe(false);
  });
});

describe("a build", () => {
  it("removes the stamp first, so what a later build skips to is what a build that succeeded wrote", async () => {
    // A stamp of its own: the project's is written by the build command other tests run
    // at the same time.
    const file = join(root, ".wrangler/build-inputs.sha256");
    stamp(file, "FIXTURE digest");
    await buildContract(file);
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});
