/**
 * The importer's and the round-trip report's command lines, run as a user runs them, in a
 * copy of the project whose contract, handlers and entry are put back to what a project
 * that declares nothing has (src/importer/copy-project.ts), so the user's own contract and
 * handlers never decide the outcome. Over the rich FIXTURE document: what the import writes
 * (part files formatted with Biome, the entry, the deployment files with names and
 * placeholders only, the specification's given parts, the report), what a re-import shows
 * before it writes, and the exit statuses. A failed import and a renamed Problem have files
 * of their own (import.failure.cli, import.rename.cli), so the runs share the cores.
 *
 * Each test spawns npm and tsc on a shared 2-core machine: each states its own timeout.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blankProjectCopy, IN_REVISION_RUN, type ProjectCopy, SLOW } from "../support/project-copy";

const RICH = resolve("test/fixtures/openapi/rich-3.1.yaml");
const skip = IN_REVISION_RUN;
let project: ProjectCopy;
let copy: string;
let first: ReturnType<ProjectCopy["npm"]>;
const npm = (...args: string[]) => project.npm(...args);
const read = (path: string) => project.read(path);
const snapshot = () => project.snapshot();

beforeAll(() => {
  if (skip) return;
  project = blankProjectCopy("contract-import-cli-");
  copy = project.dir;
  first = npm("contract:import", "--", RICH);
}, SLOW);

afterAll(() => {
  if (!skip) project.remove();
});

describe.skipIf(skip)("npm run contract:import", () => {
  it("writes the contract and says what it wrote, per part, and what a deployment must set", () => {
    expect(first.status, String(first.stderr)).toBe(0);
    const out = String(first.stdout);
    expect(out).toContain("4. Endpoints                    10 operations on 7 paths");
    expect(out).toContain(
      "3. States and transitions       left as it was (OpenAPI does not carry it)",
    );
    expect(out).toMatch(
      /\d+ findings \(\d+ not carried, \d+ not enforced, \d+ carried differently\): src\/contract\/IMPORT-REPORT\.md/,
    );
    expect(out).toMatch(/npx wrangler secret put LIBRARIAN_KEY +an API key librarianKey accepts/);
    expect(out).toMatch(/npx wrangler secret put MEMBER_TOKEN_JWKS_URL +the https: URL/);
    expect(out).toContain("npm run dev");
    expect(out).toMatch(/curl -i 'http:\/\/localhost:8787\/[^' ]+'/);
    // Progress on stderr, the document read first, then each step in the scratch copy.
    const err = String(first.stderr);
    expect(err).toMatch(
      /^import: reading .*rich-3\.1\.yaml\nimport: read OpenAPI 3\.1\.0, \d+ KiB: 7 paths, 10 operations, \d+ component schemas, \d+ webhooks\nimport: schemas/,
    );
    expect(err).toContain("import:   [3/4] starting the Worker once");
    expect(err).toContain("import:   [4/4] type-checking the project with the new contract");
  });

  it(
    "writes code Biome leaves as it is, and the project's own entry (the build gives it what the contract needs)",
    () => {
      const biome = spawnSync("npx", ["biome", "ci", "src/contract", "src/index.ts"], {
        cwd: copy,
        encoding: "utf8",
      });
      expect(biome.status, biome.stdout).toBe(0);
      // The entry is the same for every contract: the build gives it the engine's features.
      expect(read("src/index.ts")).toBe(readFileSync("src/index.ts", "utf8"));
    },
    SLOW,
  );

  it(
    "lists the secrets and settings the deployment must set, with placeholders, never a value",
    () => {
      const toml = read("wrangler.toml");
      expect(toml).toContain(
        'required = ["LIBRARIAN_KEY", "MEMBER_TOKEN_AUDIENCE", "MEMBER_TOKEN_ISSUER", "MEMBER_TOKEN_JWKS_URL"]',
      );
      expect(read(".dev.vars.example")).toContain("LIBRARIAN_KEY=<API_KEY>");
      expect(read(".dev.vars.example")).toContain("MEMBER_TOKEN_JWKS_URL=<JWKS_URL>");
      const check = spawnSync("npx", ["tsx", "test/tools/contract-deployment.ts", "--check"], {
        cwd: copy,
        encoding: "utf8",
      });
      expect(check.status, check.stderr).toBe(0);
    },
    SLOW,
  );

  it("marks the parts the document gives in SPECIFICATION.md, and reports every finding with its pointer", () => {
    const spec = read("src/contract/SPECIFICATION.md");
    expect(spec).toContain(
      "## 4. Endpoints\n\nGiven by the OpenAPI document: 10 operations on 7 paths.",
    );
    expect(spec).not.toMatch(/## 3\. States and transitions\n\nGiven by the OpenAPI document/);
    const report = read("src/contract/IMPORT-REPORT.md");
    expect(report).toContain(
      "- `x-fixture-audience`, a vendor extension, at `#/info/x-fixture-audience`: not carried",
    );
    expect(report).toMatch(/\| `src\/contract\/endpoints\.ts` +\| [0-9a-f]{64} \|/);
    // Which operations the sandbox places, and why the others answer from examples.
    expect(report).toMatch(
      /## The sandbox\n\nUnder `UNHANDLED_OPERATIONS=sandbox`.*, \d+ of the 10 operations without a handler act on stored resources/,
    );
    expect(report).toMatch(/\| `\w+` +\| sandbox: create \(\w+\) +\| POST to the collection /);
    expect(report).toMatch(/\| `\w+` +\| examples +\| \S/);
  });
});

describe.skipIf(skip)("npm run contract:diff", () => {
  it(
    "prints a fidelity figure per category and overall, and each loss with its pointer",
    () => {
      const diff = npm("contract:diff", "--", RICH);
      expect(diff.status, String(diff.stderr)).toBe(0);
      const out = String(diff.stdout);
      expect(out).toContain(
        "carried under another name (kept):\n  #/components/schemas/Problem: served as SpecProblem: the platform's own schema is called Problem\n",
      );
      expect(out).toMatch(/ {2}operations +100\.0% {2}\(\d+ of \d+\)/);
      expect(out).toMatch(/ {2}overall +9\d\.\d% {2}\(\d+ of \d+; at least 95\.0% required\)/);
    },
    SLOW,
  );

  it(
    "exits 1 below the threshold it is given",
    () => {
      expect(npm("contract:diff", "--", RICH, "--min", "1").status).toBe(1);
      expect(npm("contract:diff", "--", RICH, "--min", "2").status).toBe(2);
    },
    SLOW,
  );
});

describe.skipIf(skip)("npm run contract:import, again", () => {
  it(
    "writes nothing when the same document is imported again",
    () => {
      const before = snapshot();
      const again = npm("contract:import", "--", RICH);
      expect(again.status, String(again.stderr)).toBe(0);
      expect(String(again.stdout)).toContain("nothing to write");
      expect(snapshot()).toBe(before);
    },
    SLOW,
  );

  it(
    "previews what a re-import changes without the proof (operations, schemas, breaking changes, handlers, hand edits), and writes only with --force",
    () => {
      const endpoints = read("src/contract/endpoints.ts");
      writeFileSync(
        join(copy, "src/contract/endpoints.ts"),
        endpoints.replace('summary: "', 'summary: "FIXTURE edit: '),
      );
      writeFileSync(
        join(copy, "src/handlers.ts"),
        [
          'import { contract } from "./contract";',
          'import { defineHandlers } from "./contract-language/define-handlers";',
          "",
          "export const handlers = defineHandlers(contract, {",
          "  listCategories: () => ({ status: 200, body: [] }),",
          "});",
          "",
        ].join("\n"),
      );
      const changed = join(copy, "changed.yaml");
      writeFileSync(
        changed,
        readFileSync(RICH, "utf8").replace(/\n {2}\/categories:\n(?: {4}.*\n)+/, "\n"),
      );
      const before = snapshot();
      const refused = npm("contract:import", "--", changed);
      expect(refused.status).toBe(1);
      const out = String(refused.stdout);
      expect(out).toMatch(/operations removed +1: listCategories/);
      // It breaks existing callers, and touches the one handler written for it.
      expect(out).toMatch(/breaking changes +\d+, each a change an existing caller may fail on:/);
      expect(out).toContain("    operation listCategories removed");
      expect(out).toMatch(/handlers touched +1: listCategories/);
      // A preview, without the proof: no Biome, no Worker start, no type check.
      expect(String(refused.stderr)).not.toMatch(/\[\d\/4\]/);
      expect(out).toContain("handlers of operations the document does not have: listCategories");
      expect(out).toContain("hand edits that will be lost: src/contract/endpoints.ts");
      expect(String(refused.stderr)).toContain("run again with --force");
      expect(snapshot()).toBe(before);

      const forced = npm("contract:import", "--", changed, "--force");
      expect(forced.status, String(forced.stderr)).toBe(0);
      expect(read("src/contract/endpoints.ts")).not.toContain("FIXTURE edit: ");
      // The user's handlers are kept, even where they no longer fit.
      expect(read("src/handlers.ts")).toContain("listCategories: () =>");
      expect(String(forced.stdout)).toContain("fix src/handlers.ts");
    },
    2 * SLOW,
  );
});
