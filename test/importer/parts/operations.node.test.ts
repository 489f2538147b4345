/**
 * Part 4's operations (src/importer/parts/operations.ts), imported from FIXTURE documents and
 * served by the real app: ids, path templates real documents use, templates that differ only
 * in their parameters' names, and an operation's own retirement (x-deprecation) round-tripped.
 * Every document here is a FIXTURE.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  doc30,
  doc31,
  findingLines,
  importCase,
  type Json,
  served,
} from "../../support/import-case";

describe("operations", () => {
  it("names an operation without operationId from its method and path, and declares an undeclared path parameter", async () => {
    const c = await importCase("ids", {
      ...doc31({}),
      paths: {
        "/shelves/{shelfId}/books": { get: { responses: { "204": { description: "FIXTURE" } } } },
      },
    });
    expect(Object.keys(c.contract.operations)).toEqual(["getShelvesBooksByShelfId"]);
    const lines = findingLines(c);
    expect(lines).toContain(
      "changed #/paths/~1shelves~1{shelfId}~1books/get: no operationId: named getShelvesBooksByShelfId from its method and path",
    );
    expect(lines).toContain(
      "changed #/paths/~1shelves~1{shelfId}~1books/get: path parameter {shelfId} is not declared: read as a string",
    );
  });

  it("path parameters with hyphens, text beside a parameter in a segment, and a custom verb", async () => {
    const param = (name: string) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    });
    const op = (operationId: string, name: string) => ({
      operationId,
      parameters: [param(name)],
      responses: { "204": { description: "FIXTURE" } },
    });
    const c = await importCase("templates", {
      ...doc31({}),
      paths: {
        "/fixture-items/{item-id}": { get: op("fixtureHyphen", "item-id") },
        "/fixture-items/{id}.json": { get: op("fixtureSuffix", "id") },
        "/fixture-jobs/{name}:cancel": { post: op("fixtureVerb", "name") },
        // AIP-136's custom methods on a collection: a literal segment holding `:`.
        "/v1/fixture-hashes:search": {
          post: { operationId: "fixtureSearch", responses: { "204": { description: "FIXTURE" } } },
        },
        "/v1/fixture-hashes/{hash}": { post: op("fixtureHash", "hash") },
      },
    });
    expect(Object.keys(c.contract.operations).sort()).toEqual([
      "fixtureHash",
      "fixtureHyphen",
      "fixtureSearch",
      "fixtureSuffix",
      "fixtureVerb",
    ]);
    for (const [method, path] of [
      ["GET", "/fixture-items/a-1"],
      ["GET", "/fixture-items/7.json"],
      ["POST", "/fixture-jobs/nightly:cancel"],
      ["POST", "/v1/fixture-hashes:search"],
      ["POST", "/v1/fixture-hashes/abc"],
    ] as const)
      expect((await c.app.request(`https://fixture.test${path}`, { method })).status).toBe(501);
    expect(Object.keys((await served(c)).paths)).toEqual(
      expect.arrayContaining([
        "/fixture-items/{item-id}",
        "/fixture-items/{id}.json",
        "/v1/fixture-hashes:search",
      ]),
    );
  });

  it("serves path keys that differ only in their parameters' names as the first one's template (OpenAPI 3.1 §4.8.8), keeping every operation but a method declared twice", async () => {
    const param = (name: string) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string", maxLength: 5 },
    });
    const c = await importCase("same-template", {
      ...doc30({}),
      paths: {
        "/fixture-items/{idOrUrl}": {
          get: {
            operationId: "fixtureGet",
            parameters: [param("idOrUrl")],
            responses: { "200": { description: "FIXTURE OK" } },
          },
        },
        "/fixture-items/{id}": {
          parameters: [param("id")],
          // FIXTURE: a method the first path has already, as Xero declares its attachments.
          get: {
            operationId: "fixtureGetAgain",
            responses: { "200": { description: "FIXTURE OK" } },
          },
          delete: {
            operationId: "fixtureDelete",
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
    });
    // One method on one path is one operation: the second is left out in the same pass.
    expect(Object.keys(c.contract.operations).sort()).toEqual(["fixtureDelete", "fixtureGet"]);
    expect(findingLines(c)).toContain(
      "lost #/paths/~1fixture-items~1{id}/get: left out: GET /fixture-items/{idOrUrl} is served by #/paths/~1fixture-items~1{idOrUrl}/get already: templates that differ only in parameter names are one path (OpenAPI 3.1 §4.8.8), and a method on it is one operation",
    );
    expect(c.contract.operations.fixtureDelete?.path).toBe("/fixture-items/{idOrUrl}");
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture-items~1{id}: the same path as /fixture-items/{idOrUrl}, whose parameter names it is served with ({id} as {idOrUrl}): templates that differ only in parameter names are one path (OpenAPI 3.1 §4.8.8)",
    );
    const del = (id: string) =>
      c.app.request(`https://fixture.test/fixture-items/${id}`, { method: "DELETE" });
    expect((await del("abc")).status).toBe(501);
    // The renamed parameter keeps its schema: too long is refused.
    expect((await del("abcdefgh")).status).toBe(422);
    expect(Object.keys((await served(c)).paths["/fixture-items/{idOrUrl}"] ?? {})).toEqual(
      expect.arrayContaining(["get", "delete"]),
    );
  });
});

describe("path keys with a query or a fragment (OpenAPI 3.1 §4.8.8; RFC 3986 §3.4, §3.5)", () => {
  const done = { "204": { description: "FIXTURE done" } };
  const actionParam = (value: string) => ({
    name: "FixtureAction",
    in: "query",
    required: true,
    schema: { type: "string", enum: [value] },
  });
  const pathParam = (name: string, schema: Json = { type: "string" }) => ({
    name,
    in: "path",
    required: true,
    schema,
  });
  let c: Awaited<ReturnType<typeof importCase>>;
  const call = async (path: string, method = "GET") => {
    const res = await c.app.request(`https://fixture.test${path}`, { method });
    const body = (await res.json()) as { operationId?: string };
    return `${res.status} ${body.operationId ?? ""}`.trim();
  };

  beforeAll(async () => {
    c = await importCase("query-keys", {
      ...doc30({}),
      paths: {
        "/fixture-things": { get: { operationId: "fixtureThings", responses: done } },
        "/fixture-things?view=full": { get: { operationId: "fixtureThingsFull", responses: done } },
        // FIXTURE: an RPC-style API keying its methods by a fixed query value.
        "/fixture-rpc?method=fixture.a": { get: { operationId: "fixtureRpcA", responses: done } },
        "/fixture-rpc?method=fixture.b": { get: { operationId: "fixtureRpcB", responses: done } },
        // FIXTURE: a query-protocol API keying its actions by a fragment no client sends.
        "/#FixtureAction=Create": {
          post: {
            operationId: "fixtureCreate",
            parameters: [actionParam("Create")],
            responses: done,
          },
        },
        "/#FixtureAction=Remove": {
          post: {
            operationId: "fixtureRemove",
            parameters: [actionParam("Remove")],
            responses: done,
          },
        },
        // FIXTURE: the query's values templated, their parameters declared as the path's.
        "/fixture-icons?size={size}": {
          get: {
            operationId: "fixtureIcons",
            parameters: [pathParam("size", { type: "integer", maximum: 64 })],
            responses: done,
          },
        },
        // FIXTURE: fragments that only make the keys unique: nothing tells the two apart.
        "/fixture-next/{link}#FixtureA_Next": {
          get: { operationId: "fixtureANext", parameters: [pathParam("link")], responses: done },
        },
        "/fixture-next/{link}#FixtureB_Next": {
          get: { operationId: "fixtureBNext", parameters: [pathParam("link")], responses: done },
        },
      },
    });
  });

  it("serves every operation a request can reach, each chosen by its fixed query values", async () => {
    expect(Object.keys(c.contract.operations).sort()).toEqual(
      [
        "fixtureANext",
        "fixtureCreate",
        "fixtureIcons",
        "fixtureRemove",
        "fixtureRpcA",
        "fixtureRpcB",
        "fixtureThings",
        "fixtureThingsFull",
      ].sort(),
    );
    expect(await call("/fixture-things")).toBe("501 fixtureThings");
    expect(await call("/fixture-things?view=full")).toBe("501 fixtureThingsFull");
    expect(await call("/fixture-rpc?method=fixture.b")).toBe("501 fixtureRpcB");
    expect(await call("/?FixtureAction=Remove", "POST")).toBe("501 fixtureRemove");
    expect(await call("/", "POST")).toBe("422");
    expect(await call("/?FixtureAction=Other", "POST")).toBe("404");
  });

  it("reads a {name} of the key's query as a query parameter, with its schema", async () => {
    expect(await call("/fixture-icons?size=32")).toBe("501 fixtureIcons");
    expect(await call("/fixture-icons?size=99")).toBe("422");
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture-icons?size={size}/get/parameters/0: path parameter size stands in the key's query (size={size}): read as a query parameter",
    );
  });

  it("reads a fragment's values from the query, and says so", async () => {
    expect(c.contract.operations.fixtureCreate?.fixed).toEqual({ FixtureAction: "Create" });
    expect(findingLines(c)).toContain(
      'changed #/paths/~1#FixtureAction=Create/post: the key\'s fragment (#FixtureAction=Create) is never sent (RFC 3986 §3.5): its values tell the operations of / apart in the query, as {"FixtureAction":"Create"}',
    );
  });

  it("leaves out an operation nothing in a request tells from another, with the cause", async () => {
    expect(findingLines(c)).toContain(
      "lost #/paths/~1fixture-next~1{link}#FixtureB_Next/get: left out: GET /fixture-next/{link} is served by #/paths/~1fixture-next~1{link}#FixtureA_Next/get already, and nothing in a request tells them apart: a fragment is never sent (RFC 3986 §3.5)",
    );
  });

  it("documents each key as the document wrote it", async () => {
    const paths = Object.keys((await served(c)).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/fixture-things?view=full",
        "/fixture-rpc?method=fixture.a",
        "/#FixtureAction=Create",
        "/fixture-icons?size={size}",
      ]),
    );
  });
});

describe("a contract, served, imported and served again", () => {
  it("is the same document (an operation deprecated on its own, with dates: x-deprecation and its headers)", async () => {
    const { servedDocument } = await import("../../support/vocabulary-document");
    const { defineContract } = await import("../../../src/contract-language/define-contract");
    const retiring = {
      deprecated: "2024-06-01T00:00:00Z",
      sunset: "2031-01-01T00:00:00Z",
      migration: "https://docs.fixture.test/retiring",
    };
    const FIXTURE_RETIRING_CONTRACT = defineContract({
      purpose: { title: "Fixture retiring", summary: "A fixture service, for tests only." },
      operations: {
        fixtureRetiring: {
          method: "GET",
          path: "/fixture-retiring",
          summary: "A thing deprecated on its own",
          responses: { 204: { description: "FIXTURE" } },
          deprecated: retiring,
        },
        fixtureRetired: {
          method: "GET",
          path: "/fixture-retired",
          summary: "A thing past its sunset",
          responses: { 204: { description: "FIXTURE" } },
          deprecated: { deprecated: "2019-01-01", sunset: "2020-01-01" },
        },
      },
    });
    const doc1 = await servedDocument(FIXTURE_RETIRING_CONTRACT);
    const c = await importCase("retiring-round-trip", doc1);
    expect(c.contract.operations.fixtureRetiring?.deprecated).toEqual(retiring);
    expect(await c.served()).toEqual(doc1);
  });
});
