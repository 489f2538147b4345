/**
 * The OpenAPI document says everything the service does: what the FIXTURE vocabulary
 * contract declares is carried (tags, servers, contact, license, externalDocs, examples,
 * body descriptions, response headers, deprecation, OAuth 2 and OpenID Connect, part 7's
 * types), and every answer of the platform is typed, so client generators see types.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import { RESERVED_SCHEMA_NAMES } from "../../../src/contract-language/reserved";
import { readOnly } from "../../../src/contract-language/schema";
import { XML_CODEC } from "../../../src/engine/xml/codec";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../../fixtures/operations";
import {
  FIXTURE_VOCABULARY_CONTRACT,
  FIXTURE_VOCABULARY_HANDLERS,
} from "../../fixtures/vocabulary";

type Json = Record<string, unknown>;
type Doc = {
  info: Json;
  servers?: Json[];
  tags: Json[];
  externalDocs?: Json;
  paths: Record<string, Record<string, Json & { responses: Record<string, Json> }>>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    securitySchemes?: Record<string, Json>;
  };
};

const app = createApp(FIXTURE_VOCABULARY_CONTRACT, {
  engine: BUILD_ENGINE,
  xml: XML_CODEC,
  handlers: FIXTURE_VOCABULARY_HANDLERS,
  jsonSchema: z.toJSONSchema,
});

async function document(): Promise<Doc> {
  return (await (await app.request("https://fixture.test/_service/openapi.json")).json()) as Doc;
}

/** Every media type object in the document's paths, with where it is. */
function mediaObjects(doc: Doc): [string, Json][] {
  const found: [string, Json][] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const bodies = [op.requestBody as Json | undefined, ...Object.values(op.responses)];
      for (const body of bodies)
        for (const [type, media] of Object.entries((body?.content as Record<string, Json>) ?? {}))
          found.push([`${method} ${path} ${type}`, media]);
    }
  return found;
}

