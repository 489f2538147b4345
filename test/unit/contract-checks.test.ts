/**
 * A contract the platform could not serve correctly is refused when the app is built.
 */

import { describe, expect, it } from "vitest";
import { toJSONSchema, z } from "zod";
import { createApp } from "../../src/app";
import { defineContract } from "../../src/domain/contract";
import { OPERATION_ENGINE } from "../../src/routes/engine";

const op = (path: string, extra: object = {}) => ({
  method: "GET" as const,
  path,
  responses: { 200: { description: "fixture" } },
  ...extra,
});

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
    expect(() => createApp(defineContract(parts))).toThrow(/pass OPERATION_ENGINE/);
  });

  it.each([
    ["a path without a leading slash", { fixtureA: op("fixture") }, /must start with/],
    ["a path inside /_service", { fixtureA: op("/_service/fixture") }, /reserved prefix/],
    [
      "a path parameter without a params schema",
      { fixtureA: op("/fixture/{id}") },
      /need a request.params schema/,
    ],
    [
      "a segment that is half a parameter",
      { fixtureA: op("/fixture/x{id}") },
      /neither literal nor/,
    ],
    ["a Hono wildcard in a literal", { fixtureA: op("/fixture/*") }, /neither literal nor/],
    [
      "a method operations cannot declare",
      { fixtureA: { ...op("/fixture"), method: "TRACE" as unknown as "GET" } },
      /cannot be declared/,
    ],
    [
      "the same method and path twice",
      { fixtureA: op("/fixture"), fixtureB: op("/fixture") },
      /declared twice/,
    ],
  ])("%s", (_label, operations, message) => {
    expect(() => createApp(defineContract({ operations }), { engine: OPERATION_ENGINE })).toThrow(
      message,
    );
  });

  it("two templates that differ only in parameter names", () => {
    const params = z.object({ a: z.string(), b: z.string() });
    const operations = {
      fixtureA: op("/fixture/{a}", { request: { params } }),
      fixtureB: { ...op("/fixture/{b}", { request: { params } }), method: "DELETE" as const },
    };
    expect(() =>
      createApp(defineContract({ operations }), {
        jsonSchema: toJSONSchema,
        engine: OPERATION_ENGINE,
      }),
    ).toThrow(/differ only/);
  });

  it("schemas without a JSON Schema converter for the OpenAPI document", () => {
    const contract = defineContract({ resources: { FixtureThing: z.object({}) } });
    expect(() => createApp(contract, { engine: OPERATION_ENGINE })).toThrow(/toJSONSchema/);
    expect(() =>
      createApp(contract, { jsonSchema: toJSONSchema, engine: OPERATION_ENGINE }),
    ).not.toThrow();
  });

  it("a handler for an operation that is not declared", () => {
    const contract = defineContract({ operations: { fixtureA: op("/fixture") } });
    const handlers = { fixtureB: () => ({ status: 200 }) } as unknown as Record<string, never>;
    expect(() => createApp(contract, { handlers, engine: OPERATION_ENGINE })).toThrow(
      /no operation of that id/,
    );
  });

  it("an error type named like a platform problem type", () => {
    const contract = defineContract({
      errors: { "validation-failed": { status: 422, title: "x" } },
    });
    expect(() => createApp(contract)).toThrow(/platform uses that name/);
  });
});
