/**
 * The round-trip report's security schemes (src/importer/compare/security.ts): a scheme the
 * platform cannot verify counts once, at the scheme. A FIXTURE document, imported and served
 * by the real app. Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../../src/importer/compare/index";
import { doc31, importCase } from "../../support/import-case";

describe("the round-trip report", () => {
  it("counts a security scheme the platform cannot verify once, at the scheme, not again at each operation it guarded", async () => {
    const op = (operationId: string) => ({
      operationId,
      responses: { "204": { description: "FIXTURE" } },
    });
    const document = doc31({
      security: [{ fixtureTls: [] }, { fixtureKey: [] }],
      paths: {
        "/fixture-a": { get: op("fixtureA"), post: op("fixtureB") },
        "/fixture-b": { get: op("fixtureC"), put: op("fixtureD"), delete: op("fixtureE") },
      },
      components: {
        securitySchemes: {
          // FIXTURE: a kind of scheme OpenAPI does not define, which the platform cannot read.
          fixtureTls: { type: "fixtureUnknownKind" },
          fixtureKey: { type: "apiKey", in: "header", name: "X-Fixture-Key" },
        },
      },
    });
    const c = await importCase("unverifiable", document);
    const comparison = compareDocuments(document, "3.1", await c.served());
    expect(comparison.items.filter((i) => !i.kept).map((i) => `${i.pointer}: ${i.note}`)).toEqual([
      "#/components/securitySchemes/fixtureTls: security scheme fixtureTls is missing (and so is every way in that needs it)",
    ]);
    // Five operations' ways in, the two schemes, and the key's type, in and name.
    expect(comparison.byCategory.get("security")).toEqual({ kept: 9, total: 10 });
  });
});
