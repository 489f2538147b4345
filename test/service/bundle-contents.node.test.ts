/**
 * What a Worker bundles follows what its contract declares: the shipped entry has the
 * operation engine, jose and fast-xml-parser only when the shipped contract needs them; a
 * contract with operations but no JWT scheme and no XML media type has the engine and
 * Hono's regular-expression router, not jose nor fast-xml-parser; one with a JWT scheme has
 * jose, and one with an XML media type (RFC 7303) has fast-xml-parser. Bundled with esbuild as wrangler bundles a Worker (ES modules,
 * browser conditions), reading its metafile: which files went in, not their sizes (the
 * benchmark reports those).
 */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { contract } from "../../src/contract";
import { type Contract, declaresXml } from "../../src/contract-language/contract";
import { catalogued, ENGINE_PROBLEM_SLUGS } from "../../src/contract-language/problem-catalogue";

async function bundleOf(entry: string): Promise<{ inputs: string[]; text: string }> {
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
  return {
    inputs: Object.keys(result.metafile.inputs),
    text: result.outputFiles.map((file) => file.text).join(""),
  };
}

async function inputsOf(entry: string): Promise<string[]> {
  return (await bundleOf(entry)).inputs;
}

const has = (inputs: readonly string[], fragment: string) =>
  inputs.some((input) => input.includes(fragment));

describe("a Worker's bundle", () => {
  it("as shipped: the engine, its router and jose exactly when the shipped contract needs them", async () => {
    // Derived from the shipped contract, so this holds for the empty one and for a revision.
    const shipped: Contract = contract;
    const { purpose: _platformOnly, versioning, ...parts } = shipped;
    const needsEngine =
      versioning !== undefined || Object.values(parts).some((part) => Object.keys(part).length > 0);
    const needsJwt = Object.values(shipped.securitySchemes).some((scheme) => "jwt" in scheme);
    const { inputs, text } = await bundleOf("src/index.ts");
    expect(has(inputs, "src/engine/")).toBe(needsEngine);
    // The problem catalogue is shared, but only the entries a Worker uses are bundled:
    // the engine's problem pages ship with the engine.
    for (const slug of ENGINE_PROBLEM_SLUGS)
      expect(text.includes(`${catalogued(slug)?.description.slice(0, 40)}`), slug).toBe(
        needsEngine,
      );
    expect(has(inputs, "reg-exp-router")).toBe(needsEngine);
    expect(has(inputs, "node_modules/jose/")).toBe(needsJwt);
    expect(has(inputs, "node_modules/fast-xml-parser/")).toBe(declaresXml(shipped));
    expect(has(inputs, "src/engine/xml/")).toBe(declaresXml(shipped));
    expect(has(inputs, "trie-router")).toBe(true);
  });

  it("with operations but no JWT scheme and no XML (the bench's fixture operation): the engine, not jose nor fast-xml-parser", async () => {
    const inputs = await inputsOf("test/tools/bench/variants/service-operation.ts");
    expect(has(inputs, "src/engine/operations/")).toBe(true);
    expect(has(inputs, "reg-exp-router")).toBe(true);
    expect(has(inputs, "node_modules/jose/")).toBe(false);
    expect(has(inputs, "node_modules/fast-xml-parser/")).toBe(false);
    expect(has(inputs, "src/engine/xml/")).toBe(false);
  });

  it("with a JWT scheme and an XML media type (the FIXTURE vocabulary Worker): jose and fast-xml-parser", async () => {
    const inputs = await inputsOf("test/tools/fixture-worker.ts");
    expect(has(inputs, "node_modules/jose/")).toBe(true);
    expect(has(inputs, "node_modules/fast-xml-parser/")).toBe(true);
    expect(has(inputs, "src/engine/xml/")).toBe(true);
  });
});
