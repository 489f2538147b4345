/**
 * What a Worker bundles follows what its contract declares: the shipped entry (an empty
 * contract) has neither the operation engine nor its libraries; a contract with operations
 * but no JWT scheme has the engine and Hono's regular-expression router, not jose; one with
 * a JWT scheme has jose. Bundled with esbuild as wrangler bundles a Worker (ES modules,
 * browser conditions), reading its metafile: which files went in, not their sizes (the
 * benchmark reports those).
 */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*"],
    metafile: true,
    minify: true,
    logLevel: "silent",
  });
  return Object.keys(result.metafile.inputs);
}

const has = (inputs: readonly string[], fragment: string) =>
  inputs.some((input) => input.includes(fragment));

describe("a Worker's bundle", () => {
  it("as shipped (an empty contract): no engine, no zod converter, no jose, the trie router only", async () => {
    const inputs = await inputsOf("src/index.ts");
    expect(has(inputs, "src/engine/")).toBe(false);
    expect(has(inputs, "node_modules/jose/")).toBe(false);
    expect(has(inputs, "reg-exp-router")).toBe(false);
    expect(has(inputs, "trie-router")).toBe(true);
  });

  it("with operations but no JWT scheme (the bench's fixture operation): the engine, not jose", async () => {
    const inputs = await inputsOf("test/bench/variants/service-operation.ts");
    expect(has(inputs, "src/engine/operations/")).toBe(true);
    expect(has(inputs, "reg-exp-router")).toBe(true);
    expect(has(inputs, "node_modules/jose/")).toBe(false);
  });

  it("with a JWT scheme (the FIXTURE vocabulary Worker): jose", async () => {
    const inputs = await inputsOf("test/tools/fixture-worker.ts");
    expect(has(inputs, "node_modules/jose/")).toBe(true);
  });
});
