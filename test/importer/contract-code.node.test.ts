/**
 * The importer (`npm run contract:import`, src/importer), over OpenAPI documents the
 * project writes: one feature each, in 3.0 and 3.1, YAML and JSON, and one rich FIXTURE
 * document. Each generated contract is loaded and served by the real app, so what is
 * checked is behaviour (what a request is held to, what the served document says), not
 * the text of the generated code; the generated code's compiling and Biome are checked
 * once for all cases at the end. Every document here is a FIXTURE.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { resolveSchema, type Schema } from "../../src/contract-language/contract";
import { objectShape } from "../../src/engine/zod/shape";
import { compareDocuments } from "../../src/importer/compare";
import { entryFile, reportText } from "../../src/importer/emit";
import { readOpenApi } from "../../src/importer/source";
import { CASES, findingLines, type ImportedCase, importCase } from "../support/import-case";
import { checkConformance } from "../tools/conformance/checker";

type Json = Record<string, unknown>;

const info = { title: "FIXTURE importer case", version: "1.0.0" };
const doc31 = (rest: Json): Json => ({ openapi: "3.1.0", info, ...rest });
const doc30 = (rest: Json): Json => ({ openapi: "3.0.3", info, ...rest });

/** One operation at /fixture taking `schema` as a JSON body, answering it back as is. */
const bodyCase = (schema: unknown, components: Json = {}, openapi = "3.1.0"): Json => ({
  openapi,
  info,
  paths: {
    "/fixture": {
      post: {
        operationId: "fixturePost",
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: { "204": { description: "FIXTURE" } },
      },
    },
  },
  components,
});

/** One GET operation at `path` reading `parameters`, in a 3.1 document with `rest` beside. */
const getCase = (path: string, parameters: unknown[], rest: Json = {}): Json => ({
  ...doc31(rest),
  paths: {
    [path]: {
      get: {
        operationId: "fixtureGet",
        parameters,
        responses: { "200": { description: "FIXTURE" } },
      },
    },
  },
});

/** Posts a JSON body to the case's /fixture: the status tells whether the schema took it. */
async function accepts(c: ImportedCase, body: unknown): Promise<boolean> {
  const res = await c.app.request("https://fixture.test/fixture", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (![422, 501].includes(res.status)) throw new Error(`unexpected ${res.status}`);
  return res.status === 501;
}

/** An error answer at `status` whose body is the API's own JSON of `schema`. */
const jsonError = (status: string, schema: Json): Json => ({
  [status]: { description: `FIXTURE error ${status}`, content: { "application/json": { schema } } },
});

/** A POST whose JSON body requires one non-empty string `member`, created 201, with `errors` too. */
const postOfOneMember = (member: string, errors: Json): Json => ({
  post: {
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: [member],
            properties: { [member]: { type: "string", minLength: 1 } },
          },
        },
      },
    },
    responses: { "201": { description: "FIXTURE created" }, ...errors },
  },
});

const served = async (c: ImportedCase) =>
  (await c.served()) as Json & {
    paths: Record<
      string,
      Record<string, Json & { parameters: Json[]; responses: Record<string, Json> }>
    >;
    components: { schemas: Record<string, Json>; responses?: Record<string, Json> };
    webhooks?: Record<string, Record<string, Json>>;
  };

const cases: ImportedCase[] = [];
const imported = async (...args: Parameters<typeof importCase>) => {
  const c = await importCase(...args);
  cases.push(c);
  return c;
};

