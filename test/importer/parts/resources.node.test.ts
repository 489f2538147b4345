/**
 * Part 2 (src/importer/parts/resources.ts), imported from a FIXTURE document and served by the
 * real app: a component named like the platform's own schema is renamed past the document's
 * own names. Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { accepts, bodyCase, findingLines, importCase } from "../../support/import-case";

describe("component schemas (part 2)", () => {
  it("renames a platform-named schema to a name the document does not use itself", async () => {
    const c = await importCase(
      "rename-collision",
      bodyCase(
        { $ref: "#/components/schemas/SpecProblem" },
        {
          schemas: {
            Problem: { type: "object", properties: { code: { type: "integer" } } },
            SpecProblem: {
              type: "object",
              required: ["inner"],
              properties: { inner: { $ref: "#/components/schemas/Problem" } },
            },
          },
        },
      ),
    );
    expect(Object.keys(c.contract.resources).sort()).toEqual(["SpecProblem", "SpecProblem2"]);
    expect(findingLines(c).join("\n")).toContain(
      "renamed SpecProblem2: the platform's own schema is called Problem",
    );
    expect(await accepts(c, { inner: { code: 1 } })).toBe(true);
    expect(await accepts(c, { inner: { code: "x" } })).toBe(false);
  });
});
