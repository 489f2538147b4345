/**
 * The importer's command line when the platform refuses to serve some of a document's
 * operations (its start-up checks: here, an XML member named `fixture value`, no XML name): every
 * refusal is found in the import's own process before the one proof, an XML media type
 * beside others is left out alone, and an operation with nothing else to serve is left out
 * with the platform's sentence. A FIXTURE document, in a copy of the project that declares
 * nothing.
 *
 * It spawns npm and tsc on a shared 2-core machine, so it states its own timeout.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blankProjectCopy, IN_REVISION_RUN, type ProjectCopy, SLOW } from "../support/project-copy";

const text = { $ref: "#/components/schemas/FixtureText" };
const answer = (...types: string[]) => ({
  "200": {
    description: "FIXTURE",
    content: Object.fromEntries(types.map((type) => [type, { schema: text }])),
  },
});
const document = {
  openapi: "3.1.0",
  info: { title: "FIXTURE refusals", version: "1" },
  paths: {
    "/fixture-both": {
      get: { operationId: "fixtureBoth", responses: answer("application/json", "application/xml") },
    },
    "/fixture-xml": {
      get: { operationId: "fixtureXmlOnly", responses: answer("application/xml") },
    },
    "/fixture-json": {
      get: { operationId: "fixtureJsonOnly", responses: answer("application/json") },
    },
  },
  components: {
    schemas: {
      FixtureText: {
        type: "object",
        properties: { "fixture value": { type: "string" }, id: { type: "string" } },
      },
    },
  },
};

describe.skipIf(IN_REVISION_RUN)(
  "npm run contract:import, when the platform refuses some operations",
  () => {
    let project: ProjectCopy;
    beforeAll(() => {
      project = blankProjectCopy("contract-import-refusals-");
    });
    afterAll(() => project.remove());

    it(
      "finds every refusal before its one proof, leaves out an XML media type beside others alone, and an operation with nothing else whole",
      () => {
        writeFileSync(join(project.dir, "refusals.json"), JSON.stringify(document));
        const imported = project.npm("contract:import", "--", "refusals.json");
        expect(imported.status, imported.stderr).toBe(0);
        expect(imported.stderr).toMatch(
          /^import: the platform refuses to serve 2 operations \(2 × its application\/xml answer of 200: /m,
        );
        // One proof: the Worker started once, the type check run once.
        expect(
          imported.stderr.match(/^import: {3}\[3\/4\] starting the Worker once$/gm),
        ).toHaveLength(1);
        expect(imported.stderr).not.toContain("proving again");
        expect(imported.stdout).toContain("Served 2 of the 3 operations the document declares.");
        // An operation and a media type lost: the served document falls under the floor, said last.
        expect(imported.stdout.trimEnd().split("\n").slice(-2)[0]).toMatch(
          /^BELOW THE FIDELITY FLOOR: the served document keeps \d+\.\d% \(\d+ of \d+ items\) of the source, under 95%\.$/,
        );
        const endpoints = project.read("src/contract/endpoints.ts");
        expect(endpoints).toContain("fixtureBoth: {");
        expect(endpoints).toContain("fixtureJsonOnly: {");
        expect(endpoints).not.toContain("fixtureXmlOnly");
        expect(endpoints).not.toContain('"application/xml"');
        const report = project.read("src/contract/IMPORT-REPORT.md");
        expect(report).toMatch(
          /- `#\/paths\/~1fixture-xml\/get`: the platform refuses to serve it: operation fixtureXmlOnly: its application\/xml answer of 200: /,
        );
        expect(report).toMatch(
          /- `#\/paths\/~1fixture-both\/get\/responses\/200\/content\/application~1xml`: media type application\/xml: the platform refuses to serve it: .*; the other media types are served/,
        );
      },
      SLOW,
    );
  },
);
