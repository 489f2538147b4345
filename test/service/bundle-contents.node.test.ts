/**
 * What a Worker bundles follows what its contract declares: the shipped entry has the
 * operation engine, jose and fast-xml-parser only when the shipped contract needs them; a
 * contract with operations but no JWT scheme and no XML media type has the engine and
 * Hono's regular-expression router, not jose nor fast-xml-parser; one with a JWT scheme has
 * jose, and one with an XML media type (RFC 7303) has fast-xml-parser. Bundled with esbuild as wrangler bundles a Worker (ES modules,
 * browser conditions), reading its metafile: which files went in, not their sizes (the
 * benchmark reports those). And none of the importer (src/importer/, Node-only) ships: the
 * bundle `wrangler deploy --dry-run` makes has no module of it, none of the packages only
 * it loads, and none of the words only it writes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("the examples' value generator only in the engine the build gives while an operation has no handler", async () => {
    const generator = "src/engine/examples/generate.ts";
    expect(has(await inputsOf("src/engine/serving.ts"), generator)).toBe(false);
    expect(has(await inputsOf("src/engine/serving-examples.ts"), generator)).toBe(true);
  });

  it("with a JWT scheme and an XML media type (the FIXTURE vocabulary Worker): jose and fast-xml-parser", async () => {
    const inputs = await inputsOf("test/tools/fixture-worker.ts");
    expect(has(inputs, "node_modules/jose/")).toBe(true);
    expect(has(inputs, "node_modules/fast-xml-parser/")).toBe(true);
    expect(has(inputs, "src/engine/xml/")).toBe(true);
  });
});

/** The deploy bundle exactly as `wrangler deploy` would upload it, with esbuild's metafile. */
function deployBundle(): { inputs: string[]; code: string } {
  const dir = mkdtempSync(join(tmpdir(), "bundle-importer-"));
  try {
    const result = spawnSync(
      "npx",
      ["wrangler", "deploy", "--dry-run", "--outdir", dir, "--metafile", join(dir, "meta.json")],
      { encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    if (result.status !== 0) throw new Error(`wrangler deploy --dry-run failed: ${result.stderr}`);
    const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as {
      inputs: Record<string, unknown>;
    };
    const code = readdirSync(dir)
      .filter((name) => name.endsWith(".js"))
      .map((name) => readFileSync(join(dir, name), "utf8"))
      .join("\n");
    return { inputs: Object.keys(meta.inputs), code };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What only the importer loads: its own modules and the packages no Worker module imports. */
const IMPORTER_ONLY = [
  "src/importer/",
  "node_modules/@apidevtools/json-schema-ref-parser/",
  "node_modules/js-yaml/",
  "node_modules/undici/",
  "node_modules/typescript/",
];

/** Words only the importer's code holds (src/importer/names.ts, platform-parts.ts, changes.ts, import.ts). */
const IMPORTER_WORDS = [
  "x-renamed-from",
  "x-import-errors",
  "Files this import wrote",
  "IMPORT-REPORT",
  "import-backup",
  "import-last.log",
];

describe("the deploy bundle (wrangler deploy --dry-run)", () => {
  it("has none of the importer: no module of it, no package only it loads, no word only it writes", {
    timeout: 180_000,
  }, () => {
    const { inputs, code } = deployBundle();
    // It is the Worker's bundle: the entry and Hono are in it, so the absences below mean something.
    expect(has(inputs, "src/index.ts")).toBe(true);
    expect(has(inputs, "node_modules/hono/")).toBe(true);
    for (const fragment of IMPORTER_ONLY)
      expect(inputs.filter((i) => i.includes(fragment))).toEqual([]);
    // Words of the importer's own code; one the contract's data holds (an imported contract
    // keeps x-renamed-from in a renamed schema's metadata) is the contract's, so not looked for.
    const contractText = readdirSync("src/contract")
      .filter((name) => name.endsWith(".ts"))
      .map((name) => readFileSync(join("src/contract", name), "utf8"))
      .join("\n");
    const words = IMPORTER_WORDS.filter((word) => !contractText.includes(word));
    expect(words.length).toBeGreaterThan(3);
    for (const word of words) expect(code.includes(word), word).toBe(false);
  });
});
