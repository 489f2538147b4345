/**
 * The round-trip report's operations (src/importer/compare/operations.ts): an operationId or
 * event name the import gives otherwise counts once, as changed. A FIXTURE document, imported
 * and served by the real app. Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../../src/importer/compare/index";
import { doc31, importCase } from "../../support/import-case";

describe("the round-trip report", () => {
  it("counts an operationId or event name the import gives otherwise once, as changed: an id used twice, a webhook's id, a second callback of a name", async () => {
    const ok = { "204": { description: "FIXTURE" } };
    const withCallback = (summary: string) => ({
      operationId: "fixtureSame",
      callbacks: {
        fixtureDone: { "{$request.body#/url}": { post: { summary, responses: ok } } },
      },
      responses: ok,
    });
    const document = doc31({
      paths: {
        "/fixture-a": { post: withCallback("FIXTURE a is done.") },
        "/fixture-b": { post: withCallback("FIXTURE b is done.") },
      },
      webhooks: {
        fixtureAdded: { post: { operationId: "onFixtureAdded", summary: "Added.", responses: ok } },
      },
    });
    const c = await importCase("renamed-ids", document);
    const comparison = compareDocuments(document, "3.1", await c.served());
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(
      comparison.items.filter((i) => i.changed).map((i) => `${i.pointer}: ${i.changed}`),
    ).toEqual([
      "#/paths/~1fixture-b/post/operationId: served as fixtureSame2: another operation is fixtureSame",
      "#/webhooks/fixtureAdded/post/operationId: served as fixtureAdded: an event's operationId is its name",
      "#/paths/~1fixture-b/post/callbacks/fixtureDone/{$request.body#~1url}/post: sent as the event fixtureDone2: another event is fixtureDone",
    ]);
    expect(comparison.fidelity).toBe(1);
  });
});
