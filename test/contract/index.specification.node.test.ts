/**
 * The specification is the project's input, kept in the repository beside the contract
 * (src/contract/SPECIFICATION.md), and the contract is traced to it part by part: a part
 * the specification does not show must declare nothing, and a part it gives must be
 * declared. So a revision of the document that fills a part fails the suite until the
 * contract declares it, and a declaration the document does not back fails it too.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contract } from "../../src/contract";
import { SPEC_PARTS } from "../../src/contract-language/parts";
import { EMPTY_CONTRACT, FIXTURE_ONE_PART_CONTRACTS } from "../fixtures/contracts";
import { specificationMismatches, specificationParts } from "../support/specification";

const SPECIFICATION = readFileSync("src/contract/SPECIFICATION.md", "utf8");

describe("the specification in the repository", () => {
  it("has the nine parts, in the order and words the contract uses", () => {
    expect(specificationParts(SPECIFICATION).map((p) => `${p.number}. ${p.title}`)).toEqual(
      SPEC_PARTS.map((p) => `${p.number}. ${p.title}`),
    );
  });

  it("and the shipped contract agree, part by part", () => {
    expect(specificationMismatches(SPECIFICATION, contract)).toEqual([]);
  });
});

describe("the trace can fail", () => {
  /** A FIXTURE document in the specification's shape that gives the parts `given`, and no other. */
  const document = (...given: number[]) =>
    SPEC_PARTS.map(
      (p) =>
        `## ${p.number}. ${p.title}\n\n${given.includes(p.number) ? "FIXTURE: given." : "Not shown."}\n`,
    ).join("\n");
  const NOTHING_SHOWN = document();

  it("a revision that gives a part the contract does not declare", () => {
    expect(specificationMismatches(document(4), EMPTY_CONTRACT)).toEqual([
      "part 4 (Endpoints): the specification gives it, but src/contract/endpoints.ts declares nothing",
    ]);
  });

  it("a declaration the specification does not back", () => {
    expect(specificationMismatches(NOTHING_SHOWN, FIXTURE_ONE_PART_CONTRACTS.errors)).toEqual([
      "part 7 (Errors): src/contract/errors.ts declares it, but the specification does not show it",
    ]);
    expect(specificationMismatches(document(7), FIXTURE_ONE_PART_CONTRACTS.errors)).toEqual([]);
  });

  it("a document whose parts are missing or renamed", () => {
    const renamed = NOTHING_SHOWN.replace("## 9. Versioning", "## 9. Versions");
    expect(specificationMismatches(renamed, EMPTY_CONTRACT)).toEqual([
      'part 9 is "Versions" in the specification, "Versioning" here',
    ]);
    expect(specificationMismatches("# nothing", EMPTY_CONTRACT)).toEqual([
      "the specification's parts are ",
    ]);
  });
});
