/**
 * Answers checked against their declarations, by the RESPONSE_VALIDATION mode.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectProblem } from "../../support/assertions";
import { callFixture } from "../../support/fixture-app";

afterEach(() => vi.restoreAllMocks());

describe("response validation", () => {
  it("enforce: an invalid body becomes a 500 problem and an error log line", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const body = await expectProblem(await callFixture("/fixture-broken/body"), 500);
    const line = JSON.parse(String(logged.mock.calls[0]?.[0])) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: "error",
      operationId: "fixtureBrokenAnswer",
      requestId: body.requestId,
    });
    expect(String(line.mismatch)).toContain("#/id");
  });

  it("enforce: an undeclared status becomes a 500 problem", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expectProblem(await callFixture("/fixture-broken/status"), 500);
  });

  it("log: the answer is sent, and a warning logged", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await callFixture("/fixture-broken/body", undefined, {
      env: { RESPONSE_VALIDATION: "log" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 7 });
    expect(warned).toHaveBeenCalledTimes(1);
  });

  it("off: the answer is sent unchecked", async () => {
    const warned = vi.spyOn(console, "warn");
    const errored = vi.spyOn(console, "error");
    const res = await callFixture("/fixture-broken/body", undefined, {
      env: { RESPONSE_VALIDATION: "off" },
    });
    expect(res.status).toBe(200);
    expect(warned).not.toHaveBeenCalled();
    expect(errored).not.toHaveBeenCalled();
  });

  it("a zod error thrown inside a handler is a 500, not a 4xx", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const body = await expectProblem(await callFixture("/fixture-broken/zod-throw"), 500);
    expect(body.type).toBe("about:blank");
  });

  it("a declared status without a body is sent without one", async () => {
    const res = await callFixture("/fixture-widgets/w404");
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("");
  });
});
