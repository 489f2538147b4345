/**
 * A cause's class (src/importer/findings.ts): one cause met in many places or documents, with
 * other names, paths and numbers, is one class; different causes stay apart.
 */
import { describe, expect, it } from "vitest";
import { causeClass as classOf, leftOutByClass } from "../../src/importer/findings";

describe("a cause's class", () => {
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

describe("left-out units by class", () => {
  it("counts each class once per unit, most frequent first, and leaves other findings out", () => {
    expect(
      leftOutByClass([
        {
          kind: "lost",
          pointer: "#/paths/~1a",
          message: "left out: the key holds a query (`/a?x=1`)",
        },
        {
          kind: "lost",
          pointer: "#/paths/~1b",
          message: "left out: the key holds a query (`/b?y=2`)",
        },
        {
          kind: "lost",
          pointer: "#/paths/~1c/get",
          message: "left out: operation getC needs two Authorization credentials",
        },
        { kind: "changed", pointer: "#/x", message: "a derived id" },
      ]),
    ).toEqual([
      ["the key holds a query", 2],
      ["operation … needs two Authorization credentials", 1],
    ]);
  });
});
