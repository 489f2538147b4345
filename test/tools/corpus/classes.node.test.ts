/**
 * The corpus run's classes and summary (./classes.ts): one cause met in many documents, with
 * other names, paths and numbers, is one class; the figures add up.
 */
import { describe, expect, it } from "vitest";
import { classOf, type DocumentResult, summarise } from "./classes";

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

describe("a failure's class", () => {
  it("is the same for one cause in two documents, whatever it names", () => {
    expect(
      classOf(
        "left out: the key holds a fragment (`/#Action=AddTags`), which is no part of a URL path",
      ),
    ).toBe(
      classOf(
        "left out: the key holds a fragment (`/#Action=RemoveTags`), which is no part of a URL path",
      ),
    );
    expect(
      classOf("the generated contract does not type-check (src/contract/purpose.ts(3,5): …)"),
    ).toBe("the generated contract does not type-check");
    expect(classOf('a segment "v5" of /v5/hashes:search at #/paths/~1v5 is 12 long')).toBe(
      'a segment "…" of /… at #/… is # long',
    );
  });

  it("names no operation, component or webhook of the document", () => {
    expect(
      classOf(
        "left out: operation addFavorite can only be reached with credentials the platform cannot verify",
      ),
    ).toBe(
      classOf(
        "left out: operation removeNode can only be reached with credentials the platform cannot verify",
      ),
    );
  });

  it("tells different causes apart", () => {
    expect(classOf("left out: needs two Authorization credentials")).not.toBe(
      classOf("left out: can only be reached with credentials the platform cannot verify"),
    );
  });
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
