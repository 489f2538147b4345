import { describe, expect, it } from "vitest";
import { toJSONSchema } from "zod";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { contract } from "../../src/contract";
import { MAX_BODY_BYTES, platformDefaults } from "../../src/platform/defaults";
import { statusReport } from "../../src/platform/status";
import { EMPTY_CONTRACT, FIXTURE_ONE_PART_CONTRACTS } from "../fixtures/contracts";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";

const DEFAULTS = platformDefaults(MAX_BODY_BYTES);

const SPEC_ORDER = [
  "purpose",
  "resources",
  "states",
  "endpoints",
  "authentication",
  "events",
  "errors",
  "limits",
  "versioning",
];

describe("interface status report", () => {
  it("lists the spec's nine parts in the spec's order", () => {
    const report = statusReport(contract, DEFAULTS);
    expect(report.parts.map((p) => p.name)).toEqual(SPEC_ORDER);
    expect(report.parts.map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(report.totalParts).toBe(9);
  });

  it("reports every part of a contract that declares nothing as not specified", () => {
    const report = statusReport(EMPTY_CONTRACT, DEFAULTS);
    expect(report.specifiedParts).toBe(0);
    for (const part of report.parts) {
      expect(part.specified).toBe(false);
      expect(Object.values(part.declared)).toEqual([0]);
    }
  });

  it("has a fixture for every part, so the derivation test below covers all nine", () => {
    expect(Object.keys(FIXTURE_ONE_PART_CONTRACTS).sort()).toEqual([...SPEC_ORDER].sort());
  });

  // A state machine needs its resource (part 2), so that fixture declares both.
  const needs: Readonly<Record<string, readonly string[]>> = { states: ["resources"] };
  for (const [name, fixture] of Object.entries(FIXTURE_ONE_PART_CONTRACTS)) {
    it(`derives "specified" for ${name} from a fixture declaration, and only for ${name}`, () => {
      const report = statusReport(fixture, DEFAULTS);
      const specified = report.parts.filter((p) => p.specified).map((p) => p.name);
      const expected = [...(needs[name] ?? []), name];
      expect(specified).toEqual(expected);
      expect(report.specifiedParts).toBe(expected.length);
      const part = report.parts.find((p) => p.name === name);
      expect(Object.values(part?.declared ?? {})).toEqual([1]);
    });
  }

  it("names, for each part, a file in src/contract/ that exports its declaration", async () => {
    for (const part of statusReport(contract, DEFAULTS).parts) {
      expect(part.source).toBe(`src/contract/${part.name}.ts`);
      const module = (await import(`../../src/contract/${part.name}.ts`)) as object;
      expect(Object.keys(module)).toHaveLength(1);
    }
  });

  it("lists the error model: each platform failure part 7 presents, with the status and type it is answered with (RFC 9457)", () => {
    expect(statusReport(EMPTY_CONTRACT, DEFAULTS).errorModel).toEqual([]);
    const report = statusReport(FIXTURE_VOCABULARY_CONTRACT, DEFAULTS);
    expect(report.errorModel).toEqual([
      {
        failure: "validation-failed",
        errorType: "FixtureInvalidInput",
        status: 400,
        type: "https://errors.fixture.test/invalid-input",
      },
      {
        failure: "malformed-request",
        errorType: "FixtureInvalidInput",
        status: 400,
        type: "https://errors.fixture.test/invalid-input",
      },
      {
        failure: "not-found",
        errorType: "FixtureNotFound",
        status: 404,
        type: "/_service/problems/FixtureNotFound",
      },
    ]);
  });

  it("reports the body cap as a platform default, not as a limit of the service", () => {
    const report = statusReport(EMPTY_CONTRACT, DEFAULTS);
    expect(report.platformDefaults).toEqual([
      expect.objectContaining({ name: "maxRequestBodyBytes", value: MAX_BODY_BYTES }),
    ]);
    expect(report.parts.find((p) => p.name === "limits")?.specified).toBe(false);
  });

  it("is what GET /_service/interface serves for the contract the app was built from", async () => {
    const fixture = FIXTURE_ONE_PART_CONTRACTS.errors;
    if (!fixture) throw new Error("missing fixture");
    const res = await createApp(fixture, {
      engine: BUILD_ENGINE,
      jsonSchema: toJSONSchema,
    }).request("/_service/interface");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(statusReport(fixture, DEFAULTS))));
  });
});
