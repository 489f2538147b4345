/**
 * The importer's command line when the import fails late, at the type check of the scratch
 * copy, in a project that declares nothing but a part 3 written by hand (OpenAPI does not
 * carry it): the project is left byte for byte as it was, and the cause is one line.
 *
 * It spawns npm and tsc on a shared 2-core machine, so it states its own timeout.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IN_REVISION_RUN, projectCopyForFile, SLOW } from "../support/project-copy";

const projectCopy = projectCopyForFile("contract-import-failure-");

describe.skipIf(IN_REVISION_RUN)("npm run contract:import, when the import fails", () => {
  it(
    "leaves the project byte for byte as it was when the import fails, and says why in one line",
    () => {
      const project = projectCopy();
      // Part 3, which OpenAPI does not carry, written by hand on a resource of the document;
      // a document without that resource leaves it naming nothing, which does not compile.
      writeFileSync(
        join(project.dir, "src/contract/states.ts"),
        [
          'import type { StateMachine } from "../contract-language/contract";',
          "",
          "export const states = {",
          "  fixtureShelving: {",
          '    resource: "Book",',
          '    states: ["new", "shelved"],',
          '    initial: "new",',
          '    transitions: [{ from: "new", to: "shelved", trigger: "shelve" }],',
          "  },",
          "} as const satisfies Readonly<Record<string, StateMachine>>;",
          "",
        ].join("\n"),
      );
      const before = project.snapshot();
      const broken = join(project.dir, "broken.yaml");
      writeFileSync(broken, "openapi: 3.1.0\ninfo: { title: FIXTURE, version: '1' }\npaths: {}\n");
      // Part 3 declares something, so this is a re-import: without --force it only previews.
      const failed = project.npm("contract:import", "--", broken, "--force");
      expect(failed.status).toBe(1);
      const lines = String(failed.stderr).trim().split("\n");
      expect(lines.at(-1)).toBe("import: nothing was written; the project is as it was");
      expect(lines.at(-2)).toMatch(
        /^import: the generated contract does not type-check \(src\/contract\/\S+\(\d+,\d+\): error TS\d+/,
      );
      expect(project.snapshot()).toBe(before);
    },
    SLOW,
  );
});
