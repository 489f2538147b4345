/**
 * Responses declared by range (`4XX`) and `default` (OpenAPI 3.1 §4.8.16.2), through the
 * FIXTURE vocabulary app inside workerd (answers checked in "enforce" mode): an answer is
 * checked against its exact status first, then its range, then `default`; query values the
 * spec types as numbers and booleans are read from their text.
 */
import { describe, expect, it } from "vitest";
import { expectProblem } from "../../support/assertions";
import { callVocabulary } from "../../support/vocabulary-app";

const get = (query: string) => callVocabulary(`/fixture-statuses?${query}`);

describe("an operation with 200, 4XX and default", () => {
  it("answers the exact status with its declaration", async () => {
    const res = await get("status=200");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: "status", value: 200 });
  });

  it.each([400, 404, 418, 499])("answers %d by the 4XX declaration", async (status) => {
    const res = await get(`status=${status}`);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ kind: "status", value: status });
  });

  it.each([201, 302, 503])(
    "answers %d by default, in the media type it declares",
    async (status) => {
      const res = await get(`status=${status}`);
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await res.text()).toBe(`status ${status}`);
    },
  );

  it("refuses an answer that default covers with a body default does not declare (500)", async () => {
    const res = await get("status=503&verbose=true");
    const body = await expectProblem(res, 500);
    expect(body.type).toBe("about:blank");
  });

  it("reads a number and a boolean from the query's text, and refuses what is neither", async () => {
    expect((await get("status=418&verbose=false")).status).toBe(418);
    // The vocabulary's error model answers invalid input as its own 400 type.
    const body = await expectProblem(await get("status=4e2x"), 400);
    expect(body.type).toBe("https://errors.fixture.test/invalid-input");
    expect(JSON.stringify(body)).not.toContain("4e2x");
  });
});
