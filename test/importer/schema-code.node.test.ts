/**
 * JSON Schema to zod/mini (src/importer/schema-code.ts), through the importer: each FIXTURE
 * document is imported and served by the real app, so what is checked is what a request is
 * held to and what the served document says, not the text of the generated code.
 * Every document here is a FIXTURE.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { compareDocuments } from "../../src/importer/compare/index";
import {
  accepts,
  bodyCase,
  doc31,
  findingLines,
  getCase,
  importCase,
  info,
  type Json,
  served,
} from "../support/import-case";
import { checkConformance } from "../tools/conformance/checker";

describe("JSON Schema to zod/mini", () => {
  it("writes out in place what a schema extension refers to and the contract does not carry, so the served document resolves (Spotify's x-spotify-policy-list)", async () => {
    const c = await importCase(
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
            // An expandable member, as payment APIs write them: the extension names component
            // schemas that refer to each other, which stay references.
            owner: { $ref: "#/components/schemas/FixtureOwner" },
          },
        },
        {
          "x-fixture-policy": { FixturePreview: { name: "FIXTURE preview", limit: 30 } },
          schemas: {
            FixtureOwner: {
              type: "object",
              properties: {
                account: {
                  anyOf: [{ type: "string" }, { $ref: "#/components/schemas/FixtureAccount" }],
                  "x-fixture-expansion": {
                    oneOf: [{ $ref: "#/components/schemas/FixtureAccount" }],
                  },
                },
              },
            },
            FixtureAccount: {
              type: "object",
              properties: {
                owner: {
                  anyOf: [{ type: "string" }, { $ref: "#/components/schemas/FixtureOwner" }],
                  "x-fixture-expansion": { oneOf: [{ $ref: "#/components/schemas/FixtureOwner" }] },
                },
              },
            },
          },
        },
      ),
    );
    const document = await served(c);
    const text = JSON.stringify(document);
    expect(text).not.toContain("#/components/x-fixture-policy");
    expect(text).toContain('"x-fixture-policies":[{"name":"FIXTURE preview","limit":30}]');
    expect(text).toContain(
      '"x-fixture-expansion":{"oneOf":[{"$ref":"#/components/schemas/FixtureAccount"}]}',
    );
    const result = await new Validator().validate(document as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(findingLines(c).join("\n")).toContain(
      "x-fixture-policies: its references (#/components/x-fixture-policy/FixturePreview) written out in place",
    );
  });

  it("reads 3.0's nullable and boolean exclusive bounds as 3.1 says them (3.0, JSON)", async () => {
    const c = await importCase(
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
    const c = await importCase("types-31", {
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
    const c = await importCase("formats", bodyCase({ type: "object", properties }));
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
    const c = await importCase("formats-standard", bodyCase({ type: "object", properties }));
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
    const c = await importCase("formats-examples", document);
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
    const c = await importCase(
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
    const c = await importCase(
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
    const c = await importCase("bounds", {
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
    const c = await importCase(
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
    const c = await importCase(
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

  it("keeps one schema for both directions: readOnly members are not required of a request", async () => {
    const c = await importCase(
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
    const c = await importCase(
      "annotations",
      bodyCase({ $ref: "#/components/schemas/Thing" }, { schemas: { Thing: schema } }),
    );
    expect((await served(c)).components.schemas.Thing).toMatchObject(schema);
  });

  it("reads recursive schemas, of one component and of two that refer to each other", async () => {
    const c = await importCase(
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

describe("what real documents hold that code generation must not trip on", () => {
  it("text that looks like code is written as data: `${`, `*/`, a `then` key, quotes and backslashes", async () => {
    // Built from pieces, as this file must pass Biome too: a `${` and a `then` key are the point.
    const tricky = `FIXTURE $${"{x}"} */ \`tick\` "quoted" \\ end`;
    // biome-ignore lint/suspicious/noThenProperty: a FIXTURE document's member, never awaited
    const then = (value: unknown) => Object.fromEntries([["then", value]]);
    const c = await importCase("text", {
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

  it("patterns stay the document's text (never a regex literal a linter refuses): control characters, `\\x00`, `/`, `\\p{L}`, and the served pattern is the source", async () => {
    // Built from pieces, as this file must pass Biome too.
    const controls = `^[^${"\\x00"}-${"\\x1F"}${String.fromCharCode(1)}]*$`;
    const c = await importCase("patterns", {
      ...bodyCase({
        type: "object",
        properties: {
          plain: { type: "string", pattern: controls },
          path: { type: "string", pattern: "^a/b$" },
          letters: { type: "string", pattern: "^\\p{L}+$" },
        },
      }),
    });
    expect(c.code.resources ?? c.code.endpoints).not.toMatch(/z\.regex\(\//);
    expect(await accepts(c, { plain: "plain text", path: "a/b", letters: "Ωmega" })).toBe(true);
    expect(await accepts(c, { plain: `a${String.fromCharCode(0)}` })).toBe(false);
    expect(await accepts(c, { path: "a\\/b" })).toBe(false);
    expect(await accepts(c, { letters: "1" })).toBe(false);
    const doc = await served(c);
    const schema = JSON.stringify(doc.paths["/fixture"]?.post?.requestBody);
    expect(schema).toContain(JSON.stringify(controls).slice(1, -1));
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
    const c = await importCase("into", document);
    expect(await accepts(c, { name: "ab", local: 1, lead: {} })).toBe(true);
    expect(await accepts(c, { name: "a" })).toBe(false);
    expect(await accepts(c, { never: 1 })).toBe(false);
    const comparison = compareDocuments(document, "3.1", await c.served());
    const lost = comparison.items.filter((i) => !i.kept).map((i) => i.pointer);
    expect(lost).toEqual(["#/components/schemas/FixtureUser/$defs"]);
  });
});
