/**
 * The import as a whole (src/importer/contract-code.ts): the rich FIXTURE document imported
 * whole and round-tripped, and the FIXTURE vocabulary contract served, imported and served
 * again. The generated code's compiling and Biome are checked for every case the importer's
 * tests wrote in contract-code.slow.test.ts. Every document here is a FIXTURE.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../src/importer/compare/index";
import { readOpenApi } from "../../src/importer/source";
import { type ImportedCase, importCase } from "../support/import-case";

describe("the rich FIXTURE document", () => {
  const RICH = "test/fixtures/openapi/rich-3.1.yaml";
  let rich: ImportedCase;

  it("is imported whole: every operation; its only losses in the round-trip report are each webhook body and its examples, which deliveries wrap in the Standard Webhooks envelope, and its one change the name Problem, which the platform's own schema has", async () => {
    const source = await readOpenApi(RICH);
    rich = await importCase("rich", { yaml: readFileSync(RICH, "utf8") });
    expect(Object.keys(rich.contract.operations)).toHaveLength(10);
    const comparison = compareDocuments(source.document, source.major, await rich.served());
    expect(comparison.items.filter((i) => !i.kept).map((i) => i.pointer)).toEqual([
      "#/webhooks/loanDue/post/requestBody/content/application~1json/schema",
      "#/webhooks/loanDue/post/requestBody/content/application~1json/examples",
      "#/paths/~1books/post/callbacks/catalogued/{$request.body#~1callbackUrl}/post/requestBody/content/application~1json/schema",
    ]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.pointer)).toEqual([
      "#/components/schemas/Problem",
    ]);
    const wrapped = rich.findings.filter((f) => f.message.includes("Standard Webhooks envelope"));
    expect(wrapped).toHaveLength(2);
    expect(comparison.fidelity).toBeGreaterThanOrEqual(0.95);
  });

  it("round-trips: the document it serves, imported again, is served the same", async () => {
    const doc1 = await rich.served();
    const again = await importCase("rich-again", doc1);
    expect(await again.served()).toEqual(doc1);
  });
});

describe("a contract, served, imported and served again", () => {
  it("is the same document (the FIXTURE vocabulary contract)", async () => {
    const { vocabularyDocument } = await import("../support/vocabulary-document");
    const doc1 = await vocabularyDocument();
    const c = await importCase("vocabulary", doc1);
    expect(await c.served()).toEqual(doc1);
  });
});
