/**
 * What each specification part counts for the status report (src/contract-language/parts.ts):
 * part 9 counts the versions it declares, not whether it declares any. FIXTURE contract.
 */
import { describe, expect, it } from "vitest";
import { SPEC_PARTS } from "../../src/contract-language/parts";
import { fixtureVersionsContract } from "../fixtures/versions";

describe("the parts' counts", () => {
  it("part 9 counts each version it declares (three here), and none without part 9", () => {
    const versioning = SPEC_PARTS.find((part) => part.number === 9);
    const contract = fixtureVersionsContract({ in: "header", name: "Fixture-Version" });
    expect(versioning?.count(contract)).toBe(Object.keys(contract.versioning.versions).length);
    expect(versioning?.count(contract)).toBe(3);
    expect(versioning?.count({ ...contract, versioning: undefined })).toBe(0);
  });
});
