/**
 * The seam, checked over the import graph of `src/` (read with TypeScript's own
 * pre-processor, type-only imports included): imports between the top-level parts point
 * one way (engine → platform → domain; contract → domain), no folder at any depth is in a
 * cycle with a sibling, and what the Worker loads imports only its runtime packages; the
 * build (`src/build/`, Node-only) is imported by nothing the Worker loads.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = "src";

/** Which top-level parts of `src/` each part may import; anything else runs backwards. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  "contract-language/": [],
  "contract/": ["contract-language/"],
  "platform/": ["contract-language/"],
  "engine/": ["platform/", "contract-language/"],
  "serve-app.ts": ["platform/", "contract-language/"],
  "app.ts": ["serve-app.ts", "platform/", "contract-language/"],
  "handlers.ts": ["contract/", "contract-language/"],
  // What the build wrote (src/build): the documents, and the engine parts the contract needs.
  "generated/": ["engine/", "platform/"],
  // An entry that builds the app in the Worker (`createApp`, with the converter) still works.
  "index.ts": [
    "serve-app.ts",
    "generated/",
    "app.ts",
    "contract/",
    "handlers.ts",
    "engine/",
    "contract-language/",
  ],
  // The build, in Node: it checks the contract and writes generated/; no Worker module imports it.
  "build/": ["app.ts", "contract/", "handlers.ts", "engine/", "platform/", "contract-language/"],
};

/** The Node-only part of `src/`: the build. It loads Node's modules; nothing the Worker loads imports it. */
const NODE_ONLY = "build/";

/** Packages the Worker may load: its runtime dependencies and the runtime's own modules. */
const RUNTIME_PACKAGES = /^(hono|zod|jose|fast-xml-parser)(\/|$)|^cloudflare:/;

type Edge = readonly [from: string, to: string];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}

/** Every import of every file under `src/`: relative ones as files, packages as specifiers. */
function importGraph(): { files: Edge[]; packages: Edge[] } {
  const files: Edge[] = [];
  const packages: Edge[] = [];
  for (const file of sources(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of info.importedFiles) {
      const from = relative(SRC, file);
      if (!fileName.startsWith(".")) {
        packages.push([from, fileName]);
        continue;
      }
      const target = resolveImport(file, fileName);
      files.push([from, target ? relative(SRC, target) : `unresolved:${fileName}`]);
    }
  }
  return { files, packages };
}

/** The top-level part of `src/` a file belongs to: `engine/` for `engine/x/y.ts`, or the file itself. */
function partOf(path: string): string {
  const slash = path.indexOf("/");
  return slash === -1 ? path : path.slice(0, slash + 1);
}

/** Imports between top-level parts that the table above does not allow. */
function backwardImports(edges: readonly Edge[]): string[] {
  const found = new Set<string>();
  for (const [from, to] of edges) {
    const [a, b] = [partOf(from), partOf(to)];
    if (a === b) continue;
    if (!(ALLOWED[a] ?? []).includes(b)) found.add(`${a} → ${b} (${from} imports ${to})`);
  }
  return [...found].sort();
}

/**
 * Cycles among siblings, at every depth: in each folder, its entries (files and
 * sub-folders) must import each other without a cycle. Returns one line per cycle found.
 */
function siblingCycles(edges: readonly Edge[]): string[] {
  const graph = new Map<string, Map<string, Set<string>>>();
  for (const [from, to] of edges) {
    const a = from.split("/");
    const b = to.split("/");
    let i = 0;
    while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i += 1;
    const folder = a.slice(0, i).join("/");
    const [x, y] = [a[i] ?? "", b[i] ?? ""];
    if (x === y) continue;
    const siblings = graph.get(folder) ?? new Map<string, Set<string>>();
    siblings.set(x, (siblings.get(x) ?? new Set()).add(y));
    graph.set(folder, siblings);
  }
  const cycles: string[] = [];
  for (const [folder, siblings] of graph) {
    const state = new Map<string, "open" | "done">();
    const visit = (node: string, path: string[]): void => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "open") {
        const loop = [...path.slice(path.indexOf(node)), node];
        cycles.push(`${folder || "src"}: ${loop.join(" → ")}`);
        return;
      }
      state.set(node, "open");
      for (const next of siblings.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, "done");
    };
    for (const node of siblings.keys()) visit(node, []);
  }
  return cycles.sort();
}

describe("the import graph of src/", () => {
  const { files, packages } = importGraph();

  it("resolves every relative import (the graph is complete)", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter(([, to]) => to.startsWith("unresolved:"))).toEqual([]);
  });

  it("has no backward import between its top-level parts (engine → platform → domain; contract → domain)", () => {
    expect(backwardImports(files)).toEqual([]);
  });

  it("has no cycle between sibling files or folders, at any depth", () => {
    expect(siblingCycles(files)).toEqual([]);
  });

  it("loads no package but the runtime's (no Node module, no test code, no tooling)", () => {
    expect(
      packages.filter(
        ([from, name]) => !from.startsWith(NODE_ONLY) && !RUNTIME_PACKAGES.test(name),
      ),
    ).toEqual([]);
  });

  it("has the build's output in the graph (the Worker entry imports what the build wrote)", () => {
    expect(files).toContainEqual(["index.ts", "generated/contract.ts"]);
  });
});

describe("the check can fail", () => {
  it("reports a backward import and an import into an unknown part", () => {
    expect(
      backwardImports([
        ["contract-language/define-handlers.ts", "platform/env.ts"],
        ["platform/openapi.ts", "engine/limits/plan.ts"],
        ["engine/index.ts", "platform/engine-seam.ts"],
      ]),
    ).toEqual([
      "contract-language/ → platform/ (contract-language/define-handlers.ts imports platform/env.ts)",
      "platform/ → engine/ (platform/openapi.ts imports engine/limits/plan.ts)",
    ]);
  });

  it("reports a cycle between folders, and between files of one folder", () => {
    expect(
      siblingCycles([
        ["engine/limits/plan.ts", "engine/openapi/operations.ts"],
        ["engine/openapi/operations.ts", "engine/limits/startup-checks.ts"],
        ["platform/a.ts", "platform/b.ts"],
        ["platform/b.ts", "platform/a.ts"],
        ["engine/index.ts", "engine/limits/plan.ts"],
      ]),
    ).toEqual(["engine: limits → openapi → limits", "platform: a.ts → b.ts → a.ts"]);
  });
});
