import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/platform/env";
import { platform } from "../../src/platform/middleware";
import { allowHeader, mountResource } from "../../src/platform/resource";
import { expectProblem } from "../support/assertions";

describe("allowHeader (RFC 9110 §10.2.1)", () => {
  it("adds HEAD when GET is allowed (§9.3.2) and always OPTIONS (§9.3.7)", () => {
    expect(allowHeader(["GET"])).toBe("GET, HEAD, OPTIONS");
  });
  it("does not add HEAD without GET", () => {
    expect(allowHeader(["DELETE", "POST"])).toBe("POST, DELETE, OPTIONS");
  });
  it("orders methods the same way whatever order they were declared in", () => {
    expect(allowHeader(["PATCH", "GET", "PUT"])).toBe(allowHeader(["PUT", "PATCH", "GET"]));
  });
});

describe("mountResource", () => {
  const app = new Hono<AppEnv>();
  app.use(platform());
  mountResource(app, "/fixture-resource", { POST: (c) => c.body(null, 204) });

  it("answers a declared method with its handler", async () => {
    const res = await app.request("/fixture-resource", { method: "POST" });
    expect(res.status).toBe(204);
  });

  it("answers another method 405 with Allow (RFC 9110 §15.5.6)", async () => {
    const res = await app.request("/fixture-resource", { method: "GET" });
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    await expectProblem(res, 405);
  });

  it("answers OPTIONS 204 with Allow, no body, and no-store (RFC 9110 §9.3.7: not cacheable)", async () => {
    const res = await app.request("/fixture-resource", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe("");
  });
});
