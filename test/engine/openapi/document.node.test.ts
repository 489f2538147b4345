/**
 * The OpenAPI 3.1 document the app serves, validated with a maintained validator
 * (@seriousme/openapi-schema-validator), for the shipped Worker and the fixtures. What the
 * shipped document must say is derived from the shipped contract; the reviewed snapshots
 * are of fixture contracts, so a revision of the spec changes none of them.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { toJSONSchema } from "zod";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { contract } from "../../../src/contract";
import type { Contract } from "../../../src/contract-language/contract";
import { SPEC_PARTS } from "../../../src/contract-language/parts";
import { EMPTY_CONTRACT, FIXTURE_ONE_PART_CONTRACTS } from "../../fixtures/contracts";
import { FIXTURE_EVENTS_CONTRACT } from "../../fixtures/events";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../../fixtures/operations";
import { FIXTURE_STYLES_CONTRACT } from "../../fixtures/parameter-styles";
import { FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS } from "../../fixtures/security";
import { FIXTURE_STATES_CONTRACT } from "../../fixtures/states";
import { fixtureVersionsContract } from "../../fixtures/versions";
import { SHIPPED_WORKER } from "../../support/shipped-worker";

type Doc = {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<
    string,
    Record<string, { tags?: string[]; operationId?: string; responses: Record<string, unknown> }>
  >;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
};

type Fetcher = { fetch: (request: Request) => Response | Promise<Response> };

/** The shipped Worker, as the runtime calls it, with its deployment's static assets. */
const shipped: Fetcher = SHIPPED_WORKER;

async function served(app: Fetcher): Promise<Doc> {
  const res = await app.fetch(new Request("https://fixture.test/_service/openapi.json"));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  return (await res.json()) as Doc;
}

async function expectValid(doc: Doc): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Record<string, unknown>);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
}

describe("the validator", () => {
  it("rejects a document that breaks OpenAPI 3.1, so a pass means something", async () => {
    const doc = await served(createApp(EMPTY_CONTRACT));
    const broken = { ...doc, info: { title: doc.info.title }, paths: { "no-leading-slash": {} } };
    const result = await new Validator().validate(broken as unknown as Record<string, unknown>);
    expect(result.valid).toBe(false);
  });
});

describe("OpenAPI document of the shipped Worker", () => {
  it("is valid OpenAPI 3.1", async () => {
    await expectValid(await served(shipped));
  });

  it("names every part the contract leaves unspecified, and documents every operation it declares", async () => {
    const doc = await served(shipped);
    for (const part of SPEC_PARTS.filter((p) => p.count(contract) === 0))
      expect(doc.info.description).toContain(`part ${part.number} (${part.title})`);
    const declared = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.values(item)
        .filter((op) => !op.tags?.includes("platform"))
        .map((op) => `${op.operationId} ${path}`),
    );
    expect(declared.sort()).toEqual(
      Object.entries(contract.operations as Contract["operations"])
        .map(([id, op]) => `${id} ${op.path}`)
        .sort(),
    );
    expect(Object.keys(doc.webhooks)).toEqual(Object.keys(contract.events));
  });
});

describe("OpenAPI document of a contract that declares nothing", () => {
  it("says plainly that the interface is not specified, and lists only platform paths", async () => {
    const doc = await served(createApp(EMPTY_CONTRACT));
    expect(doc.info.title).toContain("not specified");
    expect(doc.info.version).toBe("not specified");
    expect(doc.info.description).toContain("part 4 (Endpoints)");
    expect(doc.webhooks).toEqual({});
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith("/_service/")).toBe(true);
      for (const op of Object.values(item)) expect(op.tags).toEqual(["platform"]);
    }
  });

  it("matches the reviewed snapshot", async () => {
    const doc = await served(createApp(EMPTY_CONTRACT));
    await expect(`${JSON.stringify(doc, null, 2)}\n`).toMatchFileSnapshot(
      "./__snapshots__/openapi.empty.json",
    );
  });
});

