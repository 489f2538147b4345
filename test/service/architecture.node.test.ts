/**
 * The seam, checked over the import graph of `src/` (read with TypeScript's own
 * pre-processor, type-only and dynamic imports included): imports between the top-level
 * rooms point one way (engine → platform → contract-language; contract →
 * contract-language), no folder at any depth is in a cycle with a sibling, and what the
 * Worker loads imports only its runtime packages. The importer (`src/importer/`, Node-only)
 * reads the Worker's code through its public entries only, and no Worker module imports it;
 * nor does any import the build (`src/build/`, Node-only), while the Worker entry imports
 * what the build wrote (`src/generated/`). And the tests mirror their sources: every test
 * file outside the exempt folders is at the path of the file it tests (test/README.md).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = "src";

/** Which top-level rooms of `src/` each room may import; anything else runs backwards. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  "contract-language/": [],
  "contract/": ["contract-language/"],
  "platform/": ["contract-language/"],
  "engine/": ["platform/", "contract-language/"],
  // The mocks (examples and sandbox) build on the engine through its seam (below); the
  // engine imports nothing of them.
  "mocks/": ["engine/", "platform/", "contract-language/"],
  // The build's engine: the engine's build-side with the mocks plugged in.
  "build-engine.ts": ["engine/", "mocks/", "platform/"],
  // Every feature a Worker may be built with, under the name the generated module imports.
  "features.ts": ["engine/", "mocks/"],
  "serve-app.ts": ["platform/", "contract-language/"],
  "app.ts": ["serve-app.ts", "platform/", "contract-language/"],
  "handlers.ts": ["contract/", "contract-language/"],
  // What the build wrote (src/build): the documents, and the engine features the contract needs.
  // The sandbox's Durable Object class, re-exported from the mocks (durable-objects.ts).
  "generated/": ["features.ts", "engine/", "mocks/", "platform/"],
  // The entry is the same for every contract: what the build made, served by serveApp.
  "index.ts": ["serve-app.ts", "generated/", "handlers.ts"],
  // The build, in Node: it checks the contract and writes generated/; no Worker module imports
  // it. It composes the Worker's app (serve-app.ts) to learn the routes it mounts.
  "build/": [
    "build-engine.ts",
    "features.ts",
    "mocks/",
    "app.ts",
    "serve-app.ts",
    "contract/",
    "handlers.ts",
    "engine/",
    "platform/",
    "contract-language/",
  ],
  // The typed client: what callers load. It loads of the language only how a declared
  // schema is read (below); its other imports of it are types.
  "client/": ["contract-language/"],
};

/**
 * The client (src/client/): it loads nothing of the server, only zod's metadata registry and
 * the one way a declared schema is read (`schemaOf`, `resolveSchema`: lazy.ts), so a schema
 * declared as a function is built once, for the client and the server alike, and the one
 * way a path key is read (path-key.ts: what is routed, and the fixed query values), and
 * the one way zod's definitions are read (zod-def.ts).
 */
const CLIENT = "client/";
const CLIENT_PACKAGES = /^zod\/v4\/core$/;
const CLIENT_LANGUAGE = [
  "../contract-language/contract",
  "../contract-language/lazy",
  "../contract-language/path-key",
  "../contract-language/zod-def",
];

/** Packages the Worker may load: its runtime dependencies and the runtime's own modules. */
const RUNTIME_PACKAGES = /^(hono|zod|jose|fast-xml-parser|aws4fetch)(\/|$)|^cloudflare:/;

/**
 * What of the engine the mocks may import: its seam for them (types only), what a schema, a
 * refusal and an example book are (the Node tools that make values load these, and nothing
 * of the serving path), and the two functions they call (src/engine/mock-seam.ts).
 */
const MOCKS_ENTRIES: readonly string[] = [
  "engine/mock-seam.ts",
  "engine/zod/",
  "engine/refusal.ts",
  "engine/example-book.ts",
  // Functions, imported from their modules, so that a bundle carries only what it calls.
  "engine/operations/responses.ts",
  "engine/openapi/schemas.ts",
];

