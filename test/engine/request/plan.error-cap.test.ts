import { describe, expect, it } from "vitest";
import { toJSONSchema, z } from "zod";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { MAX_LISTED_ERRORS } from "../../../src/engine/request/plan";
import { expectProblem } from "../../support/assertions";

// FIXTURE: a body schema under which every element of a long array is its own violation.
const FIXTURE = defineContract({
  operations: {
    fixtureNumbers: {
      method: "POST",
      path: "/fixture-numbers",
      request: { body: { "application/json": z.array(z.number()) } },
      responses: { 204: { description: "fixture" } },
    },
  },
});
const app = createApp(FIXTURE, { jsonSchema: toJSONSchema, engine: BUILD_ENGINE });

describe("422 answers stay small (no amplification of a large body)", () => {
  it("list at most MAX_LISTED_ERRORS violations, and say how many there were", async () => {
    const res = await app.request("/fixture-numbers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(Array.from({ length: 500 }, () => "x")),
    });
    const body = await expectProblem(res, 422);
    expect(body.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(body.detail).toContain("500 violations");
  });
});