describe("JSON Schema to zod/mini", () => {
  it("writes out in place what a schema extension refers to and the contract does not carry, so the served document resolves (Spotify's x-spotify-policy-list)", async () => {
    const c = await imported(
      "extension-references",
      bodyCase(
        {
          type: "object",
          properties: {
            // FIXTURE: an extension referring into a component extension, as Spotify's does.
            preview: {
              type: "string",
              "x-fixture-policies": [{ $ref: "#/components/x-fixture-policy/FixturePreview" }],
            },
          },
        },
        { "x-fixture-policy": { FixturePreview: { name: "FIXTURE preview", limit: 30 } } },
      ),
    );
    const document = await served(c);
    const text = JSON.stringify(document);
    expect(text).not.toContain("#/components/x-fixture-policy");
    expect(text).toContain('"x-fixture-policies":[{"name":"FIXTURE preview","limit":30}]');
    const result = await new Validator().validate(document as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(findingLines(c).join("\n")).toContain(
      "x-fixture-policies: its references (#/components/x-fixture-policy/FixturePreview) written out in place",
    );
  });

  it("reads 3.0's nullable and boolean exclusive bounds as 3.1 says them (3.0, JSON)", async () => {
    const c = await imported(
      "nullable-30",
      bodyCase(
        {
          type: "object",
          required: ["name", "score"],
          properties: {
            name: { type: "string", nullable: true },
            score: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10 },
            kind: { type: "string", enum: ["a", "b"], nullable: true },
          },
        },
        {},
        "3.0.3",
      ),
    );
    expect(await accepts(c, { name: null, score: 5 })).toBe(true);
    expect(await accepts(c, { name: "x", score: 0 })).toBe(false);
    expect(await accepts(c, { name: "x", score: 10, kind: null })).toBe(true);
    expect(await accepts(c, { name: "x", score: 10, kind: "c" })).toBe(false);
    const body = (await served(c)).paths["/fixture"]?.post?.requestBody as Json;
    expect(JSON.stringify(body)).toContain('"exclusiveMinimum":0');
  });

  it("reads type lists, const and enums of any value (3.1, YAML)", async () => {
    const c = await imported("types-31", {
      yaml: `
openapi: 3.1.0
info: { title: FIXTURE, version: "1" }
paths:
  /fixture:
    post:
      operationId: fixturePost
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [id, version, level]
              properties:
                id: { type: [string, integer] }
                version: { const: 2 }
                level: { enum: [1, "high", null] }
                status: { type: integer, enum: [0, 1, 2] }
      responses:
        "204": { description: FIXTURE }
`,
    });
    expect(await accepts(c, { id: "a", version: 2, level: null })).toBe(true);
    expect(await accepts(c, { id: "a", version: 2, level: 1, status: 2 })).toBe(true);
    expect(await accepts(c, { id: "a", version: 2, level: 1, status: 3 })).toBe(false);
    // An enum of integers stays one in the served document (zod alone says "number").
    const comparison = compareDocuments(c.source, "3.1", await c.served());
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(await accepts(c, { id: 3, version: 2, level: "high" })).toBe(true);
    expect(await accepts(c, { id: true, version: 2, level: 1 })).toBe(false);
    expect(await accepts(c, { id: 1, version: 3, level: 1 })).toBe(false);
    expect(await accepts(c, { id: 1, version: 2, level: "low" })).toBe(false);
  });

  it("enforces the formats zod checks and documents the others, saying which are not checked", async () => {
    const properties = {
      day: { type: "string", format: "date" },
      at: { type: "string", format: "date-time" },
      mail: { type: "string", format: "email" },
      site: { type: "string", format: "uri" },
      id: { type: "string", format: "uuid" },
      ip: { type: "string", format: "ipv4" },
      blob: { type: "string", format: "byte" },
      small: { type: "integer", format: "int32" },
      big: { type: "integer", format: "int64" },
      ratio: { type: "number", format: "float" },
      secret: { type: "string", format: "password" },
      phone: { type: "string", format: "phone" },
    };
    const c = await imported("formats", bodyCase({ type: "object", properties }));
    const good = {
      day: "2024-02-29",
      at: "2024-02-29T12:00:00+01:00",
      mail: "a@fixture.test",
      site: "https://fixture.test/x",
      id: "7c2f1f64-2b5e-4a51-9f3e-2d1f8a0b9c11",
      ip: "192.0.2.1",
      blob: "aGVsbG8=",
      small: 2147483647,
      big: 9007199254740991,
      ratio: 0.5,
      secret: "x",
      phone: "anything",
    };
    expect(await accepts(c, good)).toBe(true);
    for (const [key, bad] of Object.entries({
      day: "2023-02-29",
      at: "2024-02-29 12:00",
      mail: "nope",
      site: "not a uri",
      id: "not-a-uuid",
      ip: "300.1.1.1",
      blob: "***",
      small: 2147483648,
    }))
      expect([key, await accepts(c, { ...good, [key]: bad })]).toEqual([key, false]);
    const schema = (await served(c)).paths["/fixture"]?.post?.requestBody as Json;
    for (const format of ["int32", "int64", "float", "password", "phone", "byte"])
      expect(JSON.stringify(schema)).toContain(`"format":"${format}"`);
    expect(findingLines(c)).toContain(
      "not-enforced #/paths/~1fixture/post/requestBody/content/application~1json/schema/properties/phone/format: format phone: in the document, not checked",
    );
  });

  it("reads formats as JSON Schema 2020-12 §7.3 defines them, never more strictly: a uuid of every version and variant (RFC 9562 §4), RFC 3339's t, z and leap second, RFC 5321 mailboxes, RFC 3986 URIs", async () => {
    const properties = {
      id: { type: "string", format: "uuid" },
      at: { type: "string", format: "date-time" },
      mail: { type: "string", format: "email" },
      site: { type: "string", format: "uri" },
      ip: { type: "string", format: "ipv4" },
    };
    const c = await imported("formats-standard", bodyCase({ type: "object", properties }));
    const hex = "0123456789abcdef";
    const ids = [...hex].flatMap((version) =>
      [...hex].map((variant) => `7c2f1f64-2b5e-${version}a51-${variant}f3e-2d1f8a0b9c11`),
    );
    ids.push(
      "00000000-0000-0000-0000-000000000000",
      "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
      "12345678-1234-1234-1234-123456789012",
    );
    for (const id of ids) expect([id, await accepts(c, { id })]).toEqual([id, true]);
    const allowed = {
      at: ["2024-02-29t12:00:00z", "2016-12-31T23:59:60Z", "2024-01-01T12:00:00.5-00:00"],
      mail: [
        "user@localhost",
        "a!b@example.com",
        '"john doe"@example.com',
        "user@[192.0.2.1]",
        "user@[IPv6:2001:db8::1]",
      ],
      site: ["urn:isbn:0451450523", "http:", "foo://[v1.fe]/", "http://999.999.999.999/"],
    };
    for (const [key, values] of Object.entries(allowed))
      for (const value of values)
        expect([value, await accepts(c, { [key]: value })]).toEqual([value, true]);
    const refused = {
      id: ["7c2f1f642b5e4a519f3e2d1f8a0b9c11", "7c2f1f64-2b5e-4a51-9f3e-2d1f8a0b9c1g"],
      at: ["2024-01-01T12:00Z", "2023-02-29T12:00:00Z", "2024-01-01 12:00:00Z"],
      mail: ["a..b@example.com", "a@-example.com", "nope"],
      site: ["http://a/b c", "/relative", "x:%zz"],
      ip: ["192.0.2.01"],
    };
    for (const [key, values] of Object.entries(refused))
      for (const value of values)
        expect([value, await accepts(c, { [key]: value })]).toEqual([value, false]);
    // The document says each format by its name alone, as the source did.
    const schema = JSON.stringify((await served(c)).paths["/fixture"]?.post?.requestBody);
    for (const format of ["uuid", "date-time", "email", "uri", "ipv4"])
      expect(schema).toContain(`"format":"${format}"`);
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture/post/requestBody/content/application~1json/schema/properties/ip/format: format ipv4: a dotted quad with a leading zero (192.0.2.01) is refused, which RFC 2673 §3.2 allows: many address parsers read it as octal (the JSON Schema Test Suite refuses it too)",
    );
  });

  it("accepts the document's own examples: the conformance checker sends them, and gets the 501 of a valid request", async () => {
    const example = {
      id: "12345678-1234-1234-1234-123456789012",
      at: "2024-02-29t12:00:00z",
      mail: "a!b@example.com",
      site: "http://999.999.999.999/",
    };
    const properties = Object.fromEntries(
      Object.entries({ id: "uuid", at: "date-time", mail: "email", site: "uri" }).map(
        ([name, format]) => [name, { type: "string", format }],
      ),
    );
    const document = bodyCase({ type: "object", required: Object.keys(example), properties });
    const post = (document.paths as Json)["/fixture"] as { post: Json };
    (post.post.requestBody as { content: Record<string, Json> }).content["application/json"] = {
      schema: { type: "object", required: Object.keys(example), properties },
      example,
    };
    const c = await imported("formats-examples", document);
    expect(await accepts(c, example)).toBe(true);
    const report = await checkConformance("https://conformance.test", {
      fetch: (r) => Promise.resolve(c.app.fetch(r)),
    });
    const valid = report.checks.filter((check) => check.name.includes("a valid request gets"));
    expect(valid.map((check) => [check.name, check.ok])).toEqual([
      ["POST /fixture: a valid request gets an answer the document documents (501)", true],
    ]);
  });

  it("reads allOf, anyOf, and oneOf with a discriminator, keeping every $ref a reference", async () => {
    const cat = {
      type: "object",
      required: ["kind", "meows"],
      properties: { kind: { const: "cat" }, meows: { type: "boolean" } },
    };
    const dog = {
      type: "object",
      required: ["kind", "barks"],
      properties: { kind: { const: "dog" }, barks: { type: "boolean" } },
    };
    const c = await imported(
      "composition",
      bodyCase(
        {
          allOf: [
            { $ref: "#/components/schemas/Named" },
            {
              type: "object",
              properties: { pet: { $ref: "#/components/schemas/Pet" } },
              required: ["pet"],
            },
          ],
          anyOf: [{ required: ["name"] }, { type: "object" }],
        },
        {
          schemas: {
            Named: { type: "object", properties: { name: { type: "string" } } },
            Cat: cat,
            Dog: dog,
            Pet: {
              oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
              discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } },
            },
          },
        },
      ),
    );
    expect(await accepts(c, { name: "Tom", pet: { kind: "cat", meows: true } })).toBe(true);
    expect(await accepts(c, { pet: { kind: "dog", barks: true } })).toBe(true);
    expect(await accepts(c, { pet: { kind: "cow" } })).toBe(false);
    expect(await accepts(c, { name: 1, pet: { kind: "dog", barks: true } })).toBe(false);
    const doc = await served(c);
    expect(doc.components.schemas.Pet).toEqual({
      oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
      discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } },
    });
    expect(JSON.stringify(doc.paths["/fixture"]?.post?.requestBody)).toContain(
      '{"$ref":"#/components/schemas/Named"}',
    );
  });

  it("reads additionalProperties and unevaluatedProperties: closed, typed, open, free-form", async () => {
    const c = await imported(
      "additional",
      bodyCase({
        type: "object",
        properties: {
          closed: {
            type: "object",
            properties: { a: { type: "string" } },
            additionalProperties: false,
          },
          sealed: {
            type: "object",
            properties: { a: { type: "string" } },
            unevaluatedProperties: false,
          },
          counts: { type: "object", additionalProperties: { type: "integer" } },
          open: {
            type: "object",
            properties: { a: { type: "string" } },
            additionalProperties: true,
          },
          free: { type: "object" },
        },
      }),
    );
    expect(
      await accepts(c, {
        closed: { a: "x" },
        sealed: { a: "y" },
        counts: { x: 1 },
        open: { a: "x", b: 2 },
        free: { any: [1] },
      }),
    ).toBe(true);
    expect(await accepts(c, { closed: { a: "x", b: 1 } })).toBe(false);
    expect(await accepts(c, { sealed: { b: 1 } })).toBe(false);
    expect(await accepts(c, { counts: { x: "1" } })).toBe(false);
  });

  it("reads bounds and patterns; applies a parameter's default; documents what zod/mini cannot check", async () => {
    const c = await imported("bounds", {
      ...doc31({}),
      paths: {
        "/fixture": {
          post: {
            operationId: "fixturePost",
            parameters: [
              {
                name: "size",
                in: "query",
                schema: { type: "integer", minimum: 1, maximum: 9, default: 3 },
              },
            ],
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      code: {
                        type: "string",
                        pattern: "^[A-Z]{2}/[0-9]+$",
                        minLength: 4,
                        maxLength: 8,
                      },
                      list: {
                        type: "array",
                        items: { type: "integer", multipleOf: 5 },
                        minItems: 1,
                        maxItems: 2,
                        uniqueItems: true,
                      },
                      score: { type: "number", exclusiveMaximum: 1 },
                    },
                  },
                },
              },
            },
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
    });
    expect(await accepts(c, { code: "AB/12", list: [5, 10], score: 0.5 })).toBe(true);
    expect(await accepts(c, { code: "ab/12" })).toBe(false);
    expect(await accepts(c, { list: [] })).toBe(false);
    expect(await accepts(c, { list: [5, 10, 15] })).toBe(false);
    expect(await accepts(c, { list: [3] })).toBe(false);
    expect(await accepts(c, { score: 1 })).toBe(false);
    const tooBig = await c.app.request("https://fixture.test/fixture?size=10", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(tooBig.status).toBe(422);
    expect(findingLines(c).join("\n")).toContain(
      "properties/list/uniqueItems: uniqueItems: in the document, not checked",
    );
    const parameter = (await served(c)).paths["/fixture"]?.post?.parameters.find(
      (p) => p.name === "size",
    );
    expect(parameter?.schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 9,
      default: 3,
    });
  });

  it("reads a parameter's default written as query text (Zoom's `default: \"1\"` for an integer) as the value it spells, and applies none its schema refuses (JSON Schema 2020-12 §9.2)", async () => {
    const query = (name: string, schema: Json) => ({ name, in: "query", schema });
    const c = await imported(
      "text-defaults",
      getCase("/fixture", [
        query("page_type", { type: "integer", enum: [1, 3], default: "1" }),
        query("strict", { type: "boolean", default: "true" }),
        query("size", { type: "integer", minimum: 1, default: "big" }),
      ]),
    );
    expect(findingLines(c)).toEqual(
      expect.arrayContaining([
        'changed #/paths/~1fixture/get/parameters/0/schema/default: default "1": read as 1',
        'changed #/paths/~1fixture/get/parameters/1/schema/default: default "true": read as true',
        'lost #/paths/~1fixture/get/parameters/2/schema/default: default "big": its schema does not take it, so it is not applied',
      ]),
    );
    // Without them: the defaults read as their values, and the refused one leaves it optional.
    expect((await c.app.request("https://fixture.test/fixture")).status).toBe(501);
    expect((await c.app.request("https://fixture.test/fixture?page_type=2")).status).toBe(422);
    const parameters = (await served(c)).paths["/fixture"]?.get?.parameters ?? [];
    const defaults = parameters
      .filter((p) => p.in === "query")
      .map((p) => (p.schema as Json).default);
    expect(defaults).toEqual([1, true, undefined]);
  });

  it("reads a string's enum of numbers (Zoom's `type: string, enum: [1, 2]`, which no value satisfies as written) as their text", async () => {
    const c = await imported(
      "string-enum-of-numbers",
      getCase("/fixture/{tspId}", [
        { name: "tspId", in: "path", required: true, schema: { type: "string", enum: [1, 2] } },
      ]),
    );
    expect(findingLines(c)).toContain(
      'changed #/paths/~1fixture~1{tspId}/get/parameters/0/schema/enum: enum [1,2] of a string: read as ["1","2"]',
    );
    expect((await c.app.request("https://fixture.test/fixture/2")).status).toBe(501);
    expect((await c.app.request("https://fixture.test/fixture/3")).status).toBe(422);
  });

  it("reads an Accept-Language parameter with an enum (EVE's) as any list a client sends (RFC 9110 §12.5.4), its values kept as examples", async () => {
    const c = await imported(
      "accept-language",
      getCase("/fixture", [
        {
          name: "Accept-Language",
          in: "header",
          schema: { type: "string", enum: ["de", "en-us"], default: "en-us" },
        },
      ]),
    );
    for (const sent of ["en-US,en;q=0.9", "*", "de"]) {
      const res = await c.app.request("https://fixture.test/fixture", {
        headers: { "accept-language": sent },
      });
      expect(res.status).toBe(501);
    }
    expect(findingLines(c).join("\n")).toContain(
      "enum of the Accept-Language header: a weighted list that clients send on their own (RFC 9110 §12.5)",
    );
    const parameter = (await served(c)).paths["/fixture"]?.get?.parameters.find(
      (p) => p.name === "accept-language",
    );
    // Served as the parameter's example, its schema a string any list satisfies.
    expect(parameter).toMatchObject({ example: "de", schema: { type: "string" } });
    expect(parameter?.schema).not.toHaveProperty("enum");
  });

  it("keeps one schema for both directions: readOnly members are not required of a request", async () => {
    const c = await imported(
      "views",
      bodyCase(
        { $ref: "#/components/schemas/Account" },
        {
          schemas: {
            Account: {
              type: "object",
              required: ["id", "name", "password"],
              properties: {
                id: { type: "string", readOnly: true },
                name: { type: "string" },
                password: { type: "string", writeOnly: true },
              },
            },
          },
        },
      ),
    );
    expect(await accepts(c, { name: "x", password: "y" })).toBe(true);
    expect(await accepts(c, { id: "1", name: "x" })).toBe(false);
    // Served as its request view (JSON Schema 2020-12 §9.4: the marks are annotations, so
    // a view per direction says what each must carry); only requests use it here.
    const schemas = (await served(c)).components.schemas;
    const input = schemas["Account-Input"] as Json & { properties: Json; required: string[] };
    expect(input.properties).toMatchObject({
      id: { readOnly: true },
      password: { writeOnly: true },
    });
    expect(input.required).toEqual(["name", "password"]);
    expect(Object.keys(schemas).filter((name) => name.startsWith("Account"))).toEqual([
      "Account-Input",
    ]);
  });

  it("carries descriptions, titles, examples and deprecation into the served document", async () => {
    const schema = {
      title: "FIXTURE thing",
      description: "A FIXTURE thing.",
      type: "object",
      properties: {
        name: { type: "string", description: "Its name.", examples: ["Rex"], deprecated: true },
      },
      example: { name: "Rex" },
    };
    const c = await imported(
      "annotations",
      bodyCase({ $ref: "#/components/schemas/Thing" }, { schemas: { Thing: schema } }),
    );
    expect((await served(c)).components.schemas.Thing).toMatchObject(schema);
  });

  it("reads recursive schemas, of one component and of two that refer to each other", async () => {
    const c = await imported(
      "recursion",
      bodyCase(
        { $ref: "#/components/schemas/Tree" },
        {
          schemas: {
            Tree: {
              type: "object",
              properties: {
                name: { type: "string" },
                children: { type: "array", items: { $ref: "#/components/schemas/Tree" } },
                owner: { $ref: "#/components/schemas/Person" },
              },
            },
            Person: {
              type: "object",
              properties: {
                trees: { type: "array", items: { $ref: "#/components/schemas/Tree" } },
              },
            },
          },
        },
      ),
    );
    expect(
      await accepts(c, { name: "a", children: [{ name: "b", children: [{ name: 1 }] }] }),
    ).toBe(false);
    expect(
      await accepts(c, { name: "a", children: [{ name: "b", owner: { trees: [{ name: "c" }] } }] }),
    ).toBe(true);
    const tree = (await served(c)).components.schemas.Tree as Json & { properties: Json };
    expect(tree.properties.children).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/Tree" },
    });
  });
});

