import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toJSONSchema, z } from "zod";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../src/contract-language/define-handlers";

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
  engine: BUILD_ENGINE,
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

  it("answers a method the concrete path lacks with its own 405 and Allow, never the template's answer (RFC 9110 §15.5.6)", async () => {
    const refused = await app.request("/fixture/latest", { method: "DELETE" });
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const options = await app.request("/fixture/latest", { method: "OPTIONS" });
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await app.request("/fixture/files/index.json", { method: "DELETE" })).status).toBe(405);
    // The template still answers its own URLs.
    expect(await (await app.request("/fixture/w1", { method: "DELETE" })).json()).toBe(
      "removed w1",
    );
  });

  it("routes a literal segment before one of text beside a parameter ({name}.json)", async () => {
    expect(await (await app.request("/fixture/files/index.json")).json()).toBe("index");
    expect(await (await app.request("/fixture/files/w1.json")).json()).toBe("file w1");
  });
});

// FIXTURE: concrete paths beside templated siblings at the end, in the middle and under a
// base path, the concrete ones declaring fewer methods than their siblings.
const SIBLINGS = defineContract({
  operations: {
    fixtureGetDoc: {
      method: "GET",
      path: "/fixture-c/{c}/docs/{docId}",
      request: { params: z.object({ c: z.string(), docId: z.string() }) },
      responses: { 200: { description: "doc", content: { "application/json": z.string() } } },
    },
    fixturePatchDoc: {
      method: "PATCH",
      path: "/fixture-c/{c}/docs/{docId}",
      request: { params: z.object({ c: z.string(), docId: z.string() }) },
      responses: { 204: { description: "patched" } },
    },
    fixtureDeleteDoc: {
      method: "DELETE",
      path: "/fixture-c/{c}/docs/{docId}",
      request: { params: z.object({ c: z.string(), docId: z.string() }) },
      responses: { 204: { description: "deleted" } },
    },
    fixtureExportDocs: {
      method: "GET",
      path: "/fixture-c/{c}/docs/export",
      request: { params: z.object({ c: z.string() }) },
      responses: { 200: { description: "export", content: { "application/json": z.string() } } },
    },
    fixtureItemLines: {
      method: "GET",
      path: "/fixture-items/{id}/lines",
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: "lines", content: { "application/json": z.string() } } },
    },
    fixtureBatchLines: {
      method: "POST",
      path: "/fixture-items/batch/lines",
      responses: { 204: { description: "batched" } },
    },
    fixtureGetThing: {
      method: "GET",
      path: "/v1/fixture-things/{id}",
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: "thing", content: { "application/json": z.string() } } },
    },
    fixtureSearchThings: {
      method: "POST",
      path: "/v1/fixture-things/search",
      responses: { 200: { description: "found", content: { "application/json": z.string() } } },
    },
  },
});

/** Each concrete path: a method only its templated sibling declares, and the Allow it gives. */
const CONCRETE: readonly (readonly [string, string, string])[] = [
  ["/fixture-c/c1/docs/export", "PATCH", "GET, HEAD, OPTIONS"],
  ["/fixture-c/c1/docs/export", "DELETE", "GET, HEAD, OPTIONS"],
  ["/fixture-items/batch/lines", "GET", "POST, OPTIONS"],
  ["/v1/fixture-things/search", "GET", "POST, OPTIONS"],
];

