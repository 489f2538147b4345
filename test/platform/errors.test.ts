import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../src/platform/env";
import { errorResponse } from "../../src/platform/errors";
import { platform } from "../../src/platform/middleware";
import { expectProblem } from "../support/assertions";

// The same wiring createApp uses (platform middleware + onError), around fixture routes
// that fail on purpose.
const app = new Hono<AppEnv>();
app.use(platform());
app.get("/fixture-throws-error", () => {
  throw new Error("fixture secret at /src/fixture.ts:12");
});
app.get("/fixture-throws-string", () => {
  throw "fixture secret string";
});
app.get("/fixture-throws-http-400", () => {
  throw new HTTPException(400, { message: "fixture secret message" });
});
app.onError(errorResponse);

afterEach(() => vi.restoreAllMocks());

describe("one error path (RFC 9457, no internals to the client)", () => {
  it.each(["/fixture-throws-error", "/fixture-throws-string"])(
    "answers %s with a generic 500 problem and logs the whole error",
    async (path) => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const res = await app.request(path);
      const text = await res.clone().text();
      const body = await expectProblem(res, 500);
      expect(text).not.toContain("fixture secret");
      expect(body.type).toBe("about:blank");
      expect(body.title).toBe("Internal Server Error");

      expect(logged).toHaveBeenCalledTimes(1);
      const line = JSON.parse(String(logged.mock.calls[0]?.[0])) as Record<string, unknown>;
      expect(line.level).toBe("error");
      expect(line.requestId).toBe(body.requestId);
      expect(JSON.stringify(line.error)).toContain("fixture secret");
    },
  );

  it("keeps the status of Hono's own 4xx exception, without its message", async () => {
    const res = await app.request("/fixture-throws-http-400");
    const text = await res.clone().text();
    await expectProblem(res, 400);
    expect(text).not.toContain("fixture secret");
  });
});