describe("operations", () => {
  it("reads parameters of every place, from components and the path item, as text the spec types", async () => {
    const c = await imported("parameters", {
      ...doc30({}),
      paths: {
        "/things/{thingId}": {
          parameters: [{ $ref: "#/components/parameters/ThingId" }],
          get: {
            operationId: "fixtureGet",
            parameters: [
              { name: "tags", in: "query", schema: { type: "array", items: { type: "integer" } } },
              { name: "exact", in: "query", schema: { type: "boolean" } },
              { name: "X-Fixture-Trace", in: "header", required: true, schema: { type: "string" } },
              { name: "session", in: "cookie", schema: { type: "string" } },
              { name: "Accept", in: "header", schema: { type: "string" } },
            ],
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
      components: {
        parameters: {
          ThingId: {
            name: "thingId",
            in: "path",
            required: true,
            schema: { type: "integer", minimum: 1 },
          },
        },
      },
    });
    const get = (url: string, headers: Record<string, string> = { "x-fixture-trace": "t" }) =>
      c.app.request(`https://fixture.test${url}`, { headers });
    expect((await get("/things/7?tags=1&tags=2&exact=true")).status).toBe(501);
    expect((await get("/things/7?tags=5")).status).toBe(501);
    expect((await get("/things/0")).status).toBe(422);
    expect((await get("/things/x")).status).toBe(422);
    expect((await get("/things/7?tags=a")).status).toBe(422);
    expect((await get("/things/7?exact=yes")).status).toBe(422);
    expect((await get("/things/7", {})).status).toBe(422);
    expect(findingLines(c).join("\n")).toContain(
      "header Accept: OpenAPI says such a parameter is ignored",
    );
    const names = (await served(c)).paths["/things/{thingId}"]?.get?.parameters.map(
      (p) => `${p.in}:${p.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "path:thingId",
        "query:tags",
        "query:exact",
        "header:x-fixture-trace",
        "cookie:session",
      ]),
    );
  });

  it("reads a body in each media type the platform serves, and says what it cannot apply", async () => {
    const c = await imported("bodies", {
      ...doc31({}),
      paths: {
        "/fixture": {
          post: {
            operationId: "fixturePost",
            requestBody: {
              content: {
                "application/x-www-form-urlencoded": {
                  schema: {
                    type: "object",
                    required: ["n"],
                    properties: { n: { type: "integer" } },
                  },
                },
                "multipart/form-data": {
                  schema: {
                    type: "object",
                    properties: {
                      file: { type: "string", format: "binary" },
                      note: { type: "string" },
                    },
                  },
                },
                "text/plain": { schema: { type: "string", maxLength: 5 } },
                "application/xml": {
                  schema: { type: "object", properties: { a: { type: "string" } } },
                },
                "application/octet-stream": { schema: { type: "string", format: "binary" } },
              },
            },
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
    });
    const post = (type: string, body: BodyInit) =>
      c.app.request("https://fixture.test/fixture", {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
    expect((await post("application/x-www-form-urlencoded", "n=3")).status).toBe(501);
    expect((await post("application/x-www-form-urlencoded", "n=x")).status).toBe(422);
    expect((await post("text/plain", "abc")).status).toBe(501);
    expect((await post("text/plain", "abcdef")).status).toBe(422);
    expect((await post("application/octet-stream", new Uint8Array([1, 2]))).status).toBe(501);
    // XML is read by its schema, as JSON is (OpenAPI 3.1 §4.8.26): valid, malformed, invalid.
    expect((await post("application/xml", "<r><a>x</a></r>")).status).toBe(501);
    expect((await post("application/xml", "<r><a>x</r>")).status).toBe(400);
    expect((await post("application/xml", "<r><a><b/></a></r>")).status).toBe(422);
    const form = new FormData();
    form.set("file", new File(["x"], "x.txt"));
    expect(
      (await c.app.request("https://fixture.test/fixture", { method: "POST", body: form })).status,
    ).toBe(501);
    // requestBody.required is false unless said: a request without a body is taken.
    expect((await c.app.request("https://fixture.test/fixture", { method: "POST" })).status).toBe(
      501,
    );
    expect(findingLines(c).join("\n")).not.toMatch(/application~1xml|XML|handed over as text/);
    expect(c.result.xml).toBe(true);
  });

  it("reads responses by status, range and default, with headers and examples; says what it loses", async () => {
    const c = await imported("responses", {
      ...doc30({}),
      paths: {
        "/fixture": {
          get: {
            operationId: "fixtureGet",
            responses: {
              "200": {
                description: "FIXTURE ok",
                headers: { "X-Rate-Remaining": { $ref: "#/components/headers/Rate" } },
                content: { "application/json": { schema: { type: "object" }, example: { a: 1 } } },
                links: { self: { operationId: "fixtureGet" } },
              },
              "4XX": { description: "FIXTURE client error" },
              default: {
                description: "FIXTURE other",
                content: { "text/plain": { schema: { type: "string" } } },
              },
              "101": { description: "FIXTURE switching" },
            },
          },
        },
      },
      components: {
        headers: { Rate: { description: "Left.", required: true, schema: { type: "integer" } } },
      },
    });
    const responses = (await served(c)).paths["/fixture"]?.get?.responses ?? {};
    expect(responses["200"]).toMatchObject({
      description: "FIXTURE ok",
      headers: {
        "x-rate-remaining": { description: "Left.", required: true, schema: { type: "integer" } },
      },
      content: { "application/json": { examples: { example: { value: { a: 1 } } } } },
    });
    expect(responses["4XX"]?.description).toBe("FIXTURE client error");
    expect(Object.keys((responses.default?.content as Json) ?? {})).toEqual(["text/plain"]);
    const lines = findingLines(c).join("\n");
    expect(lines).toContain("lost #/paths/~1fixture/get/responses/200/links: links: not carried");
    expect(lines).toContain(
      "lost #/paths/~1fixture/get/responses/101: response 101: a Worker cannot answer it",
    );
  });

  it("names an operation without operationId from its method and path, and declares an undeclared path parameter", async () => {
    const c = await imported("ids", {
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
});

describe("parameter styles (OpenAPI 3.1 §4.8.12.4)", () => {
  /** A parameter of every style, in each location, each with OpenAPI's Style Examples' shape. */
  const stylesDocument = doc31({
    paths: {
      "/fixture-styles/{color}/{ids}/{rgb}": {
        get: {
          operationId: "fixtureStyles",
          parameters: [
            {
              name: "color",
              in: "path",
              required: true,
              style: "label",
              explode: false,
              schema: { type: "string", enum: ["blue", "black", "brown"] },
            },
            {
              name: "ids",
              in: "path",
              required: true,
              style: "matrix",
              explode: true,
              schema: { type: "array", items: { type: "integer" } },
            },
            {
              name: "rgb",
              in: "path",
              required: true,
              style: "simple",
              explode: true,
              schema: { $ref: "#/components/schemas/Rgb" },
            },
            {
              name: "metrics",
              in: "query",
              required: true,
              style: "form",
              explode: false,
              description: "Accepts a comma-separated value.",
              schema: { type: "array", items: { type: "string", enum: ["opened", "clicked"] } },
            },
            {
              name: "words",
              in: "query",
              style: "spaceDelimited",
              explode: false,
              schema: { type: "array", items: { type: "string" } },
            },
            {
              name: "flags",
              in: "query",
              style: "pipeDelimited",
              schema: { type: "array", items: { type: "string" } },
            },
            {
              name: "filter",
              in: "query",
              style: "deepObject",
              explode: true,
              schema: { $ref: "#/components/schemas/Filter" },
            },
            {
              name: "point",
              in: "query",
              style: "form",
              explode: true,
              schema: {
                type: "object",
                properties: { x: { type: "integer" }, y: { type: "integer" } },
              },
            },
            { name: "search", in: "query", allowReserved: true, schema: { type: "string" } },
            {
              name: "x-list",
              in: "header",
              style: "simple",
              schema: { type: "array", items: { type: "string" } },
            },
            {
              name: "x-rgb",
              in: "header",
              explode: true,
              schema: { $ref: "#/components/schemas/Rgb" },
            },
            {
              name: "prefs",
              in: "cookie",
              style: "form",
              explode: false,
              schema: { type: "array", items: { type: "string" } },
            },
          ],
          responses: { "204": { description: "FIXTURE" } },
        },
      },
    },
    components: {
      schemas: {
        Rgb: {
          type: "object",
          required: ["R", "G", "B"],
          properties: { R: { type: "integer" }, G: { type: "integer" }, B: { type: "integer" } },
        },
        Filter: {
          type: "object",
          properties: { status: { type: "string" }, minPrice: { type: "integer", minimum: 0 } },
        },
      },
    },
  });
  const GOOD = {
    path: "/fixture-styles/.blue/;ids=1;ids=2/R=100,G=200,B=150",
    query:
      "metrics=opened,clicked&words=a%20b&flags=a|b&filter[status]=open&filter%5BminPrice%5D=5&x=1&y=2&search=a/b?c",
    headers: { "x-list": "a, b", "x-rgb": "R=1,G=2,B=3", cookie: "prefs=a,b" },
  };
  const get = (c: ImportedCase, change: { path?: string; query?: string; headers?: object } = {}) =>
    c.app.request(`https://fixture.test${change.path ?? GOOD.path}?${change.query ?? GOOD.query}`, {
      headers: { ...GOOD.headers, ...change.headers },
    });
  const errorsOf = async (response: Response) => {
    expect(response.status).toBe(422);
    return ((await response.json()) as { errors: { in: string; pointer: string }[] }).errors.map(
      (e) => `${e.in} ${e.pointer}`,
    );
  };

  it("carries each parameter's style, explode and allowReserved, so what the document serialises is read (a comma-separated metrics, a deepObject filter, a label, a matrix)", async () => {
    const c = await imported("styles", stylesDocument);
    expect((await get(c)).status).toBe(501);
    expect(
      await errorsOf(await get(c, { path: "/fixture-styles/blue/;ids=1/R=1,G=2,B=3" })),
    ).toEqual(["path #/color"]);
    expect(
      await errorsOf(await get(c, { query: GOOD.query.replace("clicked", "bounced") })),
    ).toEqual(["query #/metrics/1"]);
    expect(await errorsOf(await get(c, { query: GOOD.query.replace("%5D=5", "%5D=-5") }))).toEqual([
      "query #/filter/minPrice",
    ]);
    expect(await errorsOf(await get(c, { headers: { "x-rgb": "R=1,G=2" } }))).toEqual([
      "header #/x-rgb/B",
    ]);
    // Nothing about serialisation is lost; components with numbers in a parameter are written
    // out (their members arrive as text), and say so.
    expect(findingLines(c).filter((l) => /: (style|explode|allowReserved)\b/.test(l))).toEqual([]);
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture-styles~1{color}~1{ids}~1{rgb}/get/parameters/6/schema: #/components/schemas/Filter: written out in place (a parameter's members and items arrive as text), not referred to",
    );
  });

  it("serves the document's parameters as the source says them, and round-trips", async () => {
    const c = await imported("styles-served", stylesDocument);
    const parameters = (await served(c)).paths["/fixture-styles/{color}/{ids}/{rgb}"]?.get
      ?.parameters;
    const said = (name: string) => {
      const p = parameters?.find((q) => q.name === name) ?? {};
      return [p.style, p.explode, p.allowReserved];
    };
    expect(said("color")).toEqual(["label", false, undefined]);
    expect(said("ids")).toEqual(["matrix", true, undefined]);
    expect(said("metrics")).toEqual(["form", false, undefined]);
    expect(said("flags")).toEqual(["pipeDelimited", undefined, undefined]);
    expect(said("filter")).toEqual(["deepObject", true, undefined]);
    expect(said("search")).toEqual([undefined, undefined, true]);
    expect(said("x-rgb")).toEqual([undefined, true, undefined]);
    const comparison = compareDocuments(c.source, "3.1", await served(c));
    expect(
      comparison.items
        .filter((i) => !i.kept && i.pointer.includes("/parameters/"))
        .map((i) => i.pointer),
    ).toEqual([]);
    const doc1 = await c.served();
    const again = await imported("styles-again", doc1);
    expect(await again.served()).toEqual(doc1);
  });

  it("reports what OpenAPI does not define, and reads that parameter by its location's defaults", async () => {
    const c = await imported("styles-undefined", {
      ...doc31({}),
      paths: {
        "/fixture/{id}": {
          get: {
            operationId: "fixtureGet",
            parameters: [
              {
                name: "id",
                in: "path",
                required: true,
                allowReserved: true,
                schema: { type: "string" },
              },
              { name: "q", in: "query", style: "matrix", schema: { type: "string" } },
              {
                name: "tags",
                in: "query",
                style: "deepObject",
                schema: { type: "array", items: { type: "string" } },
              },
            ],
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
    });
    expect(findingLines(c)).toEqual(
      expect.arrayContaining([
        "lost #/paths/~1fixture~1{id}/get/parameters/0/allowReserved: allowReserved: it applies to query parameters only (OpenAPI 3.1 §4.8.12.4)",
        "lost #/paths/~1fixture~1{id}/get/parameters/1/style: style matrix: not a style of query parameters (OpenAPI 3.1 §4.8.12.4); read as form",
        "lost #/paths/~1fixture~1{id}/get/parameters/2/style: style deepObject for a value that is no object (OpenAPI 3.1 §4.8.12.4): read as form",
      ]),
    );
    expect((await c.app.request("https://fixture.test/fixture/1?q=a&tags=a&tags=b")).status).toBe(
      501,
    );
  });
});

describe("what real documents hold that code generation must not trip on", () => {
  it("leaves out a content key that is no media type (OSF's `data`, Plaid's `examples`), never the operation (RFC 9110 §8.3.1)", async () => {
    const schema = { type: "object", properties: { name: { type: "string" } } };
    const c = await imported("not-a-media-type", {
      ...doc31({}),
      paths: {
        "/fixture": {
          post: {
            operationId: "fixturePost",
            requestBody: { content: { examples: { schema } } },
            responses: {
              "200": {
                description: "FIXTURE",
                content: { data: { schema }, "application/json": { schema } },
              },
            },
          },
        },
      },
    });
    expect(findingLines(c)).toEqual(
      expect.arrayContaining([
        'lost #/paths/~1fixture/post/requestBody/content/examples: "examples" is not a media type (RFC 9110 §8.3.1): left out',
        'lost #/paths/~1fixture/post/responses/200/content/data: "data" is not a media type (RFC 9110 §8.3.1): left out',
      ]),
    );
    const op = c.contract.operations.fixturePost;
    expect(op?.request?.body).toBeUndefined();
    expect(Object.keys(op?.responses[200]?.content ?? {})).toEqual(["application/json"]);
    expect((await c.app.request("https://fixture.test/fixture", { method: "POST" })).status).toBe(
      501,
    );
  });

  it("reads a lone `*` content key (as Telnyx's documents have) as */*, any media type (RFC 9110 §12.5.1), with a finding: a body is taken, not refused 415", async () => {
    const c = await imported("star-media-type", {
      ...doc30({}),
      paths: {
        "/fixture-files": {
          post: {
            operationId: "fixtureUpload",
            requestBody: {
              required: true,
              content: { "*": { schema: { type: "string", format: "binary" } } },
            },
            responses: { "204": { description: "FIXTURE stored" } },
          },
        },
      },
    });
    expect(findingLines(c)).toContain(
      'changed #/paths/~1fixture-files/post/requestBody/content/*: "*" is read as */*, any media type (RFC 9110 §12.5.1)',
    );
    expect(Object.keys(c.contract.operations.fixtureUpload?.request?.body ?? {})).toEqual(["*/*"]);
    const sent = await c.app.request("https://fixture.test/fixture-files", {
      method: "POST",
      headers: { "content-type": "application/pdf" },
      body: "%PDF-FIXTURE",
    });
    expect(sent.status).toBe(501);
  });

  it("media types that differ only in their parameters (as Jellyfin's do): the first is served, by its essence (RFC 9110 §8.3.1), the others reported", async () => {
    const doc = bodyCase({ type: "object" });
    const post = ((doc.paths as Json)["/fixture"] as { post: Json }).post;
    const json = { schema: { type: "object", properties: { name: { type: "string" } } } };
    post.requestBody = {
      required: true,
      content: {
        "application/json": json,
        'application/json; profile="FixtureCamel"': json,
        'application/json; profile="FixturePascal"': json,
      },
    };
    const c = await imported("same-essence", doc);
    // One key per media type in the code written (Biome refuses a duplicate key, and so the import).
    expect(c.code.endpoints?.match(/"application\/json":/g)).toHaveLength(1);
    expect(findingLines(c)).toContain(
      'lost #/paths/~1fixture/post/requestBody/content/application~1json; profile="FixturePascal": media type application/json; profile="FixturePascal": the same as application/json without its parameters, which is served',
    );
    const content = (await served(c)).paths["/fixture"]?.post?.requestBody as Json;
    expect(Object.keys(content.content as Json)).toEqual(["application/json"]);
    expect(await accepts(c, { name: "FIXTURE" })).toBe(true);
    expect(await accepts(c, { name: 1 })).toBe(false);
  });

  it("a text/json body is JSON (WHATWG MIME Sniffing §4.6, as ASP.NET documents declare it): its schema is applied", async () => {
    const doc = bodyCase({ type: "object", required: ["name"], properties: { name: {} } });
    const body = (doc.paths as Json)["/fixture"] as { post: { requestBody: Json } };
    body.post.requestBody.content = {
      "application/json": { schema: { $ref: "#/components/schemas/FixtureNamed" } },
      "text/json": { schema: { $ref: "#/components/schemas/FixtureNamed" } },
    };
    doc.components = {
      schemas: {
        FixtureNamed: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" } },
        },
      },
    };
    const c = await imported("text-json", doc);
    expect(findingLines(c).join("\n")).not.toMatch(/text\/json/);
    const post = (value: unknown) =>
      c.app.request("https://fixture.test/fixture", {
        method: "POST",
        headers: { "content-type": "text/json" },
        body: JSON.stringify(value),
      });
    expect((await post({ name: 1 })).status).toBe(422);
    expect((await post({ name: "FIXTURE" })).status).toBe(501);
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
    const c = await imported("templates", {
      ...doc31({}),
      paths: {
        "/fixture-items/{item-id}": { get: op("fixtureHyphen", "item-id") },
        "/fixture-items/{id}.json": { get: op("fixtureSuffix", "id") },
        "/fixture-jobs/{name}:cancel": { post: op("fixtureVerb", "name") },
      },
    });
    expect(Object.keys(c.contract.operations).sort()).toEqual([
      "fixtureHyphen",
      "fixtureSuffix",
      "fixtureVerb",
    ]);
    for (const [method, path] of [
      ["GET", "/fixture-items/a-1"],
      ["GET", "/fixture-items/7.json"],
      ["POST", "/fixture-jobs/nightly:cancel"],
    ] as const)
      expect((await c.app.request(`https://fixture.test${path}`, { method })).status).toBe(501);
    expect(Object.keys((await served(c)).paths)).toEqual(
      expect.arrayContaining(["/fixture-items/{item-id}", "/fixture-items/{id}.json"]),
    );
  });

  it("text that looks like code is written as data: `${`, `*/`, a `then` key, quotes and backslashes", async () => {
    // Built from pieces, as this file must pass Biome too: a `${` and a `then` key are the point.
    const tricky = `FIXTURE $${"{x}"} */ \`tick\` "quoted" \\ end`;
    // biome-ignore lint/suspicious/noThenProperty: a FIXTURE document's member, never awaited
    const then = (value: unknown) => Object.fromEntries([["then", value]]);
    const c = await imported("text", {
      ...bodyCase({
        type: "object",
        description: tricky,
        properties: {
          ...then({ type: "string" }),
          'say"what': { type: "string" },
          guarded: { type: "string", if: { minLength: 1 }, ...then({ maxLength: 3 }) },
        },
        required: ["then"],
      }),
      info: { ...info, description: tricky },
    });
    const doc = await served(c);
    expect(String((doc.info as Json).description).startsWith(tricky)).toBe(true);
    const schema = doc.paths["/fixture"]?.post?.requestBody as Json;
    expect(JSON.stringify(schema)).toContain(JSON.stringify(tricky).slice(1, -1));
    expect(await accepts(c, { ...then("x"), 'say"what': "y" })).toBe(true);
    expect(await accepts(c, { 'say"what': "y" })).toBe(false);
  });

  it("references into a component, allOf of one schema and the false schema: written out, and the report counts them kept", async () => {
    const document = bodyCase(
      {
        type: "object",
        properties: {
          name: { $ref: "#/components/schemas/FixtureUser/properties/name" },
          local: { $ref: "#/components/schemas/FixtureUser/$defs/FixtureLocal" },
          lead: { allOf: [{ $ref: "#/components/schemas/FixtureUser" }], description: "FIXTURE" },
          never: false,
        },
      },
      {
        schemas: {
          FixtureUser: {
            type: "object",
            properties: { name: { type: "string", minLength: 2 } },
            $defs: { FixtureLocal: { type: "integer" } },
          },
        },
      },
    );
    const c = await imported("into", document);
    expect(await accepts(c, { name: "ab", local: 1, lead: {} })).toBe(true);
    expect(await accepts(c, { name: "a" })).toBe(false);
    expect(await accepts(c, { never: 1 })).toBe(false);
    const comparison = compareDocuments(document, "3.1", await c.served());
    const lost = comparison.items.filter((i) => !i.kept).map((i) => i.pointer);
    expect(lost).toEqual(["#/components/schemas/FixtureUser/$defs"]);
  });

  it("credentials made optional by an empty requirement", async () => {
    const c = await imported("optional", {
      ...doc31({}),
      security: [{ fixtureKey: [] }, {}],
      paths: {
        "/fixture": {
          get: { operationId: "fixtureGet", responses: { "204": { description: "FIXTURE" } } },
        },
      },
      components: {
        securitySchemes: { fixtureKey: { type: "apiKey", in: "header", name: "X-Fixture-Key" } },
      },
    });
    expect(c.contract.operations.fixtureGet?.security).toEqual([{ fixtureKey: [] }, {}]);
    expect((await served(c)).paths["/fixture"]?.get?.security).toEqual([{ fixtureKey: [] }, {}]);
  });
});

describe("security, events, errors, limits, purpose, versioning", () => {
  const secured = (schemes: Json, security: unknown[]) => ({
    ...doc31({}),
    security,
    paths: {
      "/fixture": {
        get: { operationId: "fixtureGet", responses: { "204": { description: "FIXTURE" } } },
        post: {
          operationId: "fixtureOpen",
          security: [],
          responses: { "204": { description: "FIXTURE" } },
        },
      },
    },
    components: { securitySchemes: schemes },
  });

  it("reads every scheme the platform verifies, with secret and var names, never values", async () => {
    const c = await imported(
      "schemes",
      secured(
        {
          key: { type: "apiKey", in: "header", name: "X-Key" },
          basic: { type: "http", scheme: "basic" },
          token: { type: "http", scheme: "bearer" },
          jwt: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          oauth: {
            type: "oauth2",
            flows: {
              clientCredentials: {
                tokenUrl: "https://idp.fixture.test/token",
                scopes: { "a:read": "Read" },
              },
            },
          },
          oidc: {
            type: "openIdConnect",
            openIdConnectUrl: "https://idp.fixture.test/.well-known/openid-configuration",
          },
        },
        [{ key: [] }, { oauth: ["a:read"] }],
      ),
    );
    expect(c.contract.securitySchemes).toMatchObject({
      key: { type: "apiKey", in: "header", name: "X-Key", secret: "KEY" },
      basic: { type: "http", scheme: "basic", realm: "FIXTURE importer case", secret: "BASIC" },
      // An opaque bearer token is introspected (RFC 7662), not compared with one secret.
      token: {
        type: "http",
        scheme: "bearer",
        introspection: {
          endpoint: "TOKEN_INTROSPECTION_URL",
          clientId: "TOKEN_CLIENT_ID",
          clientSecret: "TOKEN_CLIENT_SECRET",
        },
      },
      jwt: { jwt: { jwksUrl: "JWT_JWKS_URL", issuer: "JWT_ISSUER", audience: "JWT_AUDIENCE" } },
      oauth: { type: "oauth2", jwt: { jwksUrl: "OAUTH_JWKS_URL" } },
      oidc: { type: "openIdConnect", jwt: { jwksUrl: "OIDC_JWKS_URL" } },
    });
    expect(c.contract.operations.fixtureGet?.security).toEqual([
      { key: [] },
      { oauth: ["a:read"] },
    ]);
    expect(c.contract.operations.fixtureOpen?.security).toEqual([]);
    // The secrets and vars are named, for the deployment to set; the document names none.
    expect(JSON.stringify(await served(c))).not.toMatch(/JWKS_URL|"KEY"|BASIC|TOKEN/);
    expect(findingLines(c).join("\n")).toContain(
      "opaque bearer tokens are verified by token introspection (RFC 7662)",
    );
  });

  it("leaves out an operation only a scheme it cannot verify would guard (fail closed), and imports the rest", async () => {
    const c = await imported("mtls", secured({ mtls: { type: "mutualTLS" } }, [{ mtls: [] }]));
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureOpen"]);
    expect(findingLines(c)).toContain(
      "lost #/paths/~1fixture/get: left out: operation fixtureGet can only be reached with credentials the platform cannot verify, and is not served open",
    );
    // Never served open: its method on the path is one the path does not have.
    expect((await c.app.request("https://fixture.test/fixture")).status).toBe(405);
  });

  const relativeOAuth = (servers: Json[]) => ({
    ...secured(
      {
        oauth: {
          type: "oauth2",
          flows: {
            authorizationCode: {
              authorizationUrl: "/fixture-oauth/authorize",
              tokenUrl: "fixture-oauth/token",
              scopes: { "fixture:read fixture:write": "FIXTURE both", 'fixture"quoted': "FIXTURE" },
            },
          },
        },
      },
      [{ oauth: ["fixture:read fixture:write"] }, { oauth: ['fixture"quoted'] }],
    ),
    servers,
  });

  it("resolves a relative OAuth URL against the first absolute server (OpenAPI 3.1 §4.7) and reads a scope key listing several tokens as each of them (RFC 6749 §3.3)", async () => {
    const c = await imported(
      "oauth-relative",
      relativeOAuth([
        { url: "/fixture-relative" },
        { url: "https://{host}/v2", variables: { host: { default: "api.fixture.test" } } },
      ]),
    );
    expect(c.contract.securitySchemes.oauth).toMatchObject({
      flows: {
        authorizationCode: {
          authorizationUrl: "https://api.fixture.test/fixture-oauth/authorize",
          tokenUrl: "https://api.fixture.test/fixture-oauth/token",
          scopes: { "fixture:read": "FIXTURE both", "fixture:write": "FIXTURE both" },
        },
      },
    });
    // A requirement of the listed scopes asks for all of them; one of a scope that is no
    // token is not offered (fail closed), the operation still reached by the other.
    expect(c.contract.operations.fixtureGet?.security).toEqual([
      { oauth: ["fixture:read", "fixture:write"] },
    ]);
    const lines = findingLines(c).join("\n");
    expect(lines).toContain(
      "changed #/components/securitySchemes/oauth/flows/authorizationCode/tokenUrl: fixture-oauth/token: a relative URL, resolved against the server https://api.fixture.test/v2 as https://api.fixture.test/fixture-oauth/token",
    );
    expect(lines).toContain(
      'lost #/components/securitySchemes/oauth/flows/authorizationCode/scopes/fixture"quoted: scope "fixture\\"quoted": it is no scope token (RFC 6749 §3.3), and a requirement of it is not offered',
    );
    expect(lines).toContain(
      "lost #/security/1: fixtureGet: this way in asks for a scope that is no scope token (RFC 6749 §3.3), so it is not offered",
    );
  });

  it("leaves out an OAuth flow whose relative URL no absolute server resolves, and with it the scheme and what only it guards", async () => {
    const c = await imported("oauth-serverless", relativeOAuth([{ url: "/fixture-relative" }]));
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureOpen"]);
    expect(findingLines(c).join("\n")).toContain(
      "lost #/components/securitySchemes/oauth/flows/authorizationCode: OAuth flow authorizationCode: left out, a URL of it is neither an http(s) URL nor relative to an absolute server",
    );
  });

  it("imports an API key in the Authorization header as that header's whole value, compared with its secret (as SendGrid declares its key)", async () => {
    const c = await imported(
      "authorization-key",
      secured({ fixtureAuth: { type: "apiKey", in: "header", name: "Authorization" } }, [
        { fixtureAuth: [] },
      ]),
    );
    expect(c.contract.securitySchemes).toMatchObject({
      fixtureAuth: { type: "apiKey", in: "header", name: "Authorization", secret: "FIXTURE_AUTH" },
    });
    // Served, and challenged without it (its comparison is workerd's: authenticate.test.ts).
    const res = await c.app.request("https://fixture.test/fixture");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('ApiKey in="header", name="Authorization"');
  });

  it("reads a parameter that is also where an API key goes as that credential (Trello declares its key so), not as a parameter no request could give", async () => {
    const c = await imported(
      "key-parameter",
      getCase(
        "/fixture",
        [
          { name: "key", in: "query", required: true, schema: { type: "string" } },
          { name: "fields", in: "query", schema: { type: "string" } },
        ],
        {
          security: [{ fixtureKey: [] }],
          components: {
            securitySchemes: { fixtureKey: { type: "apiKey", in: "query", name: "key" } },
          },
        },
      ),
    );
    expect(findingLines(c)).toContain(
      "changed #/paths/~1fixture/get/parameters/0: query parameter key: the credential of security scheme fixtureKey, read as that credential and kept from the operation's input",
    );
    const query = resolveSchema(c.contract.operations.fixtureGet?.request?.query);
    expect(Object.keys(objectShape(query as Schema) ?? {})).toEqual(["fields"]);
    // Without a key: challenged for it (401), never a 400 for a parameter it cannot send.
    expect((await c.app.request("https://fixture.test/fixture")).status).toBe(401);
  });

  it("compares two API key schemes that read the same field with one secret: one credential (the FEC's document requires both together)", async () => {
    const query = { type: "apiKey", in: "query", name: "api_key" };
    const c = await imported(
      "same-key-field",
      secured(
        {
          fixtureHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
          fixtureQuery: query,
          fixtureAgain: query,
        },
        [{ fixtureHeader: [], fixtureQuery: [], fixtureAgain: [] }],
      ),
    );
    expect(c.contract.securitySchemes).toMatchObject({
      fixtureHeader: { secret: "FIXTURE_HEADER" },
      fixtureQuery: { secret: "FIXTURE_QUERY" },
      fixtureAgain: { secret: "FIXTURE_QUERY" },
    });
    expect(findingLines(c)).toContain(
      "changed #/components/securitySchemes/fixtureAgain: security scheme fixtureAgain reads the same query field api_key as fixtureQuery: one credential, compared with one secret (FIXTURE_QUERY)",
    );
  });

  it("leaves out what only an AWS request signature guards (x-amazon-apigateway-authtype): no secret can verify a signature made per request (fail closed)", async () => {
    const hmac = {
      type: "apiKey",
      in: "header",
      name: "Authorization",
      "x-amazon-apigateway-authtype": "awsSigv4",
    };
    const c = await imported("aws-signature", secured({ hmac }, [{ hmac: [] }]));
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureOpen"]);
    expect(findingLines(c)).toContainEqual(
      expect.stringMatching(
        /^lost #\/components\/securitySchemes\/hmac: security scheme hmac \(apiKey\): the platform cannot verify it; it is an AWS request signature \(x-amazon-apigateway-authtype awsSigv4\)/,
      ),
    );
    expect((await c.app.request("https://fixture.test/fixture")).status).toBe(405);
  });

  it("reads webhooks and callbacks as part 6's events", async () => {
    const payload = { type: "object", properties: { id: { type: "string" } } };
    const c = await imported("events", {
      ...doc31({}),
      paths: {
        "/subscriptions": {
          post: {
            operationId: "subscribe",
            responses: { "201": { description: "FIXTURE" } },
            callbacks: {
              ping: {
                "{$request.body#/url}": {
                  post: {
                    summary: "A ping",
                    requestBody: { content: { "application/json": { schema: payload } } },
                    responses: { "200": { description: "ok" } },
                  },
                },
              },
            },
          },
        },
      },
      webhooks: {
        thingAdded: {
          post: {
            summary: "A thing was added",
            description: "FIXTURE",
            requestBody: {
              content: {
                "application/json": { schema: payload, examples: { one: { value: { id: "1" } } } },
              },
            },
            responses: { "2XX": { description: "Received" }, "410": { description: "Gone" } },
          },
        },
      },
    });
    expect(Object.keys(c.contract.events)).toEqual(["ping", "thingAdded"]);
    // The operation a callback belongs to may emit it; the document says so (x-emits).
    expect(c.contract.operations.subscribe?.emits).toEqual(["ping"]);
    expect((await served(c)).paths?.["/subscriptions"]?.post).toMatchObject({
      "x-emits": ["ping"],
    });
    const hook = (await served(c)).webhooks?.thingAdded?.post as Json;
    expect(hook).toMatchObject({
      summary: "A thing was added",
      description: "FIXTURE",
      responses: { "2XX": { description: "Received" }, 410: { description: "Gone" } },
    });
    expect(findingLines(c).join("\n")).toContain(
      "callback ping of subscribe: event ping; where it is sent ({$request.body#/url}) is deployment configuration",
    );
  });

  it("reads problem responses as part 7's error types, which present the platform's failures at their status for the operations that document them", async () => {
    const problem = { $ref: "#/components/schemas/Problem" };
    const c = await imported("errors", {
      ...doc31({}),
      paths: {
        "/fixture": {
          post: {
            operationId: "fixturePost",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["a"],
                    properties: { a: { type: "string" } },
                  },
                },
              },
            },
            responses: {
              "204": { description: "FIXTURE" },
              "400": { $ref: "#/components/responses/Invalid" },
              "409": {
                description: "Already there.",
                content: { "application/problem+json": { schema: problem } },
              },
            },
          },
        },
      },
      components: {
        responses: {
          Invalid: {
            description: "Invalid input.",
            content: { "application/problem+json": { schema: problem } },
          },
        },
        schemas: {
          Problem: {
            type: "object",
            properties: {
              type: { type: "string" },
              title: { type: "string" },
              code: { type: "integer" },
            },
          },
        },
      },
    });
    expect(c.contract.errors).toMatchObject({
      Invalid: { status: 400, title: "Invalid input." },
      AlreadyThere: { status: 409, title: "Already there." },
    });
    // The operation that documents them answers its bad requests as Invalid.
    expect(c.contract.operations.fixturePost?.presents).toEqual({
      "malformed-request": "Invalid",
      "validation-failed": "Invalid",
    });
    const res = await c.app.request("https://fixture.test/fixture", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: "/_service/problems/Invalid",
      title: "Invalid input.",
    });
    expect(findingLines(c).join("\n")).toContain(
      "renamed SpecProblem: the platform's own schema is called Problem",
    );
  });

  it("titles an error type with its description's first sentence, as plain text and short (RFC 9457 §3.1.3), keeping the whole text as its description", async () => {
    const get = (status: string, description: string) => ({
      get: {
        responses: {
          "200": { description: "FIXTURE OK" },
          [status]: {
            description,
            content: { "application/problem+json": { schema: { type: "object" } } },
          },
        },
      },
    });
    const markdown =
      "**HTTP Status Code:** `404` Not Found<br>\n**Error Code:** `1001`<br>\nThe FIXTURE [item](https://fixture.invalid/items) does not exist. Check its id.";
    const long =
      "Returned if the FIXTURE item cannot be read because the calling user has no permission to browse the project that the item belongs to.";
    const c = await imported("error-titles", {
      ...doc31({}),
      paths: {
        "/fixture-markdown": get("404", markdown),
        "/fixture-long": get("403", long),
        "/fixture-plain": get("409", "Already there."),
        "/fixture-silent": get("410", ""),
      },
    });
    const errors = Object.values(c.contract.errors);
    const of = (status: number) => errors.find((e) => e.status === status);
    // Past the lines that only state a code, as Zoom writes its errors.
    expect(of(404)).toMatchObject({
      title: "The FIXTURE item does not exist.",
      description: markdown,
    });
    expect(of(403)?.title).toBe(
      "Returned if the FIXTURE item cannot be read because the calling user has no…",
    );
    expect(of(403)?.description).toBe(long);
    // A description that is a title already is not said twice; none says the reason phrase.
    expect(of(409)).toEqual(expect.objectContaining({ title: "Already there." }));
    expect(of(409)?.description).toBeUndefined();
    expect(of(410)?.title).toBe("Gone");
    // Names come from the title too, past the code lines (not `HTTPStatusCode404…`).
    expect(Object.entries(c.contract.errors).find(([, e]) => e.status === 404)?.[0]).toBe(
      "TheFIXTUREItemDoes",
    );
    // The served document says the whole text, and not after its own first sentence again.
    const responses = (await served(c)).components.responses ?? {};
    const described = Object.values(responses).map((r) => String(r.description));
    expect(described).toContain(long);
    expect(described.some((d) => d.endsWith(markdown))).toBe(true);
  });

  it("renames a platform-named schema to a name the document does not use itself", async () => {
    const c = await imported(
      "rename-collision",
      bodyCase(
        { $ref: "#/components/schemas/SpecProblem" },
        {
          schemas: {
            Problem: { type: "object", properties: { code: { type: "integer" } } },
            SpecProblem: {
              type: "object",
              required: ["inner"],
              properties: { inner: { $ref: "#/components/schemas/Problem" } },
            },
          },
        },
      ),
    );
    expect(Object.keys(c.contract.resources).sort()).toEqual(["SpecProblem", "SpecProblem2"]);
    expect(findingLines(c).join("\n")).toContain(
      "renamed SpecProblem2: the platform's own schema is called Problem",
    );
    expect(await accepts(c, { inner: { code: 1 } })).toBe(true);
    expect(await accepts(c, { inner: { code: "x" } })).toBe(false);
  });

  it("answers a failure as the operation documents it: its own JSON error body at its status, else the platform's", async () => {
    const post = (errors: Json) => postOfOneMember("name", errors);
    const c = await imported("own-error-bodies", {
      ...doc31({}),
      paths: {
        "/fixture-items": post({
          "400": {
            description: "FIXTURE bad input",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/FixtureError" } },
            },
          },
        }),
        "/fixture-others": post({}),
      },
      components: {
        schemas: {
          FixtureError: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "integer" }, message: { type: "string" } },
          },
        },
      },
    });
    const send = (path: string) =>
      c.app.request(`https://fixture.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "" }),
      });
    const own = await send("/fixture-items");
    expect(own.status).toBe(400);
    expect(own.headers.get("content-type")).toBe("application/json");
    expect(await own.json()).toEqual({ code: 400, message: expect.stringContaining("violation") });
    const platform = await send("/fixture-others");
    expect(platform.status).toBe(422);
    expect(platform.headers.get("content-type")).toBe("application/problem+json");
    // Said at the operation's pointer, without its id, so many operations' are said once.
    expect(findingLines(c).join("\n")).toMatch(
      /^changed #\/paths\/~1fixture-items\/post: the operation answers the platform's own malformed-request, validation-failed failures as/m,
    );
  });

  it("carries the detail as the one item of a list of messages where no member holds it alone (Jira's `{ errorMessages, errors, status }`), and the violations by field in an object of messages (Jira's `errors`; `{ field: [messages] }` as many frameworks write it)", async () => {
    const fixtureErrors = (byField: Json): Json => ({
      type: "object",
      additionalProperties: false,
      properties: {
        errorMessages: { type: "array", items: { type: "string" } },
        errors: { type: "object", additionalProperties: byField },
        status: { type: "integer", format: "int32" },
      },
    });
    const post = (schema: string) =>
      postOfOneMember("summary", {
        "400": {
          description: "FIXTURE invalid",
          content: {
            "application/json": { schema: { $ref: `#/components/schemas/${schema}` } },
          },
        },
      });
    const c = await imported("error-collection", {
      ...doc30({}),
      paths: { "/fixture-issues": post("FixtureErrors"), "/fixture-notes": post("FixtureLists") },
      components: {
        schemas: {
          FixtureErrors: fixtureErrors({ type: "string" }),
          FixtureLists: fixtureErrors({ type: "array", items: { type: "string" } }),
        },
      },
    });
    expect(c.code.errors).toContain('"fieldErrors":"/errors","detail":"/errorMessages/0"');
    expect(c.code.errors).toContain('"fieldErrorLists":"/errors","detail":"/errorMessages/0"');
    const send = (path: string, body: string) =>
      c.app.request(`https://fixture.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    const malformed = await send("/fixture-issues", "{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ errorMessages: [expect.any(String)], status: 400 });
    const invalid = await send("/fixture-issues", JSON.stringify({ summary: "" }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      errorMessages: [expect.any(String)],
      errors: { summary: expect.any(String) },
      status: 400,
    });
    const listed = await send("/fixture-notes", JSON.stringify({ summary: "" }));
    expect(((await listed.json()) as Json).errors).toEqual({ summary: [expect.any(String)] });
  });

  it("answers the platform's failures as problems where the documented error body is no JSON object (SendGrid's list), only a composition (GitHub's 422), or its `errors` items allow no violation (Jira's bulk results)", async () => {
    const post = (schema: Json) => ({
      post: {
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object" } } },
        },
        responses: { "201": { description: "FIXTURE created" }, ...jsonError("400", schema) },
      },
    });
    const c = await imported("error-shapes", {
      ...doc30({}),
      paths: {
        "/fixture-lists": post({ type: "array", items: { type: "string" } }),
        "/fixture-either": post({
          oneOf: [
            {
              type: "object",
              required: ["message", "url"],
              properties: { message: { type: "string" }, url: { type: "string" } },
            },
            {
              type: "object",
              required: ["message", "code"],
              properties: { message: { type: "string" }, code: { type: "string" } },
            },
          ],
        }),
        "/fixture-bulk": post({
          type: "object",
          additionalProperties: false,
          properties: {
            errors: {
              type: "array",
              items: {
                type: "object",
                additionalProperties: false,
                properties: { failedElementNumber: { type: "integer" } },
              },
            },
          },
        }),
      },
    });
    // Said once per error type, at its answer.
    expect(
      findingLines(c).filter((line) => line.includes("is no JSON object of its own members")),
    ).toHaveLength(2);
    for (const path of ["/fixture-lists", "/fixture-either", "/fixture-bulk"]) {
      const res = await c.app.request(`https://fixture.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "[]",
      });
      expect(res.status, path).not.toBe(500);
      const body = (await res.json()) as Record<string, unknown>;
      const type = res.headers.get("content-type");
      // A list is never the platform's answer; nor a violation list where its items cannot hold one.
      if (path !== "/fixture-bulk") expect(type, path).toBe("application/problem+json");
      else if (type === "application/json") expect(body.errors).toBeUndefined();
    }
  });

  it("writes the detail where the body requires it (Bitbucket's `error: { message (required), detail }`), and no nested object without a member it requires", async () => {
    const nested = (inner: Json): Json => ({
      type: "object",
      additionalProperties: false,
      properties: { error: { type: "object", additionalProperties: false, ...inner } },
    });
    const get = (schema: Json) => ({
      get: { responses: { "200": { description: "FIXTURE OK" }, ...jsonError("404", schema) } },
    });
    const c = await imported("required-carriers", {
      ...doc31({}),
      paths: {
        "/fixture-whole": get(
          nested({
            required: ["message"],
            properties: { message: { type: "string" }, detail: { type: "string" } },
          }),
        ),
        "/fixture-coded": get(
          nested({
            required: ["code"],
            properties: { code: { type: "string", enum: ["FIXTURE"] }, detail: { type: "string" } },
          }),
        ),
      },
    });
    // The first of the two presents not-found: its answer is whole.
    const missing = await c.app.request("https://fixture.test/fixture-nowhere");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { message: expect.any(String) } });
    const bodies = Object.values(c.contract.errors).map((e) => e.body?.carries);
    expect(bodies).toContainEqual({ detail: "/error/message" });
    // `code` is required and no fact fills it: the platform writes no `error` object there.
    expect(bodies).toContainEqual({});
  });

  it("says what an error type of the API's own JSON answers for the platform's failures: the facts its body carries, or {} when it carries none (RFC 9457 §3.1: never a guessed member)", async () => {
    const c = await imported("own-error-facts", {
      ...doc31({}),
      paths: {
        "/fixture-items": {
          get: {
            responses: {
              "200": { description: "FIXTURE OK" },
              "404": {
                description: "FIXTURE not found",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { flag: { type: "boolean" } } },
                  },
                },
              },
              "405": {
                description: "FIXTURE not allowed",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { message: { type: "string" } } },
                  },
                },
              },
            },
          },
        },
      },
    });
    const findings = findingLines(c).join("\n");
    expect(findings).toMatch(
      /answers the platform's own not-found failures with a body of \{\}: its schema has no member for any of their facts/,
    );
    expect(findings).toMatch(
      /answers the platform's own method-not-allowed failures in its own body, which carries their detail/,
    );
    expect(findings).not.toMatch(/failures \(its status, type and title\)/);
    const nowhere = await c.app.request("https://fixture.test/fixture-nowhere");
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toEqual({});
    const wrong = await c.app.request("https://fixture.test/fixture-items", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(await wrong.json()).toEqual({ message: expect.any(String) });
  });

  /** GET /fixture-items, whose `limit` of over 100 is refused, with `errors` as its error answers. */
  const limitedList = (errors: Json) => ({
    "/fixture-items": {
      get: {
        operationId: "fixtureList",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 100 } }],
        responses: { "200": { description: "FIXTURE OK" }, ...errors },
      },
    },
  });

  it("keeps an operation whose error answers have no body (no `content`), answering its failures at their documented status (RFC 9457 §3)", async () => {
    const c = await imported("bodiless-errors", {
      ...doc30({}),
      paths: limitedList({
        "400": { description: "FIXTURE Bad Request" },
        "500": { description: "FIXTURE Internal Server Error" },
      }),
    });
    expect(findingLines(c).join("\n")).not.toMatch(/left out|could not be converted/);
    expect(Object.keys((await served(c)).paths)).toContain("/fixture-items");
    const bad = await c.app.request("https://fixture.test/fixture-items?limit=101");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/problem+json");
    expect(await bad.json()).toMatchObject({ status: 400, title: "FIXTURE Bad Request" });
  });

  it("imports an error body whose optional member is named like a problem's own but cannot hold it (a string `status`): answers leave it out, with a finding (RFC 9457 §3.1)", async () => {
    const c = await imported("string-status-member", {
      ...doc30({}),
      paths: limitedList({
        "400": {
          description: "FIXTURE Bad Request",
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/FixtureError" } },
          },
        },
      }),
      components: {
        schemas: {
          FixtureError: {
            type: "object",
            properties: {
              message: { type: "string" },
              documentation_url: { type: "string" },
              status: { type: "string" },
            },
          },
        },
      },
    });
    expect(findingLines(c).join("\n")).not.toMatch(/left out|could not be converted/);
    expect(findingLines(c)).toContainEqual(
      expect.stringMatching(
        /^lost #\/components\/schemas\/FixtureError\/properties\/status: member status of an error body/,
      ),
    );
    const bad = await c.app.request("https://fixture.test/fixture-items?limit=101");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/json");
    const body = (await bad.json()) as Json;
    expect(body).toMatchObject({ message: expect.any(String) });
    expect(body).not.toHaveProperty("status");
  });

  it("serves path keys that differ only in their parameters' names as the first one's template (OpenAPI 3.1 §4.8.8), keeping every operation but a method declared twice", async () => {
    const param = (name: string) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string", maxLength: 5 },
    });
    const c = await imported("same-template", {
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

  it("delivers a webhook payload that already is an envelope as it is, and says so", async () => {
    const c = await imported("envelope-payload", {
      ...doc31({}),
      webhooks: {
        "fixture.invoice.paid": {
          post: {
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["type", "created_at", "data"],
                    properties: {
                      type: { type: "string", const: "fixture.invoice.paid" },
                      created_at: { type: "string", format: "date-time" },
                      data: { type: "object", properties: { id: { type: "string" } } },
                    },
                  },
                },
              },
            },
            responses: { "200": { description: "FIXTURE received" } },
          },
        },
      },
    });
    expect(c.contract.events["fixture.invoice.paid"]?.envelope).toBe("payload");
    expect(findingLines(c).join("\n")).toContain("its payload is an envelope already");
    const served = (await c.served()) as { webhooks: Record<string, { post: Json }> };
    const post = served.webhooks["fixture.invoice.paid"]?.post as Json & {
      requestBody: { content: Record<string, { schema: Json }> };
    };
    // Served as the payload itself, no Standard Webhooks envelope around it.
    const schema = post.requestBody.content["application/json"]?.schema as Json;
    expect(Object.keys(schema.properties as Json)).toEqual(["type", "created_at", "data"]);
    expect(post["x-envelope"]).toBe("payload");
  });

  it("declares a page-size limit only where the document makes it unambiguous", async () => {
    const op = (parameter: Json) => ({
      get: { parameters: [parameter], responses: { "204": { description: "FIXTURE" } } },
    });
    const c = await imported("limits", {
      ...doc31({}),
      paths: {
        "/a": op({
          name: "limit",
          in: "query",
          schema: { type: "integer", minimum: 1, maximum: 50 },
        }),
        "/b": op({
          name: "page_size",
          in: "query",
          schema: { type: "integer", minimum: 1, maximum: 50 },
        }),
        "/c": op({ name: "limit", in: "query", schema: { type: "integer", maximum: 50 } }),
        "/d": op({
          name: "count",
          in: "query",
          schema: { type: "integer", minimum: 1, maximum: 9 },
        }),
      },
    });
    expect(c.contract.limits).toEqual({
      limit: {
        kind: "page-size",
        operations: ["getA"],
        parameter: "limit",
        minimum: 1,
        maximum: 50,
      },
      page_size: {
        kind: "page-size",
        operations: ["getB"],
        parameter: "page_size",
        minimum: 1,
        maximum: 50,
      },
    });
    expect((await c.app.request("https://fixture.test/a?limit=51")).status).toBe(422);
  });

  it("reads info, tags, servers and externalDocs as part 1 and info.version as part 9; says what it leaves out", async () => {
    const c = await imported("purpose", {
      openapi: "3.1.0",
      info: {
        title: "FIXTURE purpose",
        summary: "FIXTURE summary",
        description: "FIXTURE description",
        termsOfService: "https://fixture.test/terms",
        contact: { name: "FIXTURE", email: "fixture@fixture.test", url: "https://fixture.test" },
        license: { name: "MIT", identifier: "MIT" },
        version: "4.5.6",
        "x-logo": { url: "https://fixture.test/logo.png" },
      },
      servers: [
        {
          url: "https://{env}.fixture.test",
          variables: { env: { default: "api", enum: ["api", "sandbox"] } },
        },
      ],
      tags: [
        {
          name: "things",
          description: "FIXTURE things",
          externalDocs: { url: "https://fixture.test/things" },
        },
      ],
      externalDocs: { url: "https://fixture.test/docs" },
      paths: {},
      "x-vendor": true,
      unknownField: 1,
    });
    expect(c.contract.purpose).toMatchObject({
      title: "FIXTURE purpose",
      summary: "FIXTURE summary",
      license: { identifier: "MIT" },
    });
    expect(c.contract.versioning).toEqual({ current: "4.5.6" });
    const doc = await served(c);
    expect(doc.servers).toEqual([
      {
        url: "https://{env}.fixture.test",
        variables: { env: { default: "api", enum: ["api", "sandbox"] } },
      },
    ]);
    const lines = findingLines(c);
    expect(lines).toContain("lost #/info/x-logo: x-logo: an extension of info");
    expect(lines).toContain("lost #/x-vendor: x-vendor: an extension of the document");
  });
});

