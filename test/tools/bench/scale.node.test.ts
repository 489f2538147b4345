/**
 * The scale section's choice of documents: the generated FIXTURE ones always, and the
 * operation a real document is timed on when none is named. FIXTURE documents only.
 */
import { describe, expect, it } from "vitest";
import { GENERATED_DOCUMENTS } from "./generate-document";
import { scaleDocuments, simplestOperation } from "./scale";

describe("the scale section's documents", () => {
  it("holds the sized generated contract and every generated corpus document", () => {
    const names = scaleDocuments(300, 1000).map((d) => d.name);
    expect(names.slice(0, 1 + GENERATED_DOCUMENTS.length)).toEqual([
      "generated",
      ...GENERATED_DOCUMENTS.map((d) => d.name),
    ]);
  });

  it("times a document's GET of the fewest parameters when none is named", () => {
    const document = {
      paths: {
        "/fixture-widgets": { post: {} },
        "/fixture-widgets/{id}": { get: {} },
        "/fixture-status": { get: { parameters: [{ name: "verbose", in: "query" }] } },
        "/fixture-ping": { parameters: [], get: {} },
      },
    };
    expect(simplestOperation(document)).toEqual({ method: "get", path: "/fixture-ping" });
  });

  it("falls back to a document's first write when it has no GET", () => {
    const document = { paths: { "/fixture-jobs": { post: {} } } };
    expect(simplestOperation(document)).toEqual({ method: "post", path: "/fixture-jobs" });
  });
});
