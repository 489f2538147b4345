import { describe, expect, it } from "vitest";
import { toJSONSchema, z } from "zod";
import { createApp } from "../../../src/app";
import { defineContract } from "../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../src/contract-language/define-handlers";
import { OPERATION_ENGINE } from "../../../src/engine";

// FIXTURE: a template declared before a literal path it would also match.
const FIXTURE = defineContract({
  operations: {
    fixtureById: {
      method: "GET",
      path: "/fixture/{id}",
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: "by id", content: { "application/json": z.string() } } },
    },
    // FIXTURE: a method only the template declares, asked of the literal path.
    fixtureRemove: {
      method: "DELETE",
      path: "/fixture/{id}",
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: "removed", content: { "application/json": z.string() } } },
    },
    fixtureLatest: {
      method: "GET",
      path: "/fixture/latest",
      responses: { 200: { description: "latest", content: { "application/json": z.string() } } },
    },
    // A parameter beside text in its segment also matches a literal of that shape.
    fixtureFile: {
      method: "GET",
      path: "/fixture/files/{name}.json",
      request: { params: z.object({ name: z.string() }) },
      responses: { 200: { description: "by name", content: { "application/json": z.string() } } },
    },
    fixtureIndex: {
      method: "GET",
      path: "/fixture/files/index.json",
      responses: { 200: { description: "index", content: { "application/json": z.string() } } },
    },
  },
});

const app = createApp(FIXTURE, {
  engine: OPERATION_ENGINE,
  jsonSchema: toJSONSchema,
  handlers: defineHandlers(FIXTURE, {
    fixtureById: ({ params }) => ({ status: 200, body: `id ${params.id}` }),
    fixtureRemove: ({ params }) => ({ status: 200, body: `removed ${params.id}` }),
    fixtureLatest: () => ({ status: 200, body: "latest" }),
    fixtureFile: ({ params }) => ({ status: 200, body: `file ${params.name}` }),
    fixtureIndex: () => ({ status: 200, body: "index" }),
  }),
});

describe("route precedence (OpenAPI 3.1 §4.8.8: concrete paths before templated ones)", () => {
  it("routes a literal path to its own operation, whatever the declaration order", async () => {
    expect(await (await app.request("/fixture/latest")).json()).toBe("latest");
    expect(await (await app.request("/fixture/w1")).json()).toBe("id w1");
  });

  it("sends a method the literal path lacks on to the template that declares it, and says so in Allow (RFC 9110 §10.2.1)", async () => {
    const removed = await app.request("/fixture/latest", { method: "DELETE" });
    expect(await removed.json()).toBe("removed latest");
    const options = await app.request("/fixture/latest", { method: "OPTIONS" });
    expect(options.headers.get("allow")).toBe("GET, HEAD, DELETE, OPTIONS");
    // A method neither declares is still refused (RFC 9110 §15.5.6), with the same Allow.
    const refused = await app.request("/fixture/latest", { method: "PUT" });
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD, DELETE, OPTIONS");
    expect((await app.request("/fixture/files/index.json", { method: "DELETE" })).status).toBe(405);
  });

  it("routes a literal segment before one of text beside a parameter ({name}.json)", async () => {
    expect(await (await app.request("/fixture/files/index.json")).json()).toBe("index");
    expect(await (await app.request("/fixture/files/w1.json")).json()).toBe("file w1");
  });
});