/** The mocks' imports of the engine that are not one of its entries for them. */
function mocksInternals(edges: readonly Edge[]): string[] {
  const isEntry = (to: string) =>
    MOCKS_ENTRIES.some((entry) => (entry.endsWith("/") ? to.startsWith(entry) : to === entry));
  return edges
    .filter(([from, to]) => roomOf(from) === "mocks/" && roomOf(to) === "engine/" && !isEntry(to))
    .map(([from, to]) => `${from} imports ${to}`)
    .sort();
}

/** The Node-only room of `src/`: `contract:import` and `contract:diff`. No Worker module imports it. */
const IMPORTER = "importer/";

/** The build (`npm run build:contract`), Node-only too: it loads Node's modules and the documenter. */
const BUILD = "build/";

/** Whether a file of `src/` runs only in Node (the importer, the build). */
const nodeOnly = (file: string) => [IMPORTER, BUILD].includes(roomOf(file));

/**
 * The public entries of the Worker's code the importer may import: the contract language
 * it writes (every file of it: the language is a leaf, it imports nothing else), the
 * project's contract (to show what a re-import changes), the Worker entry, and the build
 * (to make the document it proves and compares as the build makes it). Engine and platform
 * internals are not among them: what
 * both sides must agree on (the document's `x-` marks, reserved names, what a media type
 * means) lives in the contract language.
 */
const IMPORTER_ENTRIES: readonly string[] = [
  "contract-language/",
  "contract/index.ts",
  "index.ts",
  "build/write.ts",
];

/**
 * Packages the importer may load: Node's modules, the `$ref` bundler, the Swagger 2.0
 * converter, and zod (it reads formats with it).
 */
const IMPORTER_PACKAGES =
  /^node:|^@apidevtools\/json-schema-ref-parser$|^swagger2openapi$|^zod(\/|$)/;

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
  // A directory the build writes as JavaScript (generated/served-contract/) by its index.
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), join(base, "index.js"), base]) {
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

/** The top-level room of `src/` a file belongs to: `engine/` for `engine/x/y.ts`, or the file itself. */
function roomOf(path: string): string {
  const slash = path.indexOf("/");
  return slash === -1 ? path : path.slice(0, slash + 1);
}

/** Imports between top-level rooms that the table above does not allow (the importer aside). */
function backwardImports(edges: readonly Edge[]): string[] {
  const found = new Set<string>();
  for (const [from, to] of edges) {
    const [a, b] = [roomOf(from), roomOf(to)];
    if (a === b || a === IMPORTER) continue;
    if (!(ALLOWED[a] ?? []).includes(b)) found.add(`${a} → ${b} (${from} imports ${to})`);
  }
  return [...found].sort();
}

/** The importer's imports of Worker code that is not one of its public entries. */
function importerInternals(edges: readonly Edge[]): string[] {
  const isEntry = (to: string) =>
    IMPORTER_ENTRIES.some((entry) => (entry.endsWith("/") ? to.startsWith(entry) : to === entry));
  return edges
    .filter(([from, to]) => roomOf(from) === IMPORTER && roomOf(to) !== IMPORTER && !isEntry(to))
    .map(([from, to]) => `${from} imports ${to}`)
    .sort();
}

/** Every file the Worker entry loads, directly or through others. */
function reachableFrom(entry: string, edges: readonly Edge[]): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift())
    for (const [from, to] of edges)
      if (from === file && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
  return seen;
}