describe("OpenAPI documents of FIXTURE contracts", () => {
  const app = createApp(FIXTURE_OPERATIONS_CONTRACT, {
    engine: BUILD_ENGINE,
    handlers: FIXTURE_HANDLERS,
    jsonSchema: toJSONSchema,
  });

  it("match the reviewed snapshot (the platform's output for a contract with operations)", async () => {
    const doc = await served(app);
    await expect(`${JSON.stringify(doc, null, 2)}\n`).toMatchFileSnapshot(
      "./__snapshots__/openapi.fixture-operations.json",
    );
  });

  it("are valid OpenAPI 3.1, each version's and each part's (states, events, versions, every parameter style)", async () => {
    await expectValid(await served(app));
    // Each placement of the version: a header, the query, the path.
    for (const placement of [
      { in: "header", name: "Api-Version" },
      { in: "query", name: "api-version" },
      { in: "path" },
    ] as const) {
      const versioned = createApp(fixtureVersionsContract(placement), {
        jsonSchema: toJSONSchema,
        engine: BUILD_ENGINE,
      });
      for (const version of ["", "?version=v0", "?version=v1", "?version=v2"]) {
        const res = await versioned.fetch(
          new Request(`https://fixture.test/_service/openapi.json${version}`),
        );
        await expectValid((await res.json()) as Doc);
      }
    }
    for (const fixture of [
      FIXTURE_STATES_CONTRACT,
      FIXTURE_EVENTS_CONTRACT,
      FIXTURE_STYLES_CONTRACT,
    ])
      await expectValid(
        await served(createApp(fixture, { jsonSchema: toJSONSchema, engine: BUILD_ENGINE })),
      );
    for (const fixture of Object.values(FIXTURE_ONE_PART_CONTRACTS)) {
      await expectValid(
        await served(createApp(fixture, { jsonSchema: toJSONSchema, engine: BUILD_ENGINE })),
      );
    }
  });

  it("derive paths, schemas, webhooks and problem answers from the contract", async () => {
    const doc = await served(app);
    const create = doc.paths["/fixture-widgets"]?.post;
    expect(create?.operationId).toBe("fixtureCreateWidget");
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual([
      "201",
      "400",
      "406",
      "413",
      "415",
      "422",
      "500",
    ]);
    // Declared without a handler: the 501 placeholder is documented.
    expect(Object.keys(doc.paths["/fixture-widgets/{id}"]?.delete?.responses ?? {})).toContain(
      "501",
    );
    expect(Object.keys(doc.paths["/fixture-widgets/{id}"]?.get?.responses ?? {})).not.toContain(
      "501",
    );
    expect(doc.components.schemas.FixtureWidget).toMatchObject({
      type: "object",
      required: ["id", "name", "size"],
    });
    expect(JSON.stringify(create?.responses["201"])).toContain(
      "#/components/schemas/FixtureWidget",
    );
    expect(Object.keys(doc.webhooks)).toEqual(["fixture.widget.created"]);
    expect(doc.components.responses.fixtureWidgetLocked).toBeDefined();
    expect(doc.info.title).toBe("Fixture widgets");
    expect(doc.paths["/_service/health"]?.get?.tags).toEqual(["platform"]);
  });

  it("document the parameters of every request part", async () => {
    const doc = await served(app);
    const get = doc.paths["/fixture-widgets/{id}"]?.get as unknown as
      | { parameters: { name: string; in: string; required: boolean }[] }
      | undefined;
    const params = get?.parameters;
    expect(params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "id", in: "path", required: true }),
        expect.objectContaining({ name: "fixture_session", in: "cookie", required: false }),
      ]),
    );
  });
});

describe("OpenAPI document of the FIXTURE security contract (parts 5 and 8)", () => {
  type Op = {
    security?: Record<string, string[]>[];
    parameters: { name: string; schema: Record<string, unknown> }[];
    responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
  };
  const app = createApp(FIXTURE_SECURITY_CONTRACT, {
    engine: BUILD_ENGINE,
    handlers: FIXTURE_SECURITY_HANDLERS,
    jsonSchema: toJSONSchema,
  });
  const op = (doc: Doc, path: string, method = "get") => doc.paths[path]?.[method] as unknown as Op;

  it("is valid OpenAPI 3.1", async () => {
    await expectValid(await served(app));
  });

  it("declares each scheme in components.securitySchemes, without the secrets' binding names", async () => {
    const doc = await served(app);
    const schemes = (doc.components as { securitySchemes?: Record<string, unknown> })
      .securitySchemes;
    expect(schemes?.fixturePartnerKey).toEqual({
      type: "apiKey",
      in: "header",
      name: "X-Fixture-Partner-Key",
      description: "A fixture key for partners.",
    });
    expect(schemes?.fixtureToken).toEqual({
      type: "http",
      scheme: "bearer",
      bearerFormat: "opaque",
    });
    expect(schemes?.fixtureBasic).toEqual({ type: "http", scheme: "basic" });
    expect(JSON.stringify(doc)).not.toMatch(/FIXTURE_[A-Z_]+/);
  });

  it("gives each operation its security requirement: OR as alternatives, AND within one", async () => {
    const doc = await served(app);
    expect(op(doc, "/fixture-secure/either").security).toEqual([
      { fixtureToken: [] },
      { fixtureBasic: [] },
    ]);
    expect(op(doc, "/fixture-secure/both").security).toEqual([
      { fixturePartnerKey: [], fixtureToken: [] },
    ]);
    expect(op(doc, "/fixture-public").security).toEqual([]);
  });

  it("documents 401 with WWW-Authenticate and its typed problem only where credentials are required", async () => {
    const doc = await served(app);
    const answer = op(doc, "/fixture-secure/bearer").responses["401"] as unknown as {
      headers: object;
      content: Record<string, { schema: unknown }>;
    };
    expect(Object.keys(answer.headers)).toEqual(["X-Request-Id", "WWW-Authenticate"]);
    expect(answer.content["application/problem+json"]?.schema).toEqual({
      $ref: "#/components/schemas/AuthenticationRequiredProblem",
    });
    expect(op(doc, "/fixture-public").responses["401"]).toBeUndefined();
  });

  it("documents part 8: the operation's own 413 cap, 429 with Retry-After, page-size bounds", async () => {
    const doc = await served(app);
    expect(op(doc, "/fixture-uploads", "post").responses["413"]?.description).toContain("64 bytes");
    const counted = op(doc, "/fixture-secure/counted").responses["429"];
    expect(counted?.description).toContain("fixtureCountedPerClient: 2 requests per 60 s");
    expect(counted?.description).toContain("fixtureCountedPerCredential: 3 requests per 60 s");
    expect(Object.keys(counted?.headers ?? {})).toEqual(["X-Request-Id", "Retry-After"]);
    expect(op(doc, "/fixture-public").responses["429"]).toBeUndefined();
    const limit = op(doc, "/fixture-list").parameters.find((p) => p.name === "limit");
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 50 });
  });
});
