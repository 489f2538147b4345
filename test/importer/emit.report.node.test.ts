/**
 * IMPORT-REPORT.md as the import writes it (src/importer/emit.ts, `reportText`): at any size it
 * reads from what was left out (every unit, with its cause), then every finding counted by
 * class, then what was written and the findings one by one, a vendor extension's notices one
 * line per name. Every document here is a FIXTURE.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportText } from "../../src/importer/emit";
import { readOpenApi } from "../../src/importer/source";
import { doc31, writeCase } from "../support/import-case";

const op = (operationId: string) => ({
  operationId,
  "x-fixture-note": "FIXTURE",
  responses: { "204": { description: "FIXTURE" } },
});

describe("the import report", () => {
  it("lists what was left out first, then counts by class, then the details, each extension once", async () => {
    const c = await writeCase("report-order", {
      ...doc31({}),
      paths: {
        "/fixture-a": { get: op("fixtureA") },
        "/fixture-b": { get: op("fixtureB") },
        "/fixture-c": { get: op("fixtureC") },
        // The same template twice, with one method: one operation (OpenAPI 3.1 §4.8.8).
        "/fixture-d/{a}": { get: op("fixtureD") },
        "/fixture-d/{b}": { get: op("fixtureE") },
      },
    });
    const source = await readOpenApi(join(c.dir, "openapi.json"));
    const report = reportText(c.result, source);
    const at = (heading: string) => {
      const index = report.indexOf(heading);
      expect(index, heading).toBeGreaterThan(-1);
      return index;
    };
    const order = [
      at("## Left out ("),
      at("## Findings by class"),
      at("## What was written"),
      at("## Not carried ("),
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const leftOut = report.slice(order[0], order[1]);
    expect(leftOut).toMatch(/^- `#\/paths\/~1fixture-d~1\{b\}\/get`: GET /m);
    // One line for the extension at its four places, none per place.
    expect(report).toContain(
      "- `x-fixture-note`, a vendor extension, at 4 places (the first `#/paths/~1fixture-a/get/x-fixture-note`): not carried",
    );
    expect(report).not.toContain("- `#/paths/~1fixture-b/get/x-fixture-note`");
    const classes = report.slice(order[1], order[2]);
    expect(classes).toMatch(/^\| left out \| .+ \| 1 \|$/m);
    expect(classes).toMatch(/^\| not carried \| a vendor extension \| 4 \|$/m);
  });
});
