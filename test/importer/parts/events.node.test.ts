/**
 * Part 6 (src/importer/parts/events.ts), imported from FIXTURE documents and served by the
 * real app: webhooks and callbacks as events, and the FIXTURE events contract round-tripped.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import {
  doc30,
  doc31,
  findingLines,
  importCase,
  type Json,
  served,
} from "../../support/import-case";

describe("events (part 6)", () => {
  it("reads webhooks and callbacks as part 6's events", async () => {
    const payload = { type: "object", properties: { id: { type: "string" } } };
    const c = await importCase("events", {
      ...doc31({}),
      paths: {
        "/subscriptions": {
          post: {
            operationId: "subscribe",
            responses: { "201": { description: "FIXTURE" } },
            callbacks: {
              ping: {
                "{$request.body#/url}": {
                  post: {
                    summary: "A ping",
                    requestBody: { content: { "application/json": { schema: payload } } },
                    responses: { "200": { description: "ok" } },
                  },
                },
              },
            },
          },
        },
      },
      webhooks: {
        thingAdded: {
          post: {
            summary: "A thing was added",
            description: "FIXTURE",
            requestBody: {
              content: {
                "application/json": { schema: payload, examples: { one: { value: { id: "1" } } } },
              },
            },
            responses: { "2XX": { description: "Received" }, "410": { description: "Gone" } },
          },
        },
      },
    });
    expect(Object.keys(c.contract.events)).toEqual(["ping", "thingAdded"]);
    // The operation a callback belongs to may emit it; the document says so (x-emits).
    expect(c.contract.operations.subscribe?.emits).toEqual(["ping"]);
    expect((await served(c)).paths?.["/subscriptions"]?.post).toMatchObject({
      "x-emits": ["ping"],
    });
    const hook = (await served(c)).webhooks?.thingAdded?.post as Json;
    expect(hook).toMatchObject({
      summary: "A thing was added",
      description: "FIXTURE",
      responses: { "2XX": { description: "Received" }, 410: { description: "Gone" } },
    });
    expect(findingLines(c).join("\n")).toContain(
      "callback ping of subscribe: event ping; where it is sent ({$request.body#/url}) is deployment configuration",
    );
  });
});

describe("3.0's x-webhooks extension", () => {
  it("is read as the webhooks OpenAPI 3.1 declares (§4.8.1): each an event, served under webhooks", async () => {
    const payload = { $ref: "#/components/schemas/FixturePush" };
    const c = await importCase("x-webhooks", {
      ...doc30({}),
      paths: {},
      "x-webhooks": {
        "fixture-push": {
          post: {
            summary: "FIXTURE pushed",
            requestBody: {
              content: { "application/json": { schema: payload } },
            },
            responses: { "200": { description: "FIXTURE received" } },
          },
        },
      },
      components: {
        schemas: {
          FixturePush: {
            type: "object",
            required: ["ref"],
            properties: { ref: { type: "string" }, note: { type: "string", nullable: true } },
          },
        },
      },
    });
    expect(Object.keys(c.contract.events)).toEqual(["fixture-push"]);
    const doc = await served(c);
    expect(doc.webhooks?.["fixture-push"]?.post).toMatchObject({ summary: "FIXTURE pushed" });
    expect(doc["x-webhooks"]).toBeUndefined();
    expect(findingLines(c)).toContain(
      "changed #/x-webhooks: read as the document's webhooks (OpenAPI 3.1 §4.8.1 declares them in `webhooks`), served there",
    );
  });
});

describe("a contract, served, imported and served again", () => {
  it("is the same document (the FIXTURE events contract: emits, envelopes, signature headers)", async () => {
    const { servedDocument } = await import("../../support/vocabulary-document");
    const { FIXTURE_EVENTS_CONTRACT } = await import("../../fixtures/events");
    const doc1 = await servedDocument(FIXTURE_EVENTS_CONTRACT);
    const c = await importCase("events-round-trip", doc1);
    expect(c.contract.operations.fixtureShipParcel?.emits).toEqual([
      "fixtureParcelShipped",
      "fixtureParcelWeighed",
    ]);
    expect(await c.served()).toEqual(doc1);
  });
});