/** Worker modules (reachable from `index.ts`) that import Node-only code (the importer, the build). */
function workerImportsOfNodeOnly(edges: readonly Edge[]): string[] {
  const worker = reachableFrom("index.ts", edges);
  return edges
    .filter(([from, to]) => worker.has(from) && !nodeOnly(from) && nodeOnly(to))
    .map(([from, to]) => `${from} imports ${to}`)
    .sort();
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

/**
 * Folders of test/ whose files test no one source file: the whole service, shared support,
 * FIXTURE data, and what test runs write.
 */
const EXEMPT_TESTS = ["service/", "support/", "fixtures/", "artifacts/"];

/** Every test file under test/, by its path there (`engine/request/body.test.ts`). */
function testFiles(): string[] {
  return (readdirSync("test", { recursive: true }) as string[])
    .filter((path) => path.endsWith(".test.ts"))
    .map((path) => path.split("\\").join("/"))
    .sort();
}

/**
 * What only a test that spawns processes imports: Node's child processes, and the copy of the
 * project the importer's CLI runs in. Such a test ends in `.slow.test.ts` (the second lane).
 */
const SPAWNS = /^node:child_process$|\/support\/project-copy$/;

/** Test files of the fast lane (no `.slow.test.ts`) that import what spawns, with the import. */
function spawningFastTests(tests: readonly string[], read: (path: string) => string): string[] {
  return tests
    .filter((test) => !test.endsWith(".slow.test.ts"))
    .flatMap((test) =>
      ts
        .preProcessFile(read(`test/${test}`), true, true)
        .importedFiles.filter(({ fileName }) => SPAWNS.test(fileName))
        .map(({ fileName }) => `test/${test} imports ${fileName}`),
    );
}

/**
 * Test files at no source's path. The tests of `src/a/b.ts` are `test/a/b.test.ts`, with the
 * lane's suffix where they do not run in workerd (`.node`, `.slow`) and an aspect's name
 * where one aspect has a file of its own (`test/a/b.aspect.test.ts`); a tool's own test sits
 * beside the tool (`test/tools/x/y.test.ts` tests `test/tools/x/y.ts`).
 */
function unmirrored(tests: readonly string[], exists: (path: string) => boolean): string[] {
  const offenders: string[] = [];
  for (const test of tests) {
    if (EXEMPT_TESTS.some((folder) => test.startsWith(folder))) continue;
    const root = test.startsWith("tools/") ? "test/" : "src/";
    let name = test.replace(/\.test\.ts$/, "").replace(/\.(node|slow)$/, "");
    const tried: string[] = [];
    for (;;) {
      tried.push(`${root}${name}.ts`);
      if (exists(`${root}${name}.ts`)) break;
      const aspect = name.lastIndexOf(".");
      if (aspect <= name.lastIndexOf("/")) {
        offenders.push(`test/${test}: no ${tried.join(", no ")}`);
        break;
      }
      name = name.slice(0, aspect);
    }
  }
  return offenders;
}

describe("the import graph of src/", () => {
  const { files, packages } = importGraph();

  it("resolves every relative import (the graph is complete)", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter(([, to]) => to.startsWith("unresolved:"))).toEqual([]);
  });

  it("has no backward import between its top-level rooms (engine → platform → domain; contract → domain)", () => {
    expect(backwardImports(files)).toEqual([]);
  });

  it("has the mocks use the engine only through their seam and what a schema and a refusal are", () => {
    expect(files.filter(([from]) => roomOf(from) === "mocks/").length).toBeGreaterThan(20);
    expect(mocksInternals(files)).toEqual([]);
  });

  it("has no cycle between sibling files or folders, at any depth", () => {
    expect(siblingCycles(files)).toEqual([]);
  });

  it("loads no package but the runtime's (no Node module, no test code, no tooling)", () => {
    const worker = packages.filter(([from]) => !nodeOnly(from));
    expect(worker.length).toBeGreaterThan(10);
    expect(worker.filter(([, name]) => !RUNTIME_PACKAGES.test(name))).toEqual([]);
  });
});

describe("the importer (src/importer/, Node-only)", () => {
  const { files, packages } = importGraph();
  const own = files.filter(([from]) => roomOf(from) === IMPORTER);

  it("is in the graph, with imports of its own and of the Worker's code", () => {
    expect(own.filter(([, to]) => roomOf(to) === IMPORTER).length).toBeGreaterThan(20);
    expect(own.filter(([, to]) => roomOf(to) !== IMPORTER).length).toBeGreaterThan(5);
  });

  it("imports the Worker's code only through its public entries (the contract language, contract/index.ts, index.ts, build/write.ts)", () => {
    expect(importerInternals(files)).toEqual([]);
  });

  it("is imported by no Worker module (nothing reachable from src/index.ts)", () => {
    const worker = reachableFrom("index.ts", files);
    expect(worker.size).toBeGreaterThan(10);
    expect([...worker].filter((file) => roomOf(file) === IMPORTER)).toEqual([]);
    expect(workerImportsOfNodeOnly(files)).toEqual([]);
  });

  it("is imported by no other room of src/ either", () => {
    expect(
      files.filter(([from, to]) => roomOf(from) !== IMPORTER && roomOf(to) === IMPORTER),
    ).toEqual([]);
  });

  it("loads only Node's modules, the $ref bundler and zod", () => {
    const imported = packages.filter(([from]) => roomOf(from) === IMPORTER);
    expect(imported.some(([, name]) => name.startsWith("node:"))).toBe(true);
    expect(imported.filter(([, name]) => !IMPORTER_PACKAGES.test(name))).toEqual([]);
  });
});