describe("the servers' path (OpenAPI 3.1 §4.8.5: a server's URL, then the path)", () => {
  const thing = {
    get: { operationId: "fixtureThings", responses: { "204": { description: "FIXTURE" } } },
  };

  it("is served in front of every path, and each server is written without it: the same URLs", async () => {
    const c = await imported(
      "server-base",
      doc31({
        servers: [
          { url: "https://api.fixture.test/v3/" },
          { url: "https://sandbox.fixture.test/v3" },
        ],
        paths: { "/fixture-things": thing },
      }),
    );
    expect((await c.app.request("https://fixture.test/v3/fixture-things")).status).toBe(501);
    expect((await c.app.request("https://fixture.test/fixture-things")).status).toBe(404);
    const doc = (await c.served()) as { servers: unknown; paths: Record<string, unknown> };
    expect(doc.servers).toEqual([
      { url: "https://api.fixture.test" },
      { url: "https://sandbox.fixture.test" },
    ]);
    // The platform's own paths stay at the origin, where the Worker serves them.
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith("/_service/"))).toEqual([
      "/v3/fixture-things",
    ]);
    expect(findingLines(c).join("\n")).toContain(
      "changed #/servers: the servers' path /v3 is written in front of every path",
    );
    // Every operation and server counts as carried: the URLs are the document's.
    const comparison = compareDocuments(c.source, "3.1", doc as Json);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
  });

  it("is not moved when the servers' paths differ or hold a variable, and the finding says so", async () => {
    for (const [name, servers, said] of [
      [
        "server-bases",
        [{ url: "https://a.fixture.test/v1" }, { url: "/v2" }],
        "the servers' paths differ (/v1, /v2)",
      ],
      [
        "server-variable",
        [{ url: "https://fixture.test/{base}", variables: { base: { default: "v1" } } }],
        "the servers' path /{base} is not a fixed path",
      ],
    ] as const) {
      const c = await imported(name, doc31({ servers, paths: { "/fixture-things": thing } }));
      expect((await c.app.request("https://fixture.test/fixture-things")).status).toBe(501);
      expect(findingLines(c).join("\n")).toContain(`changed #/servers: ${said}`);
    }
  });
});

