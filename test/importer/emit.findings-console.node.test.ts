/**
 * What the import prints of its findings (src/importer/emit.ts, `findingsOnConsole`): a real
 * document gives hundreds, and the summary (what was written, what a deployment must set,
 * the next steps) must not scroll away under them. Every finding stays in the report file.
 */
import { describe, expect, it } from "vitest";
import { findingsOnConsole } from "../../src/importer/emit";
import type { Finding } from "../../src/importer/findings";

const finding = (i: number, message = `FIXTURE finding ${i}`): Finding => ({
  kind: "lost",
  pointer: `#/paths/~1fixture-${i}`,
  message,
});

describe("the import's findings on the console", () => {
  it("prints every finding while they are few", () => {
    const few = Array.from({ length: 5 }, (_, i) => finding(i));
    const lines = findingsOnConsole(few, "FIXTURE-REPORT.md", 5);
    expect(lines).toHaveLength(5);
    expect(lines.join("\n")).not.toContain("FIXTURE-REPORT.md");
  });

  it("prints what was left out first, then how many more there are and where every one is", () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      finding(i, i % 50 === 49 ? `left out: FIXTURE cause ${i}` : `FIXTURE finding ${i}`),
    );
    const lines = findingsOnConsole(many, "FIXTURE-REPORT.md", 10);
    expect(lines).toHaveLength(11);
    // The four left out come first, in the document's order.
    expect(lines.slice(0, 4).every((line) => line.includes("left out: FIXTURE cause"))).toBe(true);
    expect(lines[4]).toContain("FIXTURE finding 0");
    expect(lines[10]).toBe("  … and 190 more: every finding is in FIXTURE-REPORT.md");
  });

  it("says a message found at many places once, with how many, after what a caller meets first, in the words of the report's sections", () => {
    const extension = (i: number): Finding => ({
      kind: "not-enforced",
      pointer: `#/definitions/Fixture${i}/x-fixture-name`,
      message: "x-fixture-name: written into the document as is",
    });
    const many = [
      ...Array.from({ length: 120 }, (_, i) => extension(i)),
      { kind: "changed", pointer: "#/paths/~1fixture", message: "FIXTURE renamed" },
      finding(1),
      finding(2, "left out: FIXTURE cause"),
    ] as Finding[];
    const lines = findingsOnConsole(many, "FIXTURE-REPORT.md", 10);
    expect(lines).toEqual([
      "  not carried         #/paths/~1fixture-2: left out: FIXTURE cause",
      "  not carried         #/paths/~1fixture-1: FIXTURE finding 1",
      "  carried differently #/paths/~1fixture: FIXTURE renamed",
      "  not enforced        120 places, the first #/definitions/Fixture0/x-fixture-name: x-fixture-name: written into the document as is",
      "  every finding, at each of its places, is in FIXTURE-REPORT.md",
    ]);
  });
});
