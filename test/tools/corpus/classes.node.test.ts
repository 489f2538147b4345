/** The corpus run's summary (./classes.ts): the figures add up, and causes are classed. */
import { describe, expect, it } from "vitest";
import { type DocumentResult, summarise } from "./classes";

const result = (over: Partial<DocumentResult>): DocumentResult => ({
  document: "fixture.json",
  bytes: 1,
  version: "openapi 3.1.0",
  ok: true,
  declared: 10,
  served: 10,
  leftOut: [],
  findings: {},
  seconds: 1,
  peakHeapMiB: 10,
  ...over,
});

describe("the summary", () => {
  it("counts documents, operations and classes", () => {
    const lines = summarise([
      result({ document: "a.json" }),
      result({
        document: "b.json",
        served: 5,
        leftOut: Array(5).fill("left out: the key holds a fragment (`/#A=B`)"),
      }),
      result({ document: "c.json", ok: false, cause: "exit 134: out of memory", served: 0 }),
    ]);
    expect(lines[0]).toBe(
      "documents: 3; imported 2 (66.7%), whole (>= 98% of their operations served) 1",
    );
    expect(lines[1]).toBe("operations: 15 of 30 served (50.0%)");
    expect(lines).toContain("       5  the key holds a fragment");
    expect(lines).toContain("       1  exit #: out of memory");
  });
});
