/**
 * Reading a document (src/importer/source.ts): $refs to files beside it bundled in, what is
 * no OpenAPI 3.0 or 3.1 document refused, and Swagger 2.0 read as swagger2openapi converts it.
 * Each FIXTURE document is imported and served by the real app.
 * Every document here is a FIXTURE.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportText } from "../../src/importer/emit";
import { readOpenApi } from "../../src/importer/source";
import { findingLines, importCase, info, type Json, served } from "../support/import-case";

describe("documents", () => {
  it("follows $refs to files beside the document (YAML), bundling them in", async () => {
    const c = await importCase(
      "split",
      {
        yaml: `
openapi: 3.0.3
info: { title: FIXTURE split, version: "1" }
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - $ref: "./parameters.yaml#/limit"
      responses:
        "200":
          description: FIXTURE
          content:
            application/json:
              schema: { type: array, items: { $ref: "./schemas/pet.yaml" } }
components:
  schemas:
    Pet: { $ref: "./schemas/pet.yaml" }
`,
      },
      {
        "parameters.yaml":
          "limit: { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 20 } }\n",
        "schemas/pet.yaml":
          "type: object\nrequired: [name]\nproperties:\n  name: { type: string }\n  owner: { $ref: './owner.yaml' }\n",
        "schemas/owner.yaml": "type: object\nproperties:\n  id: { type: integer }\n",
      },
    );
    const doc = await served(c);
    expect(JSON.stringify(doc.paths["/pets"]?.get?.responses["200"])).toContain(
      '"items":{"$ref":"#/components/schemas/Pet"}',
    );
    expect(c.contract.limits).toMatchObject({ limit: { minimum: 1, maximum: 20 } });
  });

  it("refuses what is not an OpenAPI 3.0 or 3.1 document, or Swagger 2.0, in one sentence", async () => {
    await expect(importCase("swagger-1", { swagger: "1.2", info, paths: {} })).rejects.toThrow(
      /is Swagger 1\.2: only OpenAPI 3\.0\.x and 3\.1\.x documents, and Swagger 2\.0, are read$/,
    );
  });

  it("reads a Swagger 2.0 document as the OpenAPI 3.0 document swagger2openapi converts it to: its body, form and array parameters, its key and its answers", async () => {
    const c = await importCase("swagger-2", {
      yaml: [
        "swagger: '2.0'",
        "info: { title: FIXTURE Swagger shelf, version: '1.0' }",
        "host: fixture.invalid",
        "basePath: /v1",
        "schemes: [https]",
        "consumes: [application/json]",
        "produces: [application/json]",
        "securityDefinitions:",
        "  fixtureKey: { type: apiKey, in: header, name: X-Fixture-Key }",
        "security: [{ fixtureKey: [] }]",
        "paths:",
        "  /fixture-books:",
        "    get:",
        "      operationId: fixtureListBooks",
        "      parameters:",
        "        - { name: tags, in: query, type: array, items: { type: string }, collectionFormat: csv }",
        "        - { name: limit, in: query, type: integer, minimum: 1, maximum: 50 }",
        "      responses:",
        "        '200': { description: FIXTURE books, schema: { type: array, items: { $ref: '#/definitions/FixtureBook' } } }",
        "    post:",
        "      operationId: fixtureAddBook",
        "      parameters:",
        "        - { name: book, in: body, required: true, schema: { $ref: '#/definitions/FixtureBook' } }",
        "      responses:",
        "        '201': { description: FIXTURE added, schema: { $ref: '#/definitions/FixtureBook' } }",
        "  /fixture-covers:",
        "    post:",
        "      operationId: fixtureUploadCover",
        "      consumes: [application/x-www-form-urlencoded]",
        "      parameters:",
        "        - { name: caption, in: formData, type: string, required: true }",
        "      responses:",
        "        '204': { description: FIXTURE stored }",
        "definitions:",
        "  FixtureBook:",
        "    type: object",
        "    required: [title]",
        "    properties: { title: { type: string, minLength: 1 }, pages: { type: integer } }",
      ].join("\n"),
    });
    expect(c.contract.operations.fixtureAddBook).toMatchObject({
      method: "POST",
      path: "/v1/fixture-books",
    });
    expect(Object.keys(c.contract.operations).sort()).toEqual([
      "fixtureAddBook",
      "fixtureListBooks",
      "fixtureUploadCover",
    ]);
    expect(c.contract.securitySchemes.fixtureKey).toMatchObject({ in: "header" });
    expect(Object.keys(c.contract.resources)).toContain("FixtureBook");
    // Each file it wrote says what the source was and what it was read as; the report, that
    // its pointers are into the converted document.
    expect(c.code.endpoints).toContain(
      "(Swagger 2.0, read as the OpenAPI 3.0.0 document swagger2openapi converts it to)",
    );
    const source = await readOpenApi(join(c.dir, "openapi.yaml"));
    expect(reportText(c.result, source)).toContain(
      "Pointers are JSON Pointers into the converted document",
    );
    // Served: the key is asked for (RFC 9110 §15.5.2).
    const keyless = await c.app.request("https://fixture.test/v1/fixture-books", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "" }),
    });
    expect(keyless.status).toBe(401);
    const doc = await served(c);
    const form = doc.paths["/v1/fixture-covers"]?.post as Json;
    expect(JSON.stringify(form.requestBody)).toContain("application/x-www-form-urlencoded");
    const list = doc.paths["/v1/fixture-books"]?.get as Json & { parameters: Json[] };
    expect(list.parameters).toContainEqual(
      expect.objectContaining({ name: "tags", in: "query", style: "form", explode: false }),
    );
  });

  it("reports what the Swagger 2.0 conversion could not carry as it was, where it is, and serves no converter mark", async () => {
    const c = await importCase("swagger-2-loss", {
      yaml: [
        "swagger: '2.0'",
        "info: { title: FIXTURE Swagger tags, version: '1.0' }",
        "paths:",
        "  /fixture-tags:",
        "    get:",
        "      operationId: fixtureListTags",
        "      parameters:",
        "        - { name: X-Fixture-Tags, in: header, type: array, items: { type: string }, collectionFormat: pipes }",
        "      responses:",
        "        '200': { description: FIXTURE tags }",
      ].join("\n"),
    });
    // A header list is comma-separated in OpenAPI 3 (its `simple` style, RFC 9110 §5.3).
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture-tags/get/parameters/0: converted from Swagger 2.0 with a loss: collectionFormat:pipes is no longer supported except for in:query parameters",
    );
    expect(findingLines(c).join("\n")).not.toContain("an extension of");
    expect(JSON.stringify(await c.served())).not.toContain("x-s2o");
  });
});
