/**
 * XML bodies and answers (src/importer/parts/content.ts, with the schema's xml objects that
 * src/importer/schema-code.ts carries), imported from a FIXTURE document and served by the real
 * app: read and written by the document's xml objects, its problem+xml error type, and the
 * round trip. Every document here is a FIXTURE.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../../src/importer/compare/index";
import { entryFile } from "../../../src/importer/emit";
import { readOpenApi } from "../../../src/importer/source";
import {
  findingLines,
  type ImportedCase,
  importCase,
  type Json,
  served,
} from "../../support/import-case";

describe("XML (RFC 7303), read and written by the document's xml objects (OpenAPI 3.1 §4.8.26)", () => {
  const XML_DOCUMENT = `
openapi: 3.1.0
info: { title: FIXTURE XML, version: "1" }
paths:
  /fixture-shelves:
    post:
      operationId: fixtureShelve
      requestBody:
        required: true
        content:
          application/xml: { schema: { $ref: "#/components/schemas/Shelf" } }
          application/json: { schema: { $ref: "#/components/schemas/Shelf" } }
      responses:
        "200":
          description: FIXTURE the shelf
          content:
            application/xml: { schema: { $ref: "#/components/schemas/Shelf" } }
            application/json: { schema: { $ref: "#/components/schemas/Shelf" } }
        "400":
          description: FIXTURE invalid shelf
          content:
            application/problem+json: { schema: { $ref: "#/components/schemas/Problem" } }
            application/problem+xml: { schema: { $ref: "#/components/schemas/Problem" } }
components:
  schemas:
    Shelf:
      type: object
      required: [id, label, books]
      properties:
        id: { type: integer, xml: { attribute: true } }
        label:
          type: string
          xml: { name: title, namespace: "urn:fixture:labels", prefix: fl }
        books:
          type: array
          xml: { wrapped: true }
          items: { $ref: "#/components/schemas/Book" }
        tags:
          type: array
          items: { type: string, xml: { name: tag } }
        code: { type: string, xml: { prefix: orphan } }
      xml: { name: shelf, namespace: "urn:fixture:shelves" }
    Book:
      type: object
      required: [isbn]
      properties:
        isbn: { type: string, xml: { attribute: true } }
        pages: { type: integer }
      xml: { name: book }
    Problem:
      type: object
      required: [type, title]
      properties:
        type: { type: string }
        title: { type: string }
        shelfId: { type: integer }
`;
  let c: ImportedCase;
  const post = (body: string) =>
    c.app.request("https://fixture.test/fixture-shelves", {
      method: "POST",
      headers: { "content-type": "application/xml" },
      body,
    });

  it("imports an XML body and answer with the document's schema, its xml objects as metadata, and the project's own entry", async () => {
    c = await importCase("xml", { yaml: XML_DOCUMENT });
    expect(c.result.xml).toBe(true);
    // The entry is the project's own, whatever the contract: the build gives it the codec.
    expect(entryFile()).toBe(readFileSync("src/index.ts", "utf8"));
    expect(c.code.endpoints).not.toMatch(/"application\/xml": z\.string\(\)/);
    expect(c.code.resources).toContain(
      'z.meta({"xml":{"name":"shelf","namespace":"urn:fixture:shelves"}})',
    );
    // Names, a namespace by its URI (any prefix), attributes, a wrapped array: read as declared.
    const valid = await post(
      '<shelf xmlns="urn:fixture:shelves" xmlns:x="urn:fixture:labels" id="1"><x:title>T</x:title><books><book isbn="0-1"><pages>3</pages></book></books><tag>a</tag></shelf>',
    );
    expect(valid.status).toBe(501);
    const invalid = await post(
      '<shelf xmlns="urn:fixture:shelves" id="x"><books><book><pages>3</pages></book></books></shelf>',
    );
    const problem = (await invalid.json()) as { errors: { pointer: string }[] };
    expect(problem.errors.map((e) => e.pointer)).toEqual(["#/id", "#/label", "#/books/0/isbn"]);
    expect((await post("<shelf>")).status).toBe(400);
  });

  it("reports what it changes or cannot carry, and never that XML is handed over as text", () => {
    const lines = findingLines(c).join("\n");
    expect(lines).not.toMatch(/handed over as text|XML is not parsed/);
    expect(lines).toContain(
      "lost #/components/schemas/Shelf/properties/code/xml/prefix: a prefix without a namespace",
    );
    // A problem+xml beside problem+json is the same error type's XML form (RFC 9457 Appendix B).
    expect(lines).not.toContain("application~1problem+xml");
    expect(Object.values(c.contract.errors)[0]?.xml).toBe(true);
  });

  it("uses the document's own Problem schema for the error type that also offers XML", async () => {
    const [name, error] = Object.entries(c.contract.errors)[0] ?? [];
    expect(error?.status).toBe(400);
    expect(error?.members).toHaveProperty("shelfId");
    const doc = await served(c);
    const response = doc.components.responses?.[name as string] as Json;
    expect(JSON.stringify(response)).toContain("#/components/schemas/SpecProblem");
    expect(Object.keys(response.content as Json)).toEqual([
      "application/problem+json",
      "application/problem+xml",
    ]);
  });

  it("round-trips: the source keeps its xml objects in the served document, which imported again is served the same", async () => {
    const source = await readOpenApi(join(c.dir, "openapi.yaml"));
    const comparison = compareDocuments(source.document, "3.1", await c.served());
    expect(comparison.items.filter((i) => !i.kept).map((i) => i.pointer)).toEqual([
      "#/components/schemas/Shelf/properties/code/xml",
    ]);
    const doc1 = await c.served();
    const again = await importCase("xml-again", doc1);
    expect(await again.served()).toEqual(doc1);
  });
});

describe("a member named #text, the XML-to-JSON convention for an element's own text", () => {
  it("is read as that text (OpenAPI 3.2's nodeType text, x-nodeType), so the operation is served", async () => {
    const label = { $ref: "#/components/schemas/FixtureLabel" };
    const c = await importCase("xml-text", {
      openapi: "3.0.3",
      info: { title: "FIXTURE #text", version: "1" },
      paths: {
        "/fixture-labels": {
          post: {
            operationId: "fixtureAddLabel",
            requestBody: { required: true, content: { "application/xml": { schema: label } } },
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
      components: {
        schemas: {
          FixtureLabel: {
            type: "object",
            required: ["id", "#text"],
            properties: {
              id: { type: "string", xml: { attribute: true } },
              "#text": { type: "string", minLength: 2 },
            },
            xml: { name: "label" },
          },
        },
      },
    });
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureAddLabel"]);
    expect(findingLines(c)).toContain(
      "changed #/components/schemas/FixtureLabel/properties/#text: member #text: read as its element's own text in XML (OpenAPI 3.2's xml nodeType text, written x-nodeType), the convention its name follows",
    );
    const post = (body: string) =>
      c.app.request("https://fixture.test/fixture-labels", {
        method: "POST",
        headers: { "content-type": "application/xml" },
        body,
      });
    expect((await post('<label id="a">FIXTURE text</label>')).status).toBe(501);
    expect((await post('<label id="a">x</label>')).status).toBe(422);
    expect((await post('<label id="a"/>')).status).toBe(422);
  });
});
