/**
 * Exports stay what another file uses. Every exported declaration of `src/` is imported by
 * some other file (of `src/` or the tests), and one that only tests import is also used in
 * its own file: `src/` holds no code that only tests reach. Read over the syntax of every
 * file (TypeScript's parser), imports, re-exports, `import()` and `import("…")` types alike.
 *
 * Left out: what users write in or call, which no file here need import (the contract
 * language, the typed client's entry, the webhook receivers' verifier, `createApp` for
 * their tests), and what is reached by a path in text (the Worker entry's Durable Object
 * classes, written by the build; the build's check, which the importer loads from a copy).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Files and names others may not import, and why (the header above). */
const PUBLIC: readonly string[] = [
  "src/contract-language/",
  "src/client/index.ts",
  "src/engine/events/signature.ts verifyWebhook",
  "src/app.ts createApp",
  "src/mocks/sandbox/durable-object.ts SandboxStore",
  "src/mocks/sandbox/resting-store.ts SandboxStore",
  "src/build/generate.ts checkBuild",
];

const SKIPPED = new Set(["node_modules", "artifacts", "generated"]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolved(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, "index.ts"), base].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
}

interface Graph {
  /** Exported names, by file. */
  readonly exported: Map<string, Set<string>>;
  /** Who imports each name of a file, by file. */
  readonly importers: Map<string, Map<string, Set<string>>>;
  /** Files imported whole (`import *`, `export *`, `import()`), with who does. */
  readonly whole: Map<string, Set<string>>;
}

function exportedNames(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (!modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
    } else if (
      "name" in statement &&
      statement.name &&
      ts.isIdentifier(statement.name as ts.Node)
    ) {
      const isDefault = modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      names.add(isDefault ? "default" : (statement.name as ts.Identifier).text);
    }
  }
  return names;
}

function graphOf(files: readonly string[]): Graph {
  const graph: Graph = { exported: new Map(), importers: new Map(), whole: new Map() };
  const add = <K, V>(map: Map<K, Set<V>>, key: K, value: V) =>
    map.set(key, (map.get(key) ?? new Set<V>()).add(value));
  const named = (target: string, name: string, by: string) => {
    const byName = graph.importers.get(target) ?? new Map<string, Set<string>>();
    graph.importers.set(target, byName);
    add(byName, name, by);
  };
  for (const path of files) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
    graph.exported.set(path, exportedNames(file));
    const visit = (node: ts.Node): void => {
      const specifier =
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
          ? node.moduleSpecifier.text
          : undefined;
      const target = specifier === undefined ? undefined : resolved(path, specifier);
      if (target && ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        if (clause?.name) named(target, "default", path);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) add(graph.whole, target, path);
        if (bindings && ts.isNamedImports(bindings))
          for (const e of bindings.elements) named(target, (e.propertyName ?? e.name).text, path);
      } else if (target && ts.isExportDeclaration(node)) {
        const clause = node.exportClause;
        if (!clause) add(graph.whole, target, path);
        else if (ts.isNamedExports(clause))
          for (const e of clause.elements) named(target, (e.propertyName ?? e.name).text, path);
      }
      const argument =
        ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
            ? node.argument.literal
            : undefined;
      const loaded = argument && ts.isStringLiteral(argument) && resolved(path, argument.text);
      if (loaded) add(graph.whole, loaded, path);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return graph;
}

const isPublic = (file: string, name: string) =>
  PUBLIC.some((entry) =>
    entry.includes(" ")
      ? entry === `${file} ${name}`
      : entry.endsWith("/")
        ? file.startsWith(entry)
        : file === entry,
  );

/** Each export of `src/` no other file imports; and each only tests import, unused where it is. */
function unusedExports(root: string): { local: string[]; testsOnly: string[] } {
  const files = [...sources(join(root, "src")), ...sources(join(root, "test"))];
  const graph = graphOf(files);
  const local: string[] = [];
  const testsOnly: string[] = [];
  for (const [path, names] of graph.exported) {
    const file = relative(root, path);
    if (!file.startsWith("src/")) continue;
    if ([...(graph.whole.get(path) ?? [])].some((by) => by !== path)) continue;
    const text = readFileSync(path, "utf8");
    for (const name of names) {
      if (isPublic(file, name)) continue;
      const by = [...(graph.importers.get(path)?.get(name) ?? [])].filter((f) => f !== path);
      if (by.length === 0) local.push(`${file}: ${name}`);
      else if (by.every((f) => relative(root, f).startsWith("test/"))) {
        const uses = text.match(new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`, "g")) ?? [];
        if (uses.length < 2) testsOnly.push(`${file}: ${name}`);
      }
    }
  }
  return { local: local.sort(), testsOnly: testsOnly.sort() };
}

describe("the exports of src/", () => {
  const { local, testsOnly } = unusedExports(process.cwd());

  it("are each imported by another file (the contract language, the client and the few reached by text aside)", () => {
    expect(local).toEqual([]);
  });

  it("are never reached only from tests", () => {
    expect(testsOnly).toEqual([]);
  });
});
