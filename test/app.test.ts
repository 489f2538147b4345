/**
 * What createApp itself refuses (src/app.ts): a contract that needs the operation engine,
 * zod's JSON Schema converter or the XML codec, built without it, and a handler for an
 * operation that is not declared. The contracts here are typed as plain `Contract`, as
 * JavaScript or a generated file would hand them over, so createApp is what refuses them;
 * the option types refuse them at compile time. Part 4's own start-up checks are in
 * test/engine/operations/startup-checks.test.ts.
 */

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BUILD_ENGINE } from "../src/build-engine";
import { buildUnchecked, fixtureGet, WITH_SCHEMAS } from "./support/fixture-app";

const op = fixtureGet;
const build = buildUnchecked;
const withSchemas = WITH_SCHEMAS;

describe("createApp refuses", () => {
  it.each([
    ["operations", { operations: { fixtureA: op("/fixture") } }],
    [
      "security schemes",
      {
        securitySchemes: {
          fixtureKey: { type: "apiKey", in: "header", name: "x-fixture", secret: "FIXTURE_KEY" },
        },
      },
    ],
    ["limits", { limits: { fixtureCap: { kind: "body-size", maxBytes: 1, operations: [] } } }],
  ] as const)("a contract that declares %s without the operation engine", (_label, parts) => {
    expect(() => build(parts, {})).toThrow(/pass BUILD_ENGINE/);
  });

  it("an XML media type (RFC 7303) without the XML codec, in a request body or an answer", () => {
    const body = { request: { body: { "application/fixture+xml": z.object({}) } } };
    const answer = {
      responses: { 200: { description: "x", content: { "text/xml": z.object({}) } } },
    };
    for (const declared of [body, answer]) {
      const operations = { fixtureA: { ...op("/fixture", declared), method: "POST" } };
      expect(() => build({ operations }, withSchemas)).toThrow(
        /^the contract declares an XML media type \(part 4, or part 7's problem\+xml\): pass XML_CODEC \(src\/engine\/xml\/codec.ts\) as the xml option$/,
      );
    }
  });

  it("schemas without a JSON Schema converter for the OpenAPI document", () => {
    const parts = { resources: { FixtureThing: z.object({}) } };
    expect(() => build(parts)).toThrow(/toJSONSchema/);
    expect(() => build(parts, withSchemas)).not.toThrow();
  });

  it("a handler for an operation that is not declared", () => {
    const handlers = { fixtureB: () => ({ status: 200 }) };
    expect(() =>
      build({ operations: { fixtureA: op("/fixture") } }, { handlers, engine: BUILD_ENGINE }),
    ).toThrow(/handler fixtureB: no operation of that id/);
    // Also where part 4 declares nothing, and the engine is not there to see it.
    expect(() => build({}, { handlers })).toThrow(/handler fixtureB/);
  });
});
