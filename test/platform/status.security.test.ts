/**
 * Parts 5 and 8 in the interface status report and on the pages: the schemes are counted,
 * the limits listed apart from the platform's defaults, and the problem types that only
 * declarations cause are documented only once declared. FIXTURE contracts only.
 */
import { describe, expect, it } from "vitest";
import { toJSONSchema } from "zod";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { MAX_BODY_BYTES, platformDefaults } from "../../src/platform/defaults";
import { statusReport } from "../../src/platform/status";
import { EMPTY_CONTRACT } from "../fixtures/contracts";
import { FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS } from "../fixtures/security";
import { emptyApp } from "../support/fixture-app";

const report = statusReport(FIXTURE_SECURITY_CONTRACT, platformDefaults(MAX_BODY_BYTES));
const part = (name: string) => report.parts.find((p) => p.name === name);
const app = createApp(FIXTURE_SECURITY_CONTRACT, {
  engine: BUILD_ENGINE,
  handlers: FIXTURE_SECURITY_HANDLERS,
  jsonSchema: toJSONSchema,
});

describe("the status report of a contract that declares parts 5 and 8", () => {
  it("counts the security schemes and the limits", () => {
    const schemes = Object.keys(FIXTURE_SECURITY_CONTRACT.securitySchemes).length;
    const limits = Object.keys(FIXTURE_SECURITY_CONTRACT.limits).length;
    expect(part("authentication")).toMatchObject({
      specified: true,
      declared: { securitySchemes: schemes },
    });
    expect(part("limits")).toMatchObject({ specified: true, declared: { limits } });
  });

  it("lists each limit of the service, apart from the platform defaults, without binding names", () => {
    expect(report.limits.map((l) => l.name)).toEqual(Object.keys(FIXTURE_SECURITY_CONTRACT.limits));
    expect(report.limits).toContainEqual({
      name: "fixtureUploadSize",
      kind: "body-size",
      maxBytes: 64,
      operations: ["fixtureUpload"],
      description: "A fixture cap.",
    });
    expect(report.limits).toContainEqual(
      expect.objectContaining({ name: "fixtureListRate", limit: 2, period: 60, key: "client" }),
    );
    expect(JSON.stringify(report.limits)).not.toContain("binding");
    expect(report.platformDefaults.map((d) => d.name)).toEqual(["maxRequestBodyBytes"]);
  });

  it("lists no limit for a contract that declares none", () => {
    expect(statusReport(EMPTY_CONTRACT, platformDefaults(MAX_BODY_BYTES)).limits).toEqual([]);
  });
});

describe("the HTML pages", () => {
  it("show the limits in their own table", async () => {
    const res = await app.request("https://fixture.test/_service/interface", {
      headers: { accept: "text/html" },
    });
    const html = await res.text();
    expect(html).toContain("<h2>Limits (part 8)</h2>");
    expect(html).toContain("2 requests per 60 s per client address");
    expect(html).toContain("limit from 1 to 50");
    expect(html).toContain("at most 64 bytes per body");
  });

  it("document the 401 and 429 problem types once parts 5 and 8 declare their causes", async () => {
    for (const slug of ["authentication-required", "rate-limit-exceeded"]) {
      const fixture = await app.request(`https://fixture.test/_service/problems/${slug}`);
      expect(fixture.status).toBe(200);
      const empty = await emptyApp().request(`https://fixture.test/_service/problems/${slug}`);
      expect(empty.status).toBe(404);
    }
  });
});
