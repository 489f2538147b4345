/**
 * The importer's command line over what big real documents hold (issue 23, point 4), run
 * as a user runs it in a copy of the project that declares nothing. One FIXTURE document,
 * generated here, has a path key with a query string, a second GET at a template another GET
 * has (its parameter named otherwise: one operation on one path), an operation only a scheme
 * the platform cannot verify guards, and forty component schemas of 30 KiB each, so that
 * the document the Worker serves is over 1 MiB (spawnSync's default buffer once cut such a
 * document off without a word). Each of the three is left out with a finding at its
 * pointer, and the rest is imported. Then a step whose command dies without a word fails
 * the import with its cause, and the project stays as it was.
 *
 * Each test spawns npm and tsc on a shared 2-core machine: each states its own timeout.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blankProjectCopy, type ProjectCopy } from "../support/project-copy";

/** test/tools/revision.ts runs npm test in its copy with this set: see there why. */
const skip = process.env.REVISION_RUN === "1";
const SLOW = 240_000;
let project: ProjectCopy;
let copy: string;
let first: ReturnType<ProjectCopy["npm"]>;
const npm = (...args: string[]) => project.npm(...args);
const read = (path: string) => project.read(path);
const snapshot = () => project.snapshot();

const done = { "204": { description: "FIXTURE done." } };
const parcel = { $ref: "#/components/schemas/FixtureParcel" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const pathId = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

/** The FIXTURE document: `extra` paths added to it. */
function document(extra: Record<string, unknown> = {}) {
  const schemas: Record<string, unknown> = {
    FixtureParcel: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
  };
  // Bulk the served document up: 40 × 30 KiB of description.
  for (let i = 0; i < 40; i++)
    schemas[`FixtureBulk${i}`] = { type: "string", description: `FIXTURE ${i} `.repeat(3000) };
  return {
    openapi: "3.1.0",
    info: { title: "FIXTURE big document", version: "1.0.0" },
    paths: {
      "/fixture-parcels": {
        get: {
          operationId: "fixtureListParcels",
          responses: {
            "200": { description: "FIXTURE", ...json({ type: "array", items: parcel }) },
          },
        },
        post: { operationId: "fixtureCreateParcel", requestBody: json(parcel), responses: done },
      },
      "/fixture-parcels?beta=true": { get: { operationId: "fixtureBetaParcels", responses: done } },
      "/fixture-parcels/{parcelId}": {
        get: {
          operationId: "fixtureGetParcel",
          parameters: [pathId("parcelId")],
          responses: { "200": { description: "FIXTURE", ...json(parcel) } },
        },
      },
      // The same template as the one above but for the parameter's name: OpenAPI 3.1 §4.8.8
      // calls them identical, so it is served as that one, and a second GET there is left out.
      "/fixture-parcels/{id}": {
        get: { operationId: "fixtureFindParcel", parameters: [pathId("id")], responses: done },
      },
      "/fixture-vault": {
        get: { operationId: "fixtureVault", security: [{ fixtureTls: [] }], responses: done },
      },
      ...extra,
    },
    // FIXTURE: a kind of scheme OpenAPI does not define, which the platform cannot read.
    components: { schemas, securitySchemes: { fixtureTls: { type: "fixtureUnknownKind" } } },
  };
}

beforeAll(() => {
  if (skip) return;
  project = blankProjectCopy("contract-import-big-");
  copy = project.dir;
  writeFileSync(join(copy, "big.json"), JSON.stringify(document(), null, 1));
  first = npm("contract:import", "--", "big.json");
}, 4 * SLOW);

afterAll(() => {
  if (!skip) project.remove();
});

describe.skipIf(skip)("npm run contract:import, on what big documents hold", () => {
  it("serves a path key with a fixed query, leaves out a method declared twice on one template and an operation it cannot verify, each with a finding at its pointer, and imports the rest", () => {
    expect(first.status, first.stderr).toBe(0);
    const findings = [
      "#/paths/~1fixture-parcels~1{id}/get: left out: GET /fixture-parcels/{parcelId} is served by #/paths/~1fixture-parcels~1{parcelId}/get already: templates that differ only in parameter names are one path (OpenAPI 3.1 §4.8.8), and a method on it is one operation",
      "#/paths/~1fixture-vault/get: left out: operation fixtureVault can only be reached with credentials the platform cannot verify, and is not served open",
    ];
    for (const finding of findings)
      expect(first.stdout).toContain(`  not carried         ${finding}\n`);
    // Its last lines: what was served of what was declared, what was left out by cause, and
    // how much of the source the served document keeps.
    expect(first.stdout).toContain(
      "\nServed 4 of the 6 operations the document declares.\nLeft out: 2 (",
    );
    const last = first.stdout.trimEnd().split("\n").slice(-3);
    expect(last.slice(0, 2)).toEqual([
      "      1  GET /… is served by #/… already: templates that differ only in parameter names are one path",
      "      1  operation … can only be reached with credentials the platform cannot verify, and is not served open",
    ]);
    expect(last[2]).toMatch(
      /^The served document keeps \d+\.\d% \(\d+ of \d+ items\) of the source\.$/,
    );
    expect(first.stdout).toContain("4. Endpoints                    4 operations on 3 paths");
    const report = read("src/contract/IMPORT-REPORT.md");
    for (const finding of findings) expect(report).toContain(`- \`${finding.split(":")[0]}\`:`);
    const endpoints = read("src/contract/endpoints.ts");
    for (const id of [
      "fixtureListParcels",
      "fixtureCreateParcel",
      "fixtureGetParcel",
      "fixtureBetaParcels",
    ])
      expect(endpoints).toContain(`${id}: {`);
    for (const id of ["fixtureFindParcel", "fixtureVault"]) expect(endpoints).not.toContain(id);
  });

  it("shows its progress on stderr: the document's counts, operations n/N and each step of the scratch copy, proved once", () => {
    const err = first.stderr;
    expect(err).toMatch(
      /^import: read OpenAPI 3\.1\.0, \d{4} KiB: 5 paths, 6 operations, 41 component schemas, 0 webhooks$/m,
    );
    expect(err).toMatch(/^import: operations 6\/6$/m);
    // What it checks, said up front: the checker itself reports nothing until it is done.
    expect(err).toMatch(
      /^import: {3}\[4\/4\] type-checking the project with the new contract \(\d+ files of src\/, the contract's \d+ of [\d,]+ lines\)$/m,
    );
    // What the import leaves out itself never reaches the staged Worker: one start, one check.
    expect(err).not.toContain("the platform refuses to serve");
    expect(err.match(/^import: {3}\[3\/4\] starting the Worker once$/gm)).toHaveLength(1);
    expect(
      err.match(/^import: {3}\[4\/4\] type-checking the project with the new contract \(/gm),
    ).toHaveLength(1);
    expect(err).toMatch(/^import: files written \d+\/\d+$/m);
  });

  it(
    "serves a document of over 1 MiB, which contract:diff reads whole",
    () => {
      const served = spawnSync("npx", ["tsx", "src/importer/served-document.ts"], {
        cwd: copy,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(served.status, served.stderr).toBe(0);
      expect(served.stdout.length).toBeGreaterThan(1024 * 1024);
      const diff = npm("contract:diff", "--", "big.json", "--min", "0");
      expect(diff.status, diff.stderr).toBe(0);
      // What was left out is what the round trip lost, and nothing else of the operations.
      expect(diff.stdout).toContain(
        [
          "operations:",
          "  #/paths/~1fixture-parcels~1{id}/get: GET operation is missing",
          "  #/paths/~1fixture-vault/get: GET operation is missing",
          "security:",
        ].join("\n"),
      );
    },
    SLOW,
  );

  it("stops with the causes, writing nothing, when none of the operations declared can be served", () => {
    const before = snapshot();
    const { paths, ...rest } = document();
    const vaultOnly = { ...rest, paths: { "/fixture-vault": paths["/fixture-vault"] } };
    writeFileSync(join(copy, "vault.json"), JSON.stringify(vaultOnly));
    const failed = npm("contract:import", "--", "vault.json", "--force");
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(
      "import: none of the 1 operations the document declares can be served (1 × operation … can only be reached with credentials the platform cannot verify, and is not served open)",
    );
    expect(snapshot()).toBe(before);
  });

  it(
    "fails with the step whose command died without a word, how it ended, and leaves the project as it was",
    () => {
      // The staged Worker is killed by a signal as it starts: it prints nothing at all.
      const starter = "src/importer/served-document.ts";
      const kept = read(starter);
      writeFileSync(join(copy, starter), 'export {};\nprocess.kill(process.pid, "SIGKILL");\n');
      try {
        const before = snapshot();
        const changed = document({
          "/fixture-labels": { get: { operationId: "fixtureLabels", responses: done } },
        });
        writeFileSync(join(copy, "changed.json"), JSON.stringify(changed));
        const failed = npm("contract:import", "--", "changed.json", "--force");
        expect(failed.status).toBe(1);
        const lines = failed.stderr.trim().split("\n");
        // Never an empty cause.
        expect(lines.filter((line) => /^import:\s*$/.test(line))).toEqual([]);
        expect(lines.at(-1)).toBe("import: nothing was written; the project is as it was");
        expect(lines.at(-2)).toMatch(
          /^import: starting the Worker once: `npx tsx src\/importer\/served-document\.ts --places \.wrangler\/sandbox-places\.json` (was stopped by SIGKILL|exited with status 137 \(a process it ran was stopped by SIGKILL\)), printing nothing \(full output: \.wrangler\/import-last\.log\)$/,
        );
        expect(snapshot()).toBe(before);
      } finally {
        writeFileSync(join(copy, starter), kept);
      }
    },
    2 * SLOW,
  );
});