describe("what an import leaves out, each with a finding at its pointer, never stopping the rest", () => {
  const ok = { "204": { description: "FIXTURE done." } };

  it("a path key with a query string: no path template (OpenAPI 3.1 §4.8.8), so neither it nor its operations", async () => {
    const c = await imported(
      "query-key",
      doc31({
        paths: {
          "/fixture-things?beta=true": {
            get: { operationId: "fixtureBetaThings", responses: ok },
            post: { operationId: "fixtureBetaCreate", responses: ok },
          },
          "/fixture-things": { get: { operationId: "fixtureThings", responses: ok } },
        },
      }),
    );
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureThings"]);
    expect(findingLines(c)).toContainEqual(
      expect.stringMatching(
        /^lost #\/paths\/~1fixture-things\?beta=true: left out: the key holds a query \(\?beta=true\), which is no part of a URL path, so it is no path template \(OpenAPI 3\.1 §4\.8\.8, Paths Object; RFC 3986 §3\.3\): the path is not served, nor its operations \(GET, POST\)$/,
      ),
    );
    expect(c.result.parts.get("endpoints")?.summary).toBe("1 operation on 1 path");
  });

  it("an operation the importer cannot convert (a cycle of $refs among parameters), with the cause", async () => {
    const c = await imported(
      "ref-cycle",
      doc31({
        paths: {
          "/fixture-loop": {
            get: {
              operationId: "fixtureLoop",
              parameters: [{ $ref: "#/components/parameters/FixtureA" }],
              responses: ok,
            },
          },
          "/fixture-fine": { get: { operationId: "fixtureFine", responses: ok } },
        },
        components: {
          parameters: {
            FixtureA: { $ref: "#/components/parameters/FixtureB" },
            FixtureB: { $ref: "#/components/parameters/FixtureA" },
          },
        },
      }),
    );
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureFine"]);
    expect(findingLines(c)).toContain(
      "lost #/paths/~1fixture-loop/get: left out: the importer could not convert it (#/paths/~1fixture-loop/get/parameters/0: a cycle of $refs)",
    );
    expect((await c.app.request("https://fixture.test/fixture-fine")).status).toBe(501);
  });

  it("a component the importer cannot convert (nested deeper than it follows), then each component and operation that uses it", async () => {
    let deep: Json = { type: "string" };
    for (let i = 0; i < 700; i++) deep = { type: "object", properties: { inner: deep } };
    const json = (name: string) => ({
      content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
    });
    const c = await imported(
      "too-deep",
      doc31({
        paths: {
          "/fixture-deep": {
            post: { operationId: "fixtureDeep", requestBody: json("FixtureNested"), responses: ok },
          },
          "/fixture-flat": {
            get: {
              operationId: "fixtureFlat",
              responses: { "200": { description: "FIXTURE", ...json("FixtureFlat") } },
            },
          },
        },
        components: {
          schemas: {
            FixtureDeep: deep,
            FixtureNested: {
              type: "object",
              properties: { deep: { $ref: "#/components/schemas/FixtureDeep" } },
            },
            FixtureFlat: { type: "string" },
          },
        },
      }),
    );
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureFlat"]);
    expect(Object.keys(c.contract.resources)).toEqual(["FixtureFlat"]);
    const gone =
      "left out: it uses #/components/schemas/FixtureDeep, which is left out (it nests deeper than the importer can follow (Maximum call stack size exceeded))";
    expect(findingLines(c)).toEqual(
      expect.arrayContaining([
        "lost #/components/schemas/FixtureDeep: left out: it nests deeper than the importer can follow (Maximum call stack size exceeded)",
        `lost #/components/schemas/FixtureNested: ${gone}`,
        `lost #/paths/~1fixture-deep/post: ${gone}`,
      ]),
    );
  });
});