describe("a concrete path beside a templated sibling, at every depth (OpenAPI 3.1 §4.8.8)", () => {
  const handled = createApp(SIBLINGS, {
    engine: BUILD_ENGINE,
    jsonSchema: toJSONSchema,
    handlers: defineHandlers(SIBLINGS, {
      fixtureGetDoc: ({ params }) => ({ status: 200, body: `doc ${params.docId}` }),
      fixturePatchDoc: () => ({ status: 204 }),
      fixtureDeleteDoc: () => ({ status: 204 }),
      fixtureExportDocs: () => ({ status: 200, body: "export" }),
      fixtureItemLines: () => ({ status: 200, body: "lines" }),
      fixtureBatchLines: () => ({ status: 204 }),
      fixtureGetThing: () => ({ status: 200, body: "thing" }),
      fixtureSearchThings: () => ({ status: 200, body: "found" }),
    }),
  });
  const bare = createApp(SIBLINGS, { engine: BUILD_ENGINE, jsonSchema: toJSONSchema });
  const modes: readonly (readonly [string, ReturnType<typeof createApp>, string | undefined])[] = [
    ["with handlers", handled, undefined],
    ["501", bare, "501"],
    ["examples", bare, "examples"],
    ["sandbox", bare, "sandbox"],
  ];

  for (const [mode, served, setting] of modes)
    it(`refuses with the concrete path's own 405, Allow and OPTIONS, ${mode}`, async () => {
      const bindings = { ...env, ...(setting ? { UNHANDLED_OPERATIONS: setting } : {}) };
      for (const [path, method, allow] of CONCRETE) {
        const res = await served.request(path, { method }, bindings);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
        const options = await served.request(path, { method: "OPTIONS" }, bindings);
        expect(options.status).toBe(204);
        expect(options.headers.get("allow"), `OPTIONS ${path}`).toBe(allow);
      }
      // HEAD follows GET on the concrete path's own operation only.
      expect(
        (await served.request("/fixture-items/batch/lines", { method: "HEAD" }, bindings)).status,
      ).toBe(405);
    });

  it("routes each concrete path to its own operation, and the template's URLs to the template", async () => {
    const text = async (path: string, method = "GET") =>
      (await handled.request(path, { method }, env)).json();
    expect(await text("/fixture-c/c1/docs/export")).toBe("export");
    expect(await text("/fixture-c/c1/docs/d1")).toBe("doc d1");
    expect((await handled.request("/fixture-c/c1/docs/d1", { method: "PATCH" }, env)).status).toBe(
      204,
    );
    expect(await text("/fixture-items/i1/lines")).toBe("lines");
    expect(
      (await handled.request("/fixture-items/batch/lines", { method: "POST" }, env)).status,
    ).toBe(204);
    expect(await text("/v1/fixture-things/search", "POST")).toBe("found");
    expect(await text("/v1/fixture-things/t1")).toBe("thing");
  });

  it("documents each concrete path's OPTIONS with the Allow it answers", async () => {
    const doc = (await (await handled.request("/_service/openapi.json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const allowOf = (path: string) =>
      JSON.stringify(doc.paths[path]?.options?.responses["204"] ?? {}).match(
        /"const":"([^"]+)"/,
      )?.[1];
    expect(allowOf("/fixture-c/{c}/docs/export")).toBe("GET, HEAD, OPTIONS");
    expect(allowOf("/fixture-items/batch/lines")).toBe("POST, OPTIONS");
    expect(allowOf("/v1/fixture-things/search")).toBe("POST, OPTIONS");
  });

  it("documents no constraint OPTIONS does not check, and the 404 it does answer", async () => {
    const doc = (await (await handled.request("/_service/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { parameters?: { in: string; schema: unknown }[]; responses: Record<string, unknown> }
        >
      >;
    };
    const options = doc.paths["/fixture-c/{c}/docs/{docId}"]?.options;
    const inPath = (options?.parameters ?? []).filter((p) => p.in === "path");
    expect(inPath.map((p) => p.schema)).toEqual([{ type: "string" }, { type: "string" }]);
    // A problem type not hosted here is no resource: OPTIONS answers its 404, documented.
    const problems = doc.paths["/_service/problems/{type}"]?.options;
    expect(Object.keys(problems?.responses ?? {})).toContain("404");
    const res = await handled.request("/_service/problems/fixture-none", { method: "OPTIONS" });
    expect(res.status).toBe(404);
  });
});
