/**
 * Operations on one method and path told apart by fixed query values
 * (src/engine/operations/fixed-query.ts): a key's own query (`/fixture-rpc?method=a`), or an
 * operation's `fixed` where a document keys it by a fragment (`/#Action=X`), which no client
 * sends (RFC 3986 §3.5). FIXTURE contracts throughout.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { createClient } from "../../../src/client";
import { defineContract } from "../../../src/contract-language/define-contract";
import { expectProblem } from "../../support/assertions";
import { bindingOf } from "../../support/client-binding";
import { buildUnchecked, fixtureGet } from "../../support/fixture-app";

const answer = () => ({
  200: { description: "fixture", content: { "application/json": z.object({ name: z.string() }) } },
});

const contract = defineContract({
  operations: {
    fixtureRpcA: {
      method: "GET",
      path: "/fixture-rpc?method=fixture.a",
      responses: answer(),
    },
    fixtureRpcB: {
      method: "GET",
      path: "/fixture-rpc?method=fixture.b",
      request: { query: z.object({ limit: z.optional(z.coerce.number().check(z.maximum(5))) }) },
      responses: answer(),
    },
    fixtureActionX: {
      method: "POST",
      path: "/fixture-aws#Action=FixtureX",
      fixed: { Action: "FixtureX" },
      request: { query: z.object({ Action: z.literal("FixtureX") }) },
      responses: answer(),
    },
    fixtureActionY: {
      method: "POST",
      path: "/fixture-aws#Action=FixtureY",
      fixed: { Action: "FixtureY" },
      request: { query: z.object({ Action: z.literal("FixtureY") }) },
      responses: answer(),
    },
    fixturePlain: {
      method: "GET",
      path: "/fixture-view/{id}",
      request: { params: z.object({ id: z.string() }) },
      responses: answer(),
    },
    fixtureViewed: {
      method: "GET",
      path: "/fixture-view/{id}?view=fileinfo",
      request: { params: z.object({ id: z.string() }) },
      responses: answer(),
    },
  },
});

const handlers = Object.fromEntries(
  Object.keys(contract.operations).map((id) => [id, () => ({ status: 200, body: { name: id } })]),
);
const app = createApp(contract, {
  engine: BUILD_ENGINE,
  jsonSchema: z.toJSONSchema,
  handlers: handlers as never,
});
const call = (path: string, init: RequestInit = {}) => app.request(path, init, env);
const named = async (res: Response) => {
  expect(res.status).toBe(200);
  return ((await res.json()) as { name: string }).name;
};

describe("operations told apart by fixed query values", () => {
  it("serve the operation whose values the request carries, wherever they stand in the query", async () => {
    expect(await named(await call("/fixture-rpc?method=fixture.a"))).toBe("fixtureRpcA");
    expect(await named(await call("/fixture-rpc?limit=2&method=fixture.b"))).toBe("fixtureRpcB");
    expect(await named(await call("/fixture-aws?Action=FixtureY", { method: "POST" }))).toBe(
      "fixtureActionY",
    );
  });

  it("validate the chosen operation's own input", async () => {
    const body = await expectProblem(await call("/fixture-rpc?method=fixture.b&limit=9"), 422);
    expect(body.errors).toEqual([expect.objectContaining({ in: "query", pointer: "#/limit" })]);
  });

  it("refuse a request that names no operation as invalid, naming the parameter (not echoing the request)", async () => {
    const body = await expectProblem(await call("/fixture-aws", { method: "POST" }), 422);
    expect(body.errors).toEqual([expect.objectContaining({ in: "query", pointer: "#/Action" })]);
  });

  it("answer 404 where no operation has the value given (RFC 9110 §15.5.5), without echoing it", async () => {
    const res = await call("/fixture-rpc?method=fixture-secret-value");
    const body = await expectProblem(res, 404);
    expect(JSON.stringify(body)).not.toContain("fixture-secret-value");
  });

  it("serve a key without the values where the request carries none, and the other with them", async () => {
    expect(await named(await call("/fixture-view/f1"))).toBe("fixturePlain");
    expect(await named(await call("/fixture-view/f1?view=fileinfo"))).toBe("fixtureViewed");
  });

  it("answer 405 with the route's methods across every key of it", async () => {
    const res = await call("/fixture-rpc?method=fixture.a", { method: "DELETE" });
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    await expectProblem(res, 405);
  });

  it("document each key as written, with its fixed values as a required query parameter and its 404", async () => {
    const doc = (await (await call("/_service/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/fixture-rpc?method=fixture.a",
        "/fixture-aws#Action=FixtureX",
        "/fixture-view/{id}?view=fileinfo",
      ]),
    );
    const a = doc.paths["/fixture-rpc?method=fixture.a"]?.get;
    expect(a?.parameters).toContainEqual(
      expect.objectContaining({
        name: "method",
        in: "query",
        required: true,
        schema: { type: "string", enum: ["fixture.a"] },
      }),
    );
    expect(a?.responses).toHaveProperty("404");
    // Declared by the operation itself: documented once, as it declares it.
    const x = doc.paths["/fixture-aws#Action=FixtureX"]?.post;
    expect(x?.parameters?.filter((p) => p.name === "Action")).toHaveLength(1);
    // OPTIONS of each key says every method its routed path answers.
    const options = doc.paths["/fixture-view/{id}"]?.options as unknown as {
      responses: { 204: { headers: { Allow: { schema: { const: string } } } } };
    };
    expect(options.responses[204].headers.Allow.schema.const).toBe("GET, HEAD, OPTIONS");
  });
});

describe("the typed client, calling such operations", () => {
  const binding = bindingOf(app);
  const api = createClient(contract, { binding });

  it("sends the values of the key's query and of `fixed` itself, beside the call's own", async () => {
    expect(await api.fixtureViewed({ params: { id: "f1" } })).toMatchObject({
      status: 200,
      body: { name: "fixtureViewed" },
    });
    expect(await api.fixtureRpcB({ query: { limit: 2 } })).toMatchObject({
      body: { name: "fixtureRpcB" },
    });
    expect(await api.fixtureActionX({ query: { Action: "FixtureX" } })).toMatchObject({
      body: { name: "fixtureActionX" },
    });
    const urls = binding.sent.map((request) => new URL(request.url));
    expect(urls.map((url) => `${url.pathname}${url.search}`)).toEqual([
      "/fixture-view/f1?view=fileinfo",
      "/fixture-rpc?method=fixture.b&limit=2",
      "/fixture-aws?Action=FixtureX",
    ]);
  });
});

describe("createApp refuses operations on one method and path", () => {
  it("that nothing in a request tells apart", () => {
    const operations = {
      fixtureA: fixtureGet("/fixture#A"),
      fixtureB: fixtureGet("/fixture#B"),
    };
    expect(() => buildUnchecked({ operations })).toThrow(
      /^operation fixtureB: GET \/fixture is also operation fixtureA's, and nothing in a request tells them apart/,
    );
  });

  it("whose fixed values one request could carry both of", () => {
    const operations = {
      fixtureA: fixtureGet("/fixture?a=1"),
      fixtureB: fixtureGet("/fixture?b=2"),
    };
    expect(() => buildUnchecked({ operations })).toThrow(
      /their fixed query values do not tell them apart/,
    );
  });

  it("whose key's query is not name=value pairs", () => {
    expect(() =>
      buildUnchecked({ operations: { fixtureA: fixtureGet("/fixture?a=1&a=2") } }),
    ).toThrow(/has a query that is not name=value pairs/);
  });
});