describe("the build (src/build/, Node-only) and what it writes (src/generated/)", () => {
  const { files, packages } = importGraph();

  it("has the build's output in the graph: the Worker entry imports what the build wrote", () => {
    expect(files).toContainEqual(["index.ts", "generated/contract.ts"]);
  });

  it("is imported by no Worker module, and by no room of src/ but the importer", () => {
    const worker = reachableFrom("index.ts", files);
    expect([...worker].filter((file) => roomOf(file) === BUILD)).toEqual([]);
    expect(
      files.filter(
        ([from, to]) => roomOf(to) === BUILD && ![BUILD, IMPORTER].includes(roomOf(from)),
      ),
    ).toEqual([]);
  });

  it("runs in Node: it loads Node's modules, which no Worker module may", () => {
    const imported = packages.filter(([from]) => roomOf(from) === BUILD);
    expect(imported.some(([, name]) => name.startsWith("node:"))).toBe(true);
  });

  it("is where createApp runs: the Worker entry reaches neither app.ts nor the contract engine", () => {
    const worker = reachableFrom("index.ts", files);
    expect(worker.has("serve-app.ts")).toBe(true);
    expect(worker.has("app.ts")).toBe(false);
    expect(worker.has("engine/index.ts")).toBe(false);
  });
});

/** The client's imports that load code at run time: any import that is not `import type`. */
function clientRuntimeImports(): Edge[] {
  const found: Edge[] = [];
  for (const file of sources(join(SRC, CLIENT))) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
      const typeOnly = ts.isImportDeclaration(statement)
        ? statement.importClause?.isTypeOnly === true
        : statement.isTypeOnly;
      if (!typeOnly) found.push([relative(SRC, file), specifier.text]);
    }
  }
  return found;
}

describe("the client (src/client/, what callers of the API load)", () => {
  const { files } = importGraph();
  const runtime = clientRuntimeImports();

  it("is in the graph, and imports the contract language for its types", () => {
    expect(runtime.length).toBeGreaterThan(3);
    expect(
      files.some(([from, to]) => roomOf(from) === CLIENT && roomOf(to) === "contract-language/"),
    ).toBe(true);
  });

  it("loads at run time only its own modules, zod's core (the metadata registry) and how a schema is read: nothing of the server", () => {
    const outside = runtime.filter(([, to]) =>
      to.startsWith(".")
        ? !to.startsWith("./") && !CLIENT_LANGUAGE.includes(to)
        : !CLIENT_PACKAGES.test(to),
    );
    expect(outside).toEqual([]);
    // A declared schema is read as the server reads it, never by a helper of the client's own.
    expect(runtime.map(([, to]) => to)).toEqual(expect.arrayContaining(CLIENT_LANGUAGE));
  });

  it("is imported by nothing the Worker loads", () => {
    const worker = reachableFrom("index.ts", files);
    expect([...worker].filter((file) => roomOf(file) === CLIENT)).toEqual([]);
  });
});

describe("the tests (test/), which mirror the sources", () => {
  it("put every test file outside service/, support/ and fixtures/ at the path of the file it tests: test/a/b[.aspect][.node|.slow].test.ts for src/a/b.ts", () => {
    const tests = testFiles();
    expect(tests.length).toBeGreaterThan(50);
    expect(unmirrored(tests, (path) => existsSync(path))).toEqual([]);
  });

  it("spawn no process in the fast lane: a test that does ends in .slow.test.ts (npm run test:slow)", () => {
    const tests = testFiles();
    expect(tests.filter((test) => test.endsWith(".slow.test.ts")).length).toBeGreaterThan(0);
    expect(spawningFastTests(tests, (path) => readFileSync(path, "utf8"))).toEqual([]);
  });
});

