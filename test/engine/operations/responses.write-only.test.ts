/**
 * No answer carries a write-only member (OpenAPI 3.1 §4.8.24.1: a card's security code is
 * sent, never answered), whoever made it: a handler that echoes its input, an example that
 * holds one, at any depth, in every RESPONSE_VALIDATION setting; leaving one out is logged
 * with where, never what. FIXTURE contract.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../src/contract-language/define-handlers";
import { writeOnly } from "../../../src/contract-language/schema";
import { logsOf } from "../../support/events";

const FixtureCard = z.object({
  last4: z.string(),
  cvc: writeOnly(z.string()),
  holder: z.optional(z.object({ name: z.string(), pin: z.optional(writeOnly(z.string())) })),
});
const CANARY = "FIXTURE-SECRET-0000";
const card = { last4: "4242", cvc: CANARY, holder: { name: "FIXTURE", pin: CANARY } };

const CONTRACT = defineContract({
  resources: { FixtureCard },
  operations: {
    fixtureEchoCard: {
      method: "POST",
      path: "/fixture-cards",
      request: { body: { "application/json": FixtureCard } },
      responses: {
        201: { description: "FIXTURE stored", content: { "application/json": FixtureCard } },
      },
    },
    fixtureListCards: {
      method: "GET",
      path: "/fixture-cards",
      responses: {
        200: {
          description: "FIXTURE cards",
          content: {
            "application/json": {
              schema: z.array(FixtureCard),
              examples: { one: { value: [card] } },
            },
          },
        },
      },
    },
  },
});

const handled = createApp(CONTRACT, {
  engine: BUILD_ENGINE,
  jsonSchema: z.toJSONSchema,
  handlers: defineHandlers(CONTRACT, {
    // FIXTURE: a handler that answers what it was sent, secrets and all.
    fixtureEchoCard: ({ body }) => ({ status: 201, body: body.value }),
  }),
});

describe("a write-only member is never answered", () => {
  for (const mode of ["off", "log", "enforce"])
    it(`in a handler's answer, at any depth, with RESPONSE_VALIDATION ${mode}`, async () => {
      let res: Response | undefined;
      const lines = await logsOf(async () => {
        res = await handled.request(
          "/fixture-cards",
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(card),
          },
          { ...env, RESPONSE_VALIDATION: mode },
        );
      });
      expect(res?.status).toBe(201);
      const text = (await res?.text()) ?? "";
      expect(text).not.toContain(CANARY);
      expect(JSON.parse(text)).toEqual({ last4: "4242", holder: { name: "FIXTURE" } });
      const warned = lines.find((l) => l.includes("write-only members"));
      expect(warned).toContain('"members":["/cvc","/holder/pin"]');
      expect(warned).not.toContain(CANARY);
    });

  it("in an answer from the document's examples", async () => {
    const res = await handled.request(
      "/fixture-cards",
      {},
      {
        ...env,
        UNHANDLED_OPERATIONS: "examples",
      },
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(CANARY);
    expect(JSON.parse(text)).toEqual([{ last4: "4242", holder: { name: "FIXTURE" } }]);
  });
});
