/**
 * Routes derived from a FIXTURE contract's part 4 (src/engine/operations/mount.ts): 404 /
 * 405 + Allow / OPTIONS / HEAD, the validating placeholder (501 after the input was
 * checked), and an operation planned on its first request. Which route wins among
 * overlapping ones is in mount.test.ts; the templates real documents use, in
 * path-template.test.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { expectPlatformHeaders, expectProblem } from "../../support/assertions";
import { callFixture, json } from "../../support/fixture-app";

describe("routes derived from declared operations", () => {
  it("answer a declared operation with its handler", async () => {
    const res = await callFixture("/fixture-widgets/w7");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectPlatformHeaders(res);
    expect(await res.json()).toEqual({ id: "w7", name: "fixture", size: 1 });
  });

  it("answer an undeclared path 404, not 501, once part 4 declares operations", async () => {
    const body = await expectProblem(await callFixture("/fixture-nothing-here"), 404);
    expect(body.type).toBe("about:blank");
  });

  it("answer an undeclared method on a declared path 405 with Allow from the contract (RFC 9110 §15.5.6)", async () => {
    const res = await callFixture("/fixture-widgets", { method: "PUT" });
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    await expectProblem(res, 405);
    const item = await callFixture("/fixture-widgets/w1", { method: "POST" });
    expect(item.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE, OPTIONS");
  });

  it("answer OPTIONS 204 with the same Allow (RFC 9110 §9.3.7)", async () => {
    const res = await callFixture("/fixture-widgets", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
  });

  it("answer HEAD like GET, without a body (RFC 9110 §9.3.2)", async () => {
    const res = await callFixture("/fixture-widgets/w7", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe("");
  });

  it("validate a declared operation without a handler, then answer 501 operation-not-implemented", async () => {
    const invalid = await expectProblem(
      await callFixture("/fixture-widgets/nope", { method: "DELETE" }),
      422,
    );
    expect(invalid.errors).toEqual([expect.objectContaining({ in: "path", pointer: "#/id" })]);

    const body = await expectProblem(
      await callFixture("/fixture-widgets/w1", { method: "DELETE" }),
      501,
    );
    expect(body.type).toBe("/_service/problems/operation-not-implemented");
    expect(body.operationId).toBe("fixtureDeleteWidget");
  });

  it("serve the page of every problem type the answers name", async () => {
    for (const [path, init] of [
      ["/fixture-widgets/w1", { method: "DELETE" }],
      ["/fixture-widgets", json({})],
      [
        "/fixture-widgets",
        { method: "POST", body: "x", headers: { "content-type": "text/plain" } },
      ],
    ] as const) {
      const { type } = (await (await callFixture(path, init)).json()) as { type: string };
      expect((await callFixture(type)).status).toBe(200);
    }
  });
});

describe("planning an operation", () => {
  // An isolate starts per cold request: planning every operation at start-up was most of an
  // imported contract's cold start (test/tools/bench/README.md). Start-up checks read the
  // declarations' names only; planning reads the schemas, which a getter here counts.
  it("happens on its first request, not when the app starts, and once", async () => {
    let planned = 0;
    const content = {
      get "application/json"() {
        planned += 1;
        return z.object({ fixtureName: z.string() });
      },
    };
    const contract = defineContract({
      operations: {
        fixtureLazy: {
          method: "GET",
          path: "/fixture-lazy",
          responses: { 200: { description: "FIXTURE", content } },
        },
      },
    });
    const app = createApp(contract, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema });
    expect(planned).toBe(0);
    expect((await app.request("/fixture-lazy", {}, env)).status).toBe(501);
    const afterFirst = planned;
    expect(afterFirst).toBeGreaterThan(0);
    await app.request("/fixture-lazy", {}, env);
    expect(planned).toBe(afterFirst);
  });
});