describe("documents", () => {
  it("follows $refs to files beside the document (YAML), bundling them in", async () => {
    const c = await imported(
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
    const c = await imported("swagger-2", {
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
    const c = await imported("swagger-2-loss", {
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

/**
 * A FIXTURE document whose component `Problem` takes the platform's own schema's name (the
 * import serves it as `SpecProblem`) and is referred to from a dozen places: bodies,
 * responses (problem ones too), nested members, items, maps and another component's allOf.
 */
const problemEverywhere = (): Json => {
  const problem = { $ref: "#/components/schemas/Problem" };
  const problemJson = (description: string) => ({
    description,
    content: { "application/problem+json": { schema: problem } },
  });
  return doc31({
    paths: {
      "/fixture-reports": {
        post: {
          operationId: "fixtureReport",
          requestBody: { required: true, content: { "application/json": { schema: problem } } },
          responses: {
            "200": {
              description: "FIXTURE reports.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { first: problem, all: { type: "array", items: problem } },
                  },
                },
              },
            },
            "404": problemJson("Not there."),
            "409": { $ref: "#/components/responses/FixtureConflict" },
          },
        },
        get: {
          operationId: "fixtureReports",
          responses: {
            "200": {
              description: "FIXTURE reports.",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/FixtureHolder" } },
              },
            },
            "404": problemJson("Not there."),
          },
        },
      },
    },
    components: {
      responses: { FixtureConflict: problemJson("Already there.") },
      schemas: {
        Problem: {
          type: "object",
          required: ["code"],
          properties: {
            code: { type: "string", minLength: 1 },
            causes: { type: "array", items: problem },
          },
        },
        FixtureHolder: {
          type: "object",
          properties: {
            one: problem,
            many: { type: "array", items: problem },
            byName: { type: "object", additionalProperties: problem },
            nested: { type: "object", properties: { deeper: problem } },
          },
        },
        FixtureDetailed: {
          allOf: [problem, { type: "object", properties: { detail: { type: "string" } } }],
        },
      },
    },
  });
};

describe("the round-trip report", () => {
  it("counts a component renamed for the platform's Problem once, as changed; every reference to it is kept, and its keywords are compared under the new name", async () => {
    const document = problemEverywhere();
    const c = await imported("renamed", document);
    const doc = await served(c);
    const renamedRefs = JSON.stringify(doc).split('"#/components/schemas/SpecProblem"').length - 1;
    expect(renamedRefs).toBeGreaterThanOrEqual(10);
    expect(doc.components.schemas.SpecProblem?.["x-renamed-from"]).toBe("Problem");

    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed !== undefined)).toEqual([
      {
        category: "schemas",
        pointer: "#/components/schemas/Problem",
        kept: true,
        changed: "served as SpecProblem: the platform's own schema is called Problem",
      },
    ]);
    expect(comparison.fidelity).toBe(1);
    // The component's keywords are items of their own, compared with SpecProblem's.
    expect(comparison.items.map((i) => i.pointer)).toContain(
      "#/components/schemas/Problem/properties/code/minLength",
    );

    // A keyword SpecProblem lost is one loss, at the source component's keyword …
    const lostKeyword = structuredClone(doc);
    delete (lostKeyword.components.schemas.SpecProblem as { properties: { code: Json } }).properties
      .code.minLength;
    expect(
      compareDocuments(document, "3.1", lostKeyword)
        .items.filter((i) => !i.kept)
        .map((i) => i.pointer),
    ).toEqual(["#/components/schemas/Problem/properties/code/minLength"]);
    // … and a reference that lands on the platform's own Problem is one loss, where it is.
    const platforms = structuredClone(doc);
    (platforms.components.schemas.FixtureHolder as { properties: { one: Json } }).properties.one = {
      $ref: "#/components/schemas/Problem",
    };
    expect(
      compareDocuments(document, "3.1", platforms)
        .items.filter((i) => !i.kept)
        .map((i) => `${i.pointer}: ${i.note}`),
    ).toEqual([
      '#/components/schemas/FixtureHolder/properties/one/$ref: refers to "#/components/schemas/Problem" instead of #/components/schemas/SpecProblem (#/components/schemas/Problem, renamed)',
    ]);
  });
  it("maps a discriminator's mapping through the rename: it names SpecProblem, by reference and by bare name", async () => {
    const kind = (value: string) => ({
      type: "object",
      required: ["kind"],
      properties: { kind: { const: value } },
    });
    const document = bodyCase(
      { $ref: "#/components/schemas/FixturePick" },
      {
        schemas: {
          Problem: kind("problem"),
          FixtureOther: kind("other"),
          FixturePick: {
            oneOf: [
              { $ref: "#/components/schemas/Problem" },
              { $ref: "#/components/schemas/FixtureOther" },
            ],
            discriminator: {
              propertyName: "kind",
              mapping: { problem: "#/components/schemas/Problem", again: "Problem" },
            },
          },
        },
      },
    );
    const c = await imported("renamed-mapping", document);
    const doc = await served(c);
    // The platform's own Problem is not what the mapping means.
    expect(doc.components.schemas.FixturePick?.discriminator).toEqual({
      propertyName: "kind",
      mapping: { problem: "#/components/schemas/SpecProblem", again: "SpecProblem" },
    });
    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.pointer)).toEqual([
      "#/components/schemas/Problem",
    ]);
  });
  it("counts an operationId or event name the import gives otherwise once, as changed: an id used twice, a webhook's id, a second callback of a name", async () => {
    const ok = { "204": { description: "FIXTURE" } };
    const withCallback = (summary: string) => ({
      operationId: "fixtureSame",
      callbacks: {
        fixtureDone: { "{$request.body#/url}": { post: { summary, responses: ok } } },
      },
      responses: ok,
    });
    const document = doc31({
      paths: {
        "/fixture-a": { post: withCallback("FIXTURE a is done.") },
        "/fixture-b": { post: withCallback("FIXTURE b is done.") },
      },
      webhooks: {
        fixtureAdded: { post: { operationId: "onFixtureAdded", summary: "Added.", responses: ok } },
      },
    });
    const c = await imported("renamed-ids", document);
    const comparison = compareDocuments(document, "3.1", await c.served());
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(
      comparison.items.filter((i) => i.changed).map((i) => `${i.pointer}: ${i.changed}`),
    ).toEqual([
      "#/paths/~1fixture-b/post/operationId: served as fixtureSame2: another operation is fixtureSame",
      "#/webhooks/fixtureAdded/post/operationId: served as fixtureAdded: an event's operationId is its name",
      "#/paths/~1fixture-b/post/callbacks/fixtureDone/{$request.body#~1url}/post: sent as the event fixtureDone2: another event is fixtureDone",
    ]);
    expect(comparison.fidelity).toBe(1);
  });
  it("counts a security scheme the platform cannot verify once, at the scheme, not again at each operation it guarded", async () => {
    const op = (operationId: string) => ({
      operationId,
      responses: { "204": { description: "FIXTURE" } },
    });
    const document = doc31({
      security: [{ fixtureTls: [] }, { fixtureKey: [] }],
      paths: {
        "/fixture-a": { get: op("fixtureA"), post: op("fixtureB") },
        "/fixture-b": { get: op("fixtureC"), put: op("fixtureD"), delete: op("fixtureE") },
      },
      components: {
        securitySchemes: {
          fixtureTls: { type: "mutualTLS" },
          fixtureKey: { type: "apiKey", in: "header", name: "X-Fixture-Key" },
        },
      },
    });
    const c = await imported("unverifiable", document);
    const comparison = compareDocuments(document, "3.1", await c.served());
    expect(comparison.items.filter((i) => !i.kept).map((i) => `${i.pointer}: ${i.note}`)).toEqual([
      "#/components/securitySchemes/fixtureTls: security scheme fixtureTls is missing (and so is every way in that needs it)",
    ]);
    // Five operations' ways in, the two schemes, and the key's type, in and name.
    expect(comparison.byCategory.get("security")).toEqual({ kept: 9, total: 10 });
  });
  it("matches 3.0's nullable reference (allOf of one $ref beside nullable) with the served $ref, renamed or not (3.0, YAML)", async () => {
    const yaml = `openapi: 3.0.3
info: { title: FIXTURE nullable references, version: 1.0.0 }
paths:
  /fixture-notes:
    post:
      operationId: fixtureNote
      requestBody:
        content:
          application/json:
            schema: { allOf: [{ $ref: "#/components/schemas/Problem" }], nullable: true }
      responses:
        "204": { description: FIXTURE }
components:
  schemas:
    Problem:
      type: object
      properties: { code: { type: string } }
    FixtureNote:
      type: object
      properties: { text: { type: string } }
    FixtureHolder:
      type: object
      properties:
        problem: { allOf: [{ $ref: "#/components/schemas/Problem" }], nullable: true }
        note: { allOf: [{ $ref: "#/components/schemas/FixtureNote" }], nullable: true }
`;
    const c = await imported("nullable-refs", { yaml });
    const comparison = compareDocuments(c.source, "3.0", await c.served());
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.pointer)).toEqual([
      "#/components/schemas/Problem",
    ]);
  });
  it("keeps a form's component reference the import writes out in place (form fields arrive as text), in every form that uses it", async () => {
    const form = (type: string) => ({
      required: true,
      content: { [type]: { schema: { $ref: "#/components/schemas/FixtureForm" } } },
    });
    const op = (operationId: string, type: string) => ({
      operationId,
      requestBody: form(type),
      responses: { "204": { description: "FIXTURE" } },
    });
    const document = doc31({
      paths: {
        "/fixture-a": { post: op("fixtureA", "application/x-www-form-urlencoded") },
        "/fixture-b": { post: op("fixtureB", "application/x-www-form-urlencoded") },
        "/fixture-c": { post: op("fixtureC", "multipart/form-data") },
      },
      components: {
        schemas: {
          FixtureForm: {
            type: "object",
            required: ["count"],
            properties: { count: { type: "integer", minimum: 1 }, urgent: { type: "boolean" } },
          },
        },
      },
    });
    const c = await imported("form-written-out", document);
    const doc = await served(c);
    const body = (path: string) => doc.paths[path]?.post?.requestBody as Json;
    expect(JSON.stringify(body("/fixture-a"))).not.toContain("$ref");
    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    // Written out with a keyword less, it is one loss in that form, which says what differs.
    const less = structuredClone(doc);
    const lessBody = less.paths["/fixture-b"]?.post?.requestBody as
      | { content: Record<string, { schema: Json }> }
      | undefined;
    const lessSchema = lessBody?.content["application/x-www-form-urlencoded"]?.schema ?? {};
    delete lessSchema.required;
    expect(
      compareDocuments(document, "3.1", less)
        .items.filter((i) => !i.kept)
        .map((i) => `${i.pointer}: ${i.note}`),
    ).toEqual([
      '#/paths/~1fixture-b/post/requestBody/content/application~1x-www-form-urlencoded/schema: /$ref #/components/schemas/FixtureForm is written out, and differs: /required required ["count"] is []',
    ]);
  });
  it("renames Problem past a component the document itself names SpecProblem", async () => {
    const document = bodyCase(
      { $ref: "#/components/schemas/FixtureHolder" },
      {
        schemas: {
          Problem: { type: "object", properties: { code: { type: "string" } } },
          SpecProblem: { type: "string", minLength: 2 },
          FixtureHolder: {
            type: "object",
            properties: {
              problem: { $ref: "#/components/schemas/Problem" },
              spec: { $ref: "#/components/schemas/SpecProblem" },
            },
          },
        },
      },
    );
    const c = await imported("renamed-past", document);
    expect(Object.keys(c.contract.resources).sort()).toEqual([
      "FixtureHolder",
      "SpecProblem",
      "SpecProblem2",
    ]);
    const doc = await served(c);
    expect(doc.components.schemas.SpecProblem2?.["x-renamed-from"]).toBe("Problem");
    const comparison = compareDocuments(document, "3.1", doc);
    expect(comparison.items.filter((i) => !i.kept)).toEqual([]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.changed)).toEqual([
      "served as SpecProblem2: the platform's own schema is called Problem",
    ]);
  });
});

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
    c = await imported("xml", { yaml: XML_DOCUMENT });
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
    expect(lines).toContain(
      "changed #/paths/~1fixture-shelves/post/responses/400/content/application~1problem+xml: application/problem+xml: served in RFC 9457 Appendix B's format",
    );
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
    const again = await imported("xml-again", doc1);
    expect(await again.served()).toEqual(doc1);
  });
});