describe("the OpenAPI document of the FIXTURE vocabulary contract", () => {
  it("is valid OpenAPI 3.1", async () => {
    const result = await new Validator().validate((await document()) as unknown as Json);
    expect(result.errors ?? []).toEqual([]);
  });

  it("carries part 1: info, servers, tags with descriptions, externalDocs", async () => {
    const doc = await document();
    expect(doc.info).toMatchObject({
      title: "Fixture vocabulary",
      summary: "A FIXTURE service that uses every kind of declaration.",
      termsOfService: "https://fixture.test/terms",
      contact: { name: "Fixture team", email: "fixture@fixture.test" },
      license: { name: "MIT", identifier: "MIT" },
    });
    expect(doc.servers).toEqual([
      { url: "https://api.fixture.test/v1", description: "Fixture production" },
    ]);
    expect(doc.tags.slice(0, 2)).toEqual([
      { name: "fixturePets", description: "Fixture pets" },
      { name: "fixtureBodies", description: "Bodies of every media type" },
    ]);
    expect(doc.externalDocs).toEqual({
      url: "https://fixture.test/docs",
      description: "Fixture docs",
    });
  });

  it("carries each operation's tags, deprecation, body description, examples and response headers", async () => {
    const doc = await document();
    const create = doc.paths["/fixture-pets"]?.post as Json & { responses: Record<string, Json> };
    expect(create.tags).toEqual(["fixturePets"]);
    expect(create.requestBody).toMatchObject({
      description: "The pet to create; its id is the server's.",
      required: true,
      content: {
        "application/json": { examples: { rex: { summary: "A dog", value: { name: "Rex" } } } },
      },
    });
    expect(create.responses["201"]?.headers).toMatchObject({
      location: {
        description: "Where the new pet is.",
        required: true,
        schema: { type: "string" },
      },
    });
    expect(doc.paths["/fixture-pets/{petId}"]?.delete?.deprecated).toBe(true);
    expect(doc.paths["/fixture-bodies/binary"]?.put?.requestBody).toMatchObject({
      required: false,
    });
  });

  it("documents an XML media type as OpenAPI does: the object schema of its JSON alternative, with the xml objects (OpenAPI 3.1 §4.8.26)", async () => {
    const doc = await document();
    const pet = doc.paths["/fixture-pets/{petId}"]?.get?.responses["200"]?.content as Json;
    expect(pet["application/xml"]).toEqual(pet["application/json"]);
    const schemas = doc.components.schemas as Record<string, Json & { properties: Json }>;
    expect(schemas.FixturePet?.xml).toEqual({ name: "pet" });
    expect(schemas.FixturePet?.properties.id).toMatchObject({ xml: { attribute: true } });
    const shelf = schemas.FixtureShelf;
    expect(shelf?.xml).toEqual({ name: "shelf", namespace: "urn:fixture:shelves" });
    expect(shelf?.properties).toMatchObject({
      open: { xml: { attribute: true, name: "is-open" } },
      label: { xml: { name: "title", namespace: "urn:fixture:labels", prefix: "fl" } },
      books: { xml: { wrapped: true }, items: { xml: { name: "book" } } },
      tags: { items: { xml: { name: "tag" } } },
    });
    // No XML body is documented as a plain string with object examples any more.
    for (const [where, media] of mediaObjects(doc))
      if (/xml$/.test(where)) expect(media.schema, where).not.toEqual({ type: "string" });
  });

  it("documents application/problem+xml (RFC 9457 Appendix B) on every problem answer of every operation, and nowhere in /_service", async () => {
    const doc = await document();
    const ROOT = { name: "problem", namespace: "urn:ietf:rfc:7807" };
    const resolved = (response: Json) =>
      typeof response.$ref === "string"
        ? (doc.components.responses[response.$ref.split("/").pop() as string] as Json)
        : response;
    let documented = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item))
        for (const [status, response] of Object.entries(op.responses)) {
          const content = (resolved(response).content ?? {}) as Record<string, Json>;
          const where = `${method} ${path} ${status}`;
          if (path.startsWith("/_service") || method === "options") {
            expect(content["application/problem+xml"], where).toBeUndefined();
            continue;
          }
          if (!content["application/problem+json"]) continue;
          expect(content["application/problem+xml"]?.schema, where).toMatchObject({ xml: ROOT });
          documented += 1;
        }
    expect(documented).toBeGreaterThan(50);
    // Appendix B's arrays: the member's element wraps an element i per item.
    const failed = doc.components.schemas.ValidationFailedProblem as { allOf: Json[] };
    expect(JSON.stringify(failed.allOf[1])).toContain('"xml":{"name":"i"}},"xml":{"wrapped":true}');
  });

  it("documents no problem+xml for a contract that declares no XML: it would never be served", async () => {
    const operations = createApp(FIXTURE_OPERATIONS_CONTRACT, {
      engine: BUILD_ENGINE,
      handlers: FIXTURE_HANDLERS,
      jsonSchema: z.toJSONSchema,
    });
    const text = await (
      await operations.request("https://fixture.test/_service/openapi.json")
    ).text();
    expect(text).not.toContain("problem+xml");
    expect(text).not.toContain('"xml"');
  });

  it("carries part 5: OAuth 2 flows, OpenID Connect, JWT bearer, and scopes in each requirement", async () => {
    const doc = await document();
    expect(doc.components.securitySchemes).toEqual({
      fixtureOAuth: {
        type: "oauth2",
        flows: {
          clientCredentials: {
            tokenUrl: "https://fixture-idp.test/token",
            scopes: { "pets:read": "Read pets", "pets:write": "Change pets" },
          },
        },
      },
      fixtureOidc: {
        type: "openIdConnect",
        openIdConnectUrl: "https://fixture-idp.test/.well-known/openid-configuration",
      },
      fixtureJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      fixtureRotated: { type: "apiKey", in: "header", name: "X-Fixture-Rotated-Key" },
    });
    expect(doc.paths["/fixture-pets"]?.post?.security).toEqual([
      { fixtureOAuth: ["pets:write"] },
      { fixtureRotated: [] },
    ]);
    // Deployment names (vars, secrets) never appear.
    expect(JSON.stringify(doc)).not.toMatch(/FIXTURE_(JWKS|JWT|ROTATED)/);
  });

  it("carries part 7: each error type as a response with its members, and presented failures as that type", async () => {
    const doc = await document();
    expect(Object.keys(doc.components.responses)).toEqual([
      "FixtureInvalidInput",
      "FixtureNotFound",
      "FixturePetTaken",
    ]);
    expect(JSON.stringify(doc.components.responses.FixturePetTaken)).toContain('"takenBy"');
    expect(doc.paths["/fixture-pets"]?.post?.responses["409"]).toEqual({
      $ref: "#/components/responses/FixturePetTaken",
    });
    // validation-failed (422) is presented as the spec's 400: no 422 is documented.
    const create = doc.paths["/fixture-pets"]?.post?.responses ?? {};
    expect(create["422"]).toBeUndefined();
    expect(JSON.stringify(create["400"])).toContain("FixtureInvalidInput");
  });

  it("documents an error type's own schema beside the platform's problem (allOf)", async () => {
    const doc = await document();
    const content = doc.components.responses.FixtureInvalidInput?.content as Json;
    const schema = content["application/problem+json"] as { schema: { allOf: Json[] } };
    expect(schema.schema.allOf.slice(0, 2)).toEqual([
      { $ref: "#/components/schemas/Problem" },
      { $ref: "#/components/schemas/FixtureProblemBody" },
    ]);
  });

  it("carries responses by range and default (OpenAPI 3.1 §4.8.16.2) beside the platform's", async () => {
    const responses = (await document()).paths["/fixture-statuses"]?.get?.responses ?? {};
    expect(responses["4XX"]?.description).toBe("Any client error");
    expect(Object.keys((responses.default?.content as Json) ?? {})).toEqual(["text/plain"]);
    expect(responses["200"]?.description).toBe("The exact status");
  });

  it("carries part 6: each event as a webhook with its summary, description, tags, examples and expected answers", async () => {
    const doc = (await document()) as Doc & { webhooks: Record<string, { post: Json }> };
    const post = doc.webhooks.fixturePetAdopted?.post as Json & {
      requestBody: { content: Record<string, Json> };
    };
    expect(post).toMatchObject({
      operationId: "fixturePetAdopted",
      summary: "FIXTURE: a pet was adopted",
      description: "FIXTURE: sent once a pet has a new home.",
      tags: ["fixturePets"],
      // No part 5 scheme applies to a call the service makes (OpenAPI 3.1 §4.8.10.2);
      // Redocly's security-defined rule wants it said.
      security: [],
      responses: {
        200: { description: "FIXTURE: received" },
        "4XX": { description: "FIXTURE: refused; not sent again" },
      },
    });
    // Each delivery's body is the Standard Webhooks envelope, the payload its data.
    expect(post.requestBody.content["application/json"]).toEqual({
      schema: {
        type: "object",
        description: "The Standard Webhooks envelope: the event's payload is its data.",
        "x-platform": "standard-webhooks-envelope",
        properties: {
          type: { const: "fixturePetAdopted" },
          timestamp: { type: "string", format: "date-time" },
          data: { $ref: "#/components/schemas/FixturePet" },
        },
        required: ["type", "timestamp", "data"],
      },
      examples: {
        rex: {
          summary: "Rex",
          value: {
            type: "fixturePetAdopted",
            timestamp: "2026-01-01T00:00:00.000Z",
            data: { id: "p1", name: "Rex" },
          },
        },
      },
    });
    // The three Standard Webhooks headers, documented as the receiver gets them.
    expect((post.parameters as Json[]).map((p) => [p.name, p.in, p.required])).toEqual([
      ["webhook-id", "header", true],
      ["webhook-timestamp", "header", true],
      ["webhook-signature", "header", true],
    ]);
  });

  it("types every answer, the platform's included: no media type without a schema", async () => {
    const doc = await document();
    const untyped = mediaObjects(doc).filter(([, media]) => {
      const schema = media.schema as Json | undefined;
      return !schema || Object.keys(schema).length === 0;
    });
    expect(untyped.map(([where]) => where)).toEqual([]);
    expect(doc.paths["/_service/health"]?.get?.responses["200"]).toMatchObject({
      content: {
        "application/health+json": { schema: { $ref: "#/components/schemas/HealthDocument" } },
      },
    });
    expect(doc.paths["/_service/style.css"]?.get?.responses["200"]).toMatchObject({
      content: { "text/css": { schema: { type: "string" } } },
    });
  });

  it("documents the platform's headers and problems: 406, 415 with Accept-Post, X-Request-Id everywhere", async () => {
    const doc = await document();
    const create = doc.paths["/fixture-pets"]?.post?.responses ?? {};
    expect(create["406"]).toMatchObject({
      content: {
        "application/problem+json": {
          schema: { $ref: "#/components/schemas/NotAcceptableProblem" },
        },
      },
    });
    expect(Object.keys((create["415"]?.headers as Json) ?? {})).toEqual([
      "X-Request-Id",
      "Accept-Post",
    ]);
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item))
        for (const [status, response] of Object.entries(op.responses))
          if (!("$ref" in response))
            expect(Object.keys((response.headers as Json) ?? {}), status).toContain("X-Request-Id");
  });

  it("documents OPTIONS on every path: 204 with the Allow the platform sends (RFC 9110 §9.3.7)", async () => {
    const doc = await document();
    for (const [path, item] of Object.entries(doc.paths)) {
      const options = item.options as
        | { tags: string[]; responses: Record<string, Json> }
        | undefined;
      expect(options?.tags, path).toEqual(["platform"]);
      const allow = (options?.responses["204"]?.headers as Record<string, { schema: Json }>)?.Allow;
      expect(allow?.schema.const, path).toMatch(/OPTIONS/);
    }
    const pets = doc.paths["/fixture-pets/{petId}"]?.options as { responses: Record<string, Json> };
    expect(JSON.stringify(pets.responses)).toContain('"const":"GET, HEAD, DELETE, OPTIONS"');
  });

  it("gives /_service operations their 500 and security: [] once schemes exist", async () => {
    const doc = await document();
    for (const [path, item] of Object.entries(doc.paths).filter(([p]) =>
      p.startsWith("/_service"),
    )) {
      expect(item.get?.security, path).toEqual([]);
      expect(Object.keys(item.get?.responses ?? {}), path).toContain("500");
    }
  });

  it("documents the 500 problem (RFC 9457) on every operation, the OPTIONS the platform adds included", async () => {
    const doc = await document();
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item))
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain("500");
  });

  it("documents the 404 /_service/openapi.json answers for a version it has no document of", async () => {
    const doc = await document();
    const get = doc.paths["/_service/openapi.json"]?.get as Json & {
      parameters: Json[];
      responses: Record<string, Json>;
    };
    expect(get.parameters).toContainEqual(
      expect.objectContaining({ name: "version", in: "query" }),
    );
    expect(Object.keys(get.responses)).toContain("404");
    const answer = await app.request("/_service/openapi.json?version=fixture-none");
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
  });

  it("names the platform's own schemas as the domain reserves them, and marks them x-platform", async () => {
    const doc = await document();
    const platform = Object.entries(doc.components.schemas)
      .filter(([, schema]) => schema["x-platform"] === true)
      .map(([name]) => name);
    for (const name of platform) expect(RESERVED_SCHEMA_NAMES).toContain(name);
    // Besides the resources: the direction views of those with read-only or write-only
    // members (JSON Schema 2020-12 §9.4 makes those annotations), each saying whose it is.
    // FixturePayment is used only through its two views, which stand for it.
    expect(Object.keys(doc.components.schemas).filter((n) => !platform.includes(n))).toEqual([
      "FixturePet",
      "FixtureProblemBody",
      "FixtureShelf",
      "FixturePet-Input",
      "FixturePayment-Input",
      "FixturePayment-Output",
    ]);
    expect(doc.components.schemas["FixturePayment-Output"]?.["x-view-of"]).toEqual({
      resource: "FixturePayment",
      direction: "response",
    });
  });

  it("matches the reviewed snapshot", async () => {
    await expect(`${JSON.stringify(await document(), null, 2)}\n`).toMatchFileSnapshot(
      "./__snapshots__/openapi.fixture-vocabulary.json",
    );
  });
});

