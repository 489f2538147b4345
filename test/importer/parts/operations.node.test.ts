/**
 * Part 4's operations (src/importer/parts/operations.ts), imported from FIXTURE documents and
 * served by the real app: ids, path templates real documents use, templates that differ only
 * in their parameters' names, and an operation's own retirement (x-deprecation) round-tripped.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { doc30, doc31, findingLines, importCase, served } from "../../support/import-case";

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