describe("the rich FIXTURE document", () => {
  const RICH = "test/fixtures/openapi/rich-3.1.yaml";
  let rich: ImportedCase;

  it("is imported whole: every operation; its only losses in the round-trip report are each webhook body and its examples, which deliveries wrap in the Standard Webhooks envelope, and its one change the name Problem, which the platform's own schema has", async () => {
    const source = await readOpenApi(RICH);
    rich = await imported("rich", { yaml: readFileSync(RICH, "utf8") });
    expect(Object.keys(rich.contract.operations)).toHaveLength(10);
    const comparison = compareDocuments(source.document, source.major, await rich.served());
    expect(comparison.items.filter((i) => !i.kept).map((i) => i.pointer)).toEqual([
      "#/webhooks/loanDue/post/requestBody/content/application~1json/schema",
      "#/webhooks/loanDue/post/requestBody/content/application~1json/examples",
      "#/paths/~1books/post/callbacks/catalogued/{$request.body#~1callbackUrl}/post/requestBody/content/application~1json/schema",
    ]);
    expect(comparison.items.filter((i) => i.changed).map((i) => i.pointer)).toEqual([
      "#/components/schemas/Problem",
    ]);
    const wrapped = rich.findings.filter((f) => f.message.includes("Standard Webhooks envelope"));
    expect(wrapped).toHaveLength(2);
    expect(comparison.fidelity).toBeGreaterThanOrEqual(0.95);
  });

  it("round-trips: the document it serves, imported again, is served the same", async () => {
    const doc1 = await rich.served();
    const again = await imported("rich-again", doc1);
    expect(await again.served()).toEqual(doc1);
  });
});

