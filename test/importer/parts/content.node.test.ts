/**
 * Part 4's bodies by media type (src/importer/parts/content.ts), imported from FIXTURE
 * documents and served by the real app: each media type the platform serves, and the content
 * keys real documents hold that are no media type, or the same one twice.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import {
  accepts,
  bodyCase,
  doc30,
  doc31,
  findingLines,
  importCase,
  type Json,
  served,
} from "../../support/import-case";

describe("bodies", () => {
  it("reads a body in each media type the platform serves, and says what it cannot apply", async () => {
    const c = await importCase("bodies", {
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
});

describe("what real documents hold that code generation must not trip on", () => {
  it("leaves out a content key that is no media type (OSF's `data`, Plaid's `examples`), never the operation (RFC 9110 §8.3.1)", async () => {
    const schema = { type: "object", properties: { name: { type: "string" } } };
    const c = await importCase("not-a-media-type", {
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
    const c = await importCase("star-media-type", {
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
    const c = await importCase("same-essence", doc);
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
    const c = await importCase("text-json", doc);
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
});

describe("an answer's examples", () => {
  it("leave out a member the schema marks writeOnly, with a finding naming the example (OpenAPI 3.1 §4.8.24.1)", async () => {
    const card = {
      type: "object",
      properties: {
        last4: { type: "string" },
        cvc: { type: "string", writeOnly: true },
        holder: {
          type: "object",
          properties: { name: { type: "string" }, pin: { type: "string", writeOnly: true } },
        },
      },
    };
    const c = await importCase("answer-example-write-only", {
      ...doc31({}),
      paths: {
        "/fixture-cards": {
          get: {
            responses: {
              "200": {
                description: "FIXTURE card",
                content: {
                  "application/json": {
                    schema: { $ref: "#/components/schemas/FixtureCard" },
                    examples: {
                      visa: {
                        value: {
                          last4: "4242",
                          cvc: "FIXTURE-123",
                          holder: { name: "F", pin: "0000" },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: { schemas: { FixtureCard: card } },
    });
    expect(findingLines(c)).toContainEqual(
      "changed #/paths/~1fixture-cards/get/responses/200/content/application~1json/examples/visa: the example holds /cvc, /holder/pin, which the schema marks writeOnly (OpenAPI 3.1 §4.8.24.1): left out of the answer's example, and never answered",
    );
    const doc = await served(c);
    const answer = (doc.paths["/fixture-cards"]?.get?.responses["200"] ?? {}) as Json;
    const media = (answer.content ?? {}) as Json;
    expect(JSON.stringify(media)).not.toContain("FIXTURE-123");
    expect((media["application/json"] as Json).examples).toEqual({
      visa: { value: { last4: "4242", holder: { name: "F" } } },
    });
  });
});
