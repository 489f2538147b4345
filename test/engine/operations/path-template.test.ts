/**
 * Path templates real documents use (OpenAPI 3.1 §4.8.2), in their Hono form
 * (src/engine/operations/path-template.ts): a hyphenated parameter, text beside a parameter
 * in one segment, a custom verb after a colon, two parameters in one segment. Each is served
 * by a FIXTURE contract's app, and its parameters reach the handler as declared.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { expectProblem } from "../../support/assertions";

describe("path templates real documents use (OpenAPI 3.1 §4.8.2)", () => {
  const text = z.string().check(z.minLength(1));
  const contract = defineContract({
    operations: {
      fixtureDotted: {
        method: "GET",
        path: "/fixture-files/{fixture-id}.json",
        request: { params: z.strictObject({ "fixture-id": z.string().check(z.regex(/^\d+$/)) }) },
        responses: { 200: { description: "FIXTURE" } },
      },
      // Declared first, so the order of declaration does not decide which one matches.
      fixtureJob: {
        method: "POST",
        path: "/fixture-jobs/{name}",
        request: { params: z.strictObject({ name: text }) },
        responses: { 200: { description: "FIXTURE" } },
      },
      fixtureVerb: {
        method: "POST",
        path: "/fixture-jobs/{name}:cancel",
        request: { params: z.strictObject({ name: text }) },
        responses: { 200: { description: "FIXTURE" } },
      },
      // AIP-136's custom methods on a collection: a `:` inside a literal segment is text.
      fixtureSearch: {
        method: "POST",
        path: "/fixture-hashes:search",
        responses: { 200: { description: "FIXTURE" } },
      },
      fixtureBatch: {
        method: "POST",
        path: "/fixture-hashes:batchGet",
        responses: { 200: { description: "FIXTURE" } },
      },
      fixtureHash: {
        method: "POST",
        path: "/fixture-hashes/{hash}",
        request: { params: z.strictObject({ hash: text }) },
        responses: { 200: { description: "FIXTURE" } },
      },
      // Characters RFC 3986 §3.3 allows in a segment that Hono reads as its own syntax.
      fixtureStar: {
        method: "GET",
        path: "/fixture-globs/a*b/:all",
        responses: { 200: { description: "FIXTURE" } },
      },
      fixtureTwo: {
        method: "GET",
        path: "/fixture-pairs/{first}.{second}",
        request: { params: z.strictObject({ first: text, second: text }) },
        responses: { 200: { description: "FIXTURE" } },
      },
    },
  });
  const seen: unknown[] = [];
  const answer = (input: { params: unknown }) => {
    seen.push(input.params);
    return { status: 200 as const };
  };
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: z.toJSONSchema,
    handlers: {
      fixtureDotted: answer,
      fixtureVerb: answer,
      fixtureJob: answer,
      fixtureTwo: answer,
      fixtureSearch: () => {
        seen.push("search");
        return { status: 200 as const };
      },
      fixtureBatch: () => {
        seen.push("batch");
        return { status: 200 as const };
      },
      fixtureHash: answer,
      fixtureStar: () => {
        seen.push("star");
        return { status: 200 as const };
      },
    },
  });
  const paramsOf = async (path: string, method = "GET") => {
    seen.length = 0;
    const res = await app.request(path, { method }, env);
    return { status: res.status, params: seen[0] };
  };

  it("a hyphenated parameter name, and text beside a parameter in one segment", async () => {
    expect(await paramsOf("/fixture-files/42.json")).toEqual({
      status: 200,
      params: { "fixture-id": "42" },
    });
    // The text is part of the route: without it, no operation has the path.
    expect((await paramsOf("/fixture-files/42")).status).toBe(404);
    // The parameter is validated without its text: 422 names the member, not the segment.
    const res = await app.request("/fixture-files/x.json", {}, env);
    const body = await expectProblem(res, 422);
    expect(body.errors).toEqual([expect.objectContaining({ in: "path", pointer: "#/fixture-id" })]);
  });

  it("a custom verb after a colon wins over the plain parameter beside it", async () => {
    expect(await paramsOf("/fixture-jobs/nightly:cancel", "POST")).toEqual({
      status: 200,
      params: { name: "nightly" },
    });
    expect(await paramsOf("/fixture-jobs/nightly", "POST")).toEqual({
      status: 200,
      params: { name: "nightly" },
    });
  });

  it("two parameters in one segment split at the first separator", async () => {
    expect(await paramsOf("/fixture-pairs/a.b.c")).toEqual({
      status: 200,
      params: { first: "a", second: "b.c" },
    });
  });

  it("a literal segment holding `:` (AIP-136's custom methods) or `*` is served as written, beside a templated sibling", async () => {
    const send = (path: string, method = "POST") => app.request(path, { method }, env);
    const which = async (path: string, method = "POST") => (await paramsOf(path, method)).params;
    expect(await which("/fixture-hashes:search")).toBe("search");
    expect(await which("/fixture-hashes:batchGet")).toBe("batch");
    expect(await paramsOf("/fixture-hashes/abc", "POST")).toEqual({
      status: 200,
      params: { hash: "abc" },
    });
    expect((await send("/fixture-hashes:other")).status).toBe(404);
    expect(await which("/fixture-globs/a*b/:all", "GET")).toBe("star");
    // Text, not a wildcard or a parameter.
    expect((await send("/fixture-globs/axxb/:all", "GET")).status).toBe(404);
    expect((await send("/fixture-globs/a*b/x", "GET")).status).toBe(404);
  });
});