describe("a resource no answer reaches", () => {
  it("keeps its own component where none of its views is used, so the document shows every resource part 2 declares (as the status report counts them)", async () => {
    const contract = defineContract({
      resources: {
        // Its read-only member gives it two views; no operation refers to it.
        FixtureUnreached: z.object({ id: readOnly(z.string()), name: z.string() }),
      },
      operations: {
        fixturePing: {
          method: "GET",
          path: "/fixture-ping",
          responses: { 204: { description: "FIXTURE" } },
        },
      },
    });
    const served = createApp(contract, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema });
    const doc = (await (await served.request("/_service/openapi.json")).json()) as Doc;
    const own = Object.keys(doc.components.schemas).filter((n) => n.startsWith("FixtureUnreached"));
    expect(own).toEqual(["FixtureUnreached"]);
    const report = (await (await served.request("/_service/interface")).json()) as {
      parts: { name: string; declared: Record<string, number> }[];
    };
    expect(report.parts.find((p) => p.name === "resources")?.declared).toEqual({ resources: 1 });
  });
});

describe("a resource may not take a name the platform gives its own schemas", () => {
  it.each(RESERVED_SCHEMA_NAMES)("%s is refused when the app starts", (name) => {
    const contract = defineContract({ resources: { FixtureOk: z.object({}) } });
    const clashing = { ...contract, resources: { [name]: z.object({}) } };
    expect(() => createApp(clashing, { engine: BUILD_ENGINE, jsonSchema: z.toJSONSchema })).toThrow(
      /platform names one of its own schemas/,
    );
  });
});
