/**
 * No function is longer than a reader can hold: at most 150 lines, in the Worker's code, the
 * importer and the tools. A test's own `describe`/`it` callbacks are lists of cases, not
 * functions to follow, so they are not counted, nor are the part files an import wrote (the
 * document's schemas as code). Read with TypeScript's parser.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { WRITTEN_BY_IMPORT } from "../../src/importer/emit";

const MAX_LINES = 150;

/** Each function of a source longer than `max` lines: where it starts, its name and length. */
function longFunctions(fileName: string, text: string, max = MAX_LINES): string[] {
  // A part file the import wrote is the document's data as code: a schema's declaration is
  // as long as the document makes that schema, and the import writes it again, never a reader.
  if (text.includes(WRITTEN_BY_IMPORT)) return [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const isTest = /\.test\.ts$/.test(fileName);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const caseList =
        isTest &&
        ts.isCallExpression(node.parent) &&
        /^(describe|it|test)\b/.test(node.parent.expression.getText(source));
      const name = node.name?.getText(source) ?? "(anonymous)";
      if (last - first + 1 > max && !caseList)
        found.push(`${fileName}:${first + 1} ${name}: ${last - first + 1} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The project's TypeScript sources under src/ and test/ (read from the tree, not from git: a
 * revision run works in a copy that is no repository), generated ones left out.
 */
function projectSources(dir = "."): string[] {
  const skip = /^(node_modules|\.git|\.wrangler|artifacts|revision)$/;
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = dir === "." ? entry.name : join(dir, entry.name);
    if (entry.isDirectory())
      return skip.test(entry.name) || (dir === "." && !["src", "test"].includes(entry.name))
        ? []
        : projectSources(path);
    return dir !== "." && path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

describe("function length", () => {
  it(`no function in src/ or test/ is longer than ${MAX_LINES} lines`, () => {
    const long = projectSources().flatMap((file) =>
      longFunctions(file, readFileSync(file, "utf8")),
    );
    expect(long).toEqual([]);
  });

  it("the check can fail: a long function is named, a long list of test cases is not", () => {
    const body = Array.from({ length: 151 }, (_, i) => `  const a${i} = ${i};`).join("\n");
    expect(longFunctions("fixture.ts", `function fixtureLong() {\n${body}\n}`)).toEqual([
      "fixture.ts:1 fixtureLong: 153 lines",
    ]);
    expect(longFunctions("fixture.test.ts", `describe("x", () => {\n${body}\n});`)).toEqual([]);
    expect(longFunctions("fixture.ts", `const f = () => {\n${body}\n};`)).toHaveLength(1);
    const imported = `/**\n${WRITTEN_BY_IMPORT}\n */\nconst f = () => {\n${body}\n};`;
    expect(longFunctions("src/contract/endpoints.ts", imported)).toEqual([]);
  });
});