describe("the check can fail", () => {
  it("reports a backward import and an import into an unknown room", () => {
    expect(
      backwardImports([
        ["contract-language/define-handlers.ts", "platform/env.ts"],
        ["platform/openapi.ts", "engine/limits/plan.ts"],
        ["engine/index.ts", "platform/worker-seam.ts"],
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

  it("reports an import of the importer from any other room, and from a Worker module", () => {
    const edges: Edge[] = [
      ["index.ts", "serve-app.ts"],
      ["serve-app.ts", "platform/service.ts"],
      ["platform/service.ts", "importer/emit.ts"],
      ["engine/xml/codec.ts", "importer/source.ts"],
    ];
    expect(backwardImports(edges)).toEqual([
      "engine/ → importer/ (engine/xml/codec.ts imports importer/source.ts)",
      "platform/ → importer/ (platform/service.ts imports importer/emit.ts)",
    ]);
    // engine/xml/codec.ts is not reachable from index.ts here: only the Worker's own import is named.
    expect(workerImportsOfNodeOnly(edges)).toEqual([
      "platform/service.ts imports importer/emit.ts",
    ]);
  });

  it("reports a Worker module that imports the build, and the entry reaching createApp", () => {
    const edges: Edge[] = [
      ["index.ts", "generated/contract.ts"],
      ["generated/contract.ts", "build/generate.ts"],
      ["build/generate.ts", "app.ts"],
    ];
    expect(backwardImports(edges)).toEqual([
      "generated/ → build/ (generated/contract.ts imports build/generate.ts)",
    ]);
    expect(workerImportsOfNodeOnly(edges)).toEqual([
      "generated/contract.ts imports build/generate.ts",
    ]);
    expect(reachableFrom("index.ts", edges).has("app.ts")).toBe(true);
  });

  it("reports the importer reaching into engine or platform internals, not its public entries", () => {
    expect(
      importerInternals([
        ["importer/contract-code.ts", "engine/request/content-negotiation.ts"],
        ["importer/renames.ts", "platform/openapi/problems.ts"],
        ["importer/stage.ts", "contract/endpoints.ts"],
        ["importer/emit.ts", "contract-language/parts.ts"],
        ["importer/import.ts", "contract/index.ts"],
        ["importer/served-document.ts", "build/write.ts"],
        ["importer/served-document.ts", "build/generate.ts"],
        ["importer/diff.ts", "importer/compare.ts"],
      ]),
    ).toEqual([
      "importer/contract-code.ts imports engine/request/content-negotiation.ts",
      "importer/renames.ts imports platform/openapi/problems.ts",
      "importer/served-document.ts imports build/generate.ts",
      "importer/stage.ts imports contract/endpoints.ts",
    ]);
  });

  it("reports a fast-lane test that imports child processes or the project copy, not a slow one", () => {
    const files: Record<string, string> = {
      "test/a.test.ts": 'import { spawnSync } from "node:child_process";',
      "test/b.node.test.ts": 'import { copyProject } from "../support/project-copy";',
      "test/c.slow.test.ts": 'import { spawnSync } from "node:child_process";',
      "test/d.node.test.ts": 'import { readFileSync } from "node:fs";',
    };
    expect(
      spawningFastTests(
        Object.keys(files).map((path) => path.slice("test/".length)),
        (path) => files[path] ?? "",
      ),
    ).toEqual([
      "test/a.test.ts imports node:child_process",
      "test/b.node.test.ts imports ../support/project-copy",
    ]);
  });

  it("reports a test file at no source's path, and takes lanes, aspects, tools and exempt folders", () => {
    const sources = new Set([
      "src/engine/request/body.ts",
      "src/importer/import.ts",
      "test/tools/conformance/checker.ts",
    ]);
    expect(
      unmirrored(
        [
          "engine/request/body.test.ts",
          "engine/request/body.error-cap.node.test.ts",
          "importer/import.big-documents.cli.slow.test.ts",
          "tools/conformance/checker.test.ts",
          "service/hostile.test.ts",
          "support/anything.test.ts",
          "engine/request/stray.test.ts",
          "engine/body.test.ts",
          "tools/conformance/stray.node.test.ts",
        ],
        (path) => sources.has(path),
      ),
    ).toEqual([
      "test/engine/request/stray.test.ts: no src/engine/request/stray.ts",
      "test/engine/body.test.ts: no src/engine/body.ts",
      "test/tools/conformance/stray.node.test.ts: no test/tools/conformance/stray.ts",
    ]);
  });
});
