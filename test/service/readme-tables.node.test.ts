/**
 * README tables that claim to list something the disk decides stay true (test/README.md,
 * "README tables, checked"). In every README.md of the project:
 *
 * - a table whose first header cell is `file` or `folder or file` lists the README's own
 *   folder: every file and folder in it but README.md and hidden entries, each named in
 *   backticks in the first column (`a.ts`, `b/`; several to a cell), and nothing else;
 * - a table whose first header cell is `script` lists package.json's scripts: each text in
 *   backticks in its first column names one (`npm run dev -- …`, `npm test`, or `lint`).
 *
 * Several such tables of one README are read together. Any other table is free. Both
 * directions are checked, and each failure names the README, the name and what is wrong.
 */
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** What a table's first header cell says it lists. */
type Kind = "files" | "scripts";

const KINDS: Readonly<Record<string, Kind>> = {
  file: "files",
  "folder or file": "files",
  script: "scripts",
};

/** Folders never searched for READMEs: what is installed, generated or written by runs. */
const SKIP = new Set(["node_modules", ".git", ".wrangler", "artifacts", "dist", "generated"]);

/** A table's cells, split on `|` not escaped as `\|`. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

const SEPARATOR = /^\|(\s*:?-{3,}:?\s*\|)+\s*$/;

/** Each table of `markdown` (outside code fences): what it lists, and its first column. */
function tablesOf(markdown: string): { kind: Kind; names: string[] }[] {
  const lines = markdown.split("\n");
  const tables: { kind: Kind; names: string[] }[] = [];
  let fenced = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    if (fenced || !line.trimStart().startsWith("|") || !SEPARATOR.test(lines[i + 1] ?? ""))
      continue;
    const kind = KINDS[(cells(line)[0] ?? "").toLowerCase()];
    let row = i + 2;
    const names: string[] = [];
    for (; (lines[row] ?? "").trimStart().startsWith("|"); row += 1)
      names.push(...namesIn(cells(lines[row] ?? "")[0] ?? ""));
    if (kind) tables.push({ kind, names });
    i = row - 1;
  }
  return tables;
}

/** The texts in backticks of one cell. */
function namesIn(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
}

/** The script a name in a script table stands for: `npm run a:b -- x` and `a:b` are `a:b`. */
function scriptOf(text: string): string {
  const words = text.trim().split(/\s+/);
  if (words[0] === "npm" && words[1] === "run") return words[2] ?? "";
  if (words[0] === "npm") return words[1] ?? "";
  return words[0] ?? "";
}

/** One line per name a table lists that does not exist, and per one it leaves out. */
function compare(readme: string, what: string, listed: string[], actual: string[]): string[] {
  const has = new Set(actual);
  const says = new Set(listed);
  return [
    ...[...says]
      .filter((name) => !has.has(name))
      .map((name) => `${readme}: lists \`${name}\`, which ${what} does not have`),
    ...actual
      .filter((name) => !says.has(name))
      .map((name) => `${readme}: does not list \`${name}\` of ${what}`),
  ].sort();
}

/** A folder's entries as a file table names them: folders with a trailing `/`. */
function entriesOf(entries: readonly Dirent[]): string[] {
  return entries
    .filter((entry) => entry.name !== "README.md" && !entry.name.startsWith("."))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
}

/** What is wrong with the tables of one README, whose folder has `entries`. */
function problemsOf(
  readme: string,
  markdown: string,
  entries: readonly string[],
  scripts: readonly string[],
): string[] {
  const tables = tablesOf(markdown);
  const folder = readme.includes("/") ? `${readme.slice(0, readme.lastIndexOf("/"))}/` : "./";
  const files = tables.filter((t) => t.kind === "files").flatMap((t) => t.names);
  const named = tables.filter((t) => t.kind === "scripts").flatMap((t) => t.names);
  return [
    ...(files.length > 0 ? compare(readme, folder, files, [...entries]) : []),
    ...(named.length > 0
      ? compare(readme, "package.json's scripts", named.map(scriptOf), [...scripts])
      : []),
  ];
}

/** Every README.md of the project, as paths from its root. */
function readmes(dir = "."): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = dir === "." ? entry.name : join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : readmes(path);
    return entry.name === "README.md" ? [path] : [];
  });
}

const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts,
);

/** The problems of a README on disk. */
function problemsOnDisk(readme: string): string[] {
  const folder = readme.includes("/") ? readme.slice(0, readme.lastIndexOf("/")) : ".";
  const entries = entriesOf(readdirSync(folder, { withFileTypes: true }));
  return problemsOf(readme, readFileSync(readme, "utf8"), entries, SCRIPTS);
}

const CHECKED = readmes().filter((readme) => tablesOf(readFileSync(readme, "utf8")).length > 0);

describe("README tables of a folder's files and of the scripts", () => {
  it("are found: the root README's scripts, and a file table beside the code", () => {
    const kinds = (readme: string) => tablesOf(readFileSync(readme, "utf8")).map((t) => t.kind);
    expect(kinds("README.md")).toContain("scripts");
    expect(CHECKED.filter((readme) => kinds(readme).includes("files")).length).toBeGreaterThan(0);
  });

  it.each(CHECKED)("%s lists what is there, and only that", (readme) => {
    expect(problemsOnDisk(readme)).toEqual([]);
  });

  it("the check can fail: a missing and an extra name, each named, in either kind of table", () => {
    const readme = [
      "| file                   | what |",
      "| ---------------------- | ---- |",
      "| `a.ts`, `b/`           | x    |",
      "| `gone.ts`              | y    |",
      "",
      "```",
      "| file | in a code block, not a table |",
      "| ---- | ---------------------------- |",
      "| `ignored.ts` | |",
      "```",
      "",
      "| script                              | what |",
      "| ----------------------------------- | ---- |",
      "| `npm run dev -- --x` / `lint`       | x    |",
      "| `npm test`, `npm run corpus -- a \\| b` | y    |",
      "",
      "| folder | free |",
      "| ------ | ---- |",
      "| `anything` | x |",
    ].join("\n");
    expect(
      problemsOf(
        "src/x/README.md",
        readme,
        ["a.ts", "b/", "c.ts"],
        ["dev", "lint", "test", "bench"],
      ),
    ).toEqual([
      "src/x/README.md: does not list `c.ts` of src/x/",
      "src/x/README.md: lists `gone.ts`, which src/x/ does not have",
      "src/x/README.md: does not list `bench` of package.json's scripts",
      "src/x/README.md: lists `corpus`, which package.json's scripts does not have",
    ]);
    expect(
      problemsOf(
        "src/x/README.md",
        readme,
        ["a.ts", "b/", "gone.ts"],
        ["dev", "lint", "test", "corpus"],
      ),
    ).toEqual([]);
  });

  it("a folder is named with a trailing slash, a file without", () => {
    expect(problemsOf("d/README.md", "| File |\n| --- |\n| `b` |", ["b/"], [])).toEqual([
      "d/README.md: does not list `b/` of d/",
      "d/README.md: lists `b`, which d/ does not have",
    ]);
  });
});
