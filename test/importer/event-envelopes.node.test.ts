/**
 * A webhook payload that already is an envelope (src/importer/event-envelopes.ts), imported
 * from a FIXTURE document and served by the real app: delivered as it is, and said so.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { doc31, findingLines, importCase, type Json } from "../support/import-case";

describe("a webhook payload", () => {
  it("delivers a webhook payload that already is an envelope as it is, and says so", async () => {
    const c = await importCase("envelope-payload", {
      ...doc31({}),
      webhooks: {
        "fixture.invoice.paid": {
          post: {
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["type", "created_at", "data"],
                    properties: {
                      type: { type: "string", const: "fixture.invoice.paid" },
                      created_at: { type: "string", format: "date-time" },
                      data: { type: "object", properties: { id: { type: "string" } } },
                    },
                  },
                },
              },
            },
            responses: { "200": { description: "FIXTURE received" } },
          },
        },
      },
    });
    expect(c.contract.events["fixture.invoice.paid"]?.envelope).toBe("payload");
    expect(findingLines(c).join("\n")).toContain("its payload is an envelope already");
    const served = (await c.served()) as { webhooks: Record<string, { post: Json }> };
    const post = served.webhooks["fixture.invoice.paid"]?.post as Json & {
      requestBody: { content: Record<string, { schema: Json }> };
    };
    // Served as the payload itself, no Standard Webhooks envelope around it.
    const schema = post.requestBody.content["application/json"]?.schema as Json;
    expect(Object.keys(schema.properties as Json)).toEqual(["type", "created_at", "data"]);
    expect(post["x-envelope"]).toBe("payload");
  });
});