describe("a contract, served, imported and served again", () => {
  it("is the same document (the FIXTURE states contract: machines on resources, transitions on operations)", async () => {
    const { servedDocument } = await import("../support/vocabulary-document");
    const { FIXTURE_STATES_CONTRACT } = await import("../fixtures/states");
    const doc1 = await servedDocument(FIXTURE_STATES_CONTRACT);
    const c = await imported("states-round-trip", doc1);
    expect(c.contract.states).toEqual(FIXTURE_STATES_CONTRACT.states);
    expect(c.contract.operations.fixtureShipOrder?.transition).toEqual({
      machine: "fixtureOrderLifecycle",
      trigger: "ship",
    });
    expect(await c.served()).toEqual(doc1);
  });

  it("is the same document (the FIXTURE events contract: emits, envelopes, signature headers)", async () => {
    const { servedDocument } = await import("../support/vocabulary-document");
    const { FIXTURE_EVENTS_CONTRACT } = await import("../fixtures/events");
    const doc1 = await servedDocument(FIXTURE_EVENTS_CONTRACT);
    const c = await imported("events-round-trip", doc1);
    expect(c.contract.operations.fixtureShipParcel?.emits).toEqual([
      "fixtureParcelShipped",
      "fixtureParcelWeighed",
    ]);
    expect(await c.served()).toEqual(doc1);
  });

  it("is the same document (an operation deprecated on its own, with dates: x-deprecation and its headers)", async () => {
    const { servedDocument } = await import("../support/vocabulary-document");
    const { defineContract } = await import("../../src/contract-language/define-contract");
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
    const c = await imported("retiring-round-trip", doc1);
    expect(c.contract.operations.fixtureRetiring?.deprecated).toEqual(retiring);
    expect(await c.served()).toEqual(doc1);
  });

  it("is the same document (the FIXTURE vocabulary contract)", async () => {
    const { vocabularyDocument } = await import("../support/vocabulary-document");
    const doc1 = await vocabularyDocument();
    const c = await imported("vocabulary", doc1);
    expect(await c.served()).toEqual(doc1);
  });
});

describe("the generated code", () => {
  it("of every case compiles under the project's strict tsconfig, and passes Biome once formatted", () => {
    writeFileSync(
      join(CASES, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.json",
        compilerOptions: { noEmit: true },
        include: [
          ...cases.map((c) => `${c.dir}/src/contract`),
          "../../../src/worker-configuration.d.ts",
        ],
        exclude: [],
      }),
    );
    const tsc = spawnSync("npx", ["tsc", "-p", join(CASES, "tsconfig.json")], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).not.toMatch(/error TS/);
    const files = cases.flatMap((c) =>
      readdirSync(join(c.dir, "src/contract")).map((f) => join(c.dir, "src/contract", f)),
    );
    // As the importer does: Biome's layout of long generated lines settles in a second pass.
    for (let pass = 0; pass < 2; pass++)
      spawnSync("npx", ["biome", "check", "--write", "--vcs-use-ignore-file=false", ...files]);
    const biome = spawnSync(
      "npx",
      ["biome", "ci", "--colors=off", "--vcs-use-ignore-file=false", ...files],
      { encoding: "utf8" },
    );
    expect(biome.status, biome.stdout + biome.stderr).toBe(0);
    // Warnings too: a document's `${` once made noTemplateCurlyInString warn.
    expect(biome.stdout + biome.stderr).not.toMatch(/Found \d+ warning/);
  }, 120_000);
});
