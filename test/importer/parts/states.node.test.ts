/**
 * Part 3 (src/importer/parts/states.ts): OpenAPI carries no state machine, so the FIXTURE
 * states contract is served, imported from its own document and served again: the machines on
 * its resources and the transitions on its operations come back.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { importCase } from "../../support/import-case";

describe("a contract, served, imported and served again", () => {
  it("is the same document (the FIXTURE states contract: machines on resources, transitions on operations)", async () => {
    const { servedDocument } = await import("../../support/vocabulary-document");
    const { FIXTURE_STATES_CONTRACT } = await import("../../fixtures/states");
    const doc1 = await servedDocument(FIXTURE_STATES_CONTRACT);
    const c = await importCase("states-round-trip", doc1);
    expect(c.contract.states).toEqual(FIXTURE_STATES_CONTRACT.states);
    expect(c.contract.operations.fixtureShipOrder?.transition).toEqual({
      machine: "fixtureOrderLifecycle",
      trigger: "ship",
    });
    expect(await c.served()).toEqual(doc1);
  });
});
