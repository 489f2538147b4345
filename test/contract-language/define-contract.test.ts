/**
 * The compiler is the first reviewer: a contract that refers to something it does not
 * declare, or cannot work, does not compile. These checks run in `tsc` (npm run
 * typecheck): each `@ts-expect-error` line must be an error, or the build fails, so each
 * case below is a contract that would otherwise compile. The runtime half of each check
 * is in contract-checks.test.ts.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { toJSONSchema, z } from "zod";
import * as zm from "zod/mini";
import { createApp, type NeedsEngine, type NeedsJsonSchema, type NeedsXml } from "../../src/app";
import { BUILD_ENGINE, defaultRouter } from "../../src/build-engine";
import type { SecurityScheme } from "../../src/contract-language/contract";
import { defineContract, type PathParameters } from "../../src/contract-language/define-contract";
import { defineHandlers } from "../../src/contract-language/define-handlers";
import { servingFeatures } from "../../src/contract-language/needs";
import { SECURITY_FEATURE } from "../../src/engine/authentication/authenticate";
import { servingEngine } from "../../src/engine/serving";
import { XML_CODEC } from "../../src/engine/xml/codec";

const ok = { 200: { description: "FIXTURE" } } as const;
const KEY = { type: "apiKey", in: "header", name: "x-fixture-key", secret: "FIXTURE_KEY" } as const;

describe("the compiler refuses a contract that cannot work", () => {
  it("a security entry naming an undeclared scheme (a typo)", () => {
    defineContract({
      securitySchemes: { fixtureKey: KEY },
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture",
          // @ts-expect-error fixtureKye is not a scheme of part 5
          security: [{ fixtureKye: [] }],
          responses: ok,
        },
      },
    });
    defineContract({
      securitySchemes: { fixtureKey: KEY },
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture",
          security: [{ fixtureKey: [] }],
          responses: ok,
        },
      },
    });
  });

  it("a limit naming an undeclared operation", () => {
    defineContract({
      operations: { fixtureGet: { method: "GET", path: "/fixture", responses: ok } },
      limits: {
        // @ts-expect-error fixtureGit is not an operation of part 4
        fixtureRate: { kind: "body-size", maxBytes: 64, operations: ["fixtureGit"] },
      },
    });
  });

  it("a path template and a params schema that disagree", () => {
    defineContract({
      operations: {
        fixtureGet: {
          method: "GET",
          // @ts-expect-error {id} is not a member of params, which has thingId
          path: "/fixture-things/{id}",
          request: { params: z.object({ thingId: z.string() }) },
          responses: ok,
        },
      },
    });
    defineContract({
      operations: {
        // @ts-expect-error a template parameter needs a params schema
        fixtureGet: { method: "GET", path: "/fixture-things/{id}", responses: ok },
      },
    });
    defineContract({
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture-things/{id}/parts/{part}",
          request: { params: zm.object({ id: zm.string(), part: zm.string() }) },
          responses: ok,
        },
      },
    });
    expectTypeOf<PathParameters<"/a/{id}/b/{part}">>().toEqualTypeOf<"id" | "part">();
    expectTypeOf<PathParameters<"/a/b">>().toEqualTypeOf<never>();
    // A key's query and fragment are not routed: their `{name}`s are no path parameters.
    expectTypeOf<PathParameters<"/a/{id}?view={view}#x={y}">>().toEqualTypeOf<"id">();
    expectTypeOf<PathParameters<"/#Action=AddTags">>().toEqualTypeOf<never>();
  });

  it("a state machine naming an undeclared resource, or a state it does not have", () => {
    const resources = { FixtureWidget: z.object({ state: z.enum(["draft", "done"]) }) };
    const machine = {
      resource: "FixtureWidget",
      states: ["draft", "done"],
      initial: "draft",
      transitions: [{ from: "draft", to: "done", trigger: "finish" }],
    } as const;
    defineContract({ resources, states: { fixtureLifecycle: machine } });
    const misnamed = { ...machine, resource: "FixtureWidgit" } as const;
    // @ts-expect-error FixtureWidgit is not a resource of part 2
    defineContract({ resources, states: { fixtureLifecycle: misnamed } });
    const unknownState = { ...machine, initial: "archived" } as const;
    // @ts-expect-error archived is not one of the machine's states
    defineContract({ resources, states: { fixtureLifecycle: unknownState } });
  });

  it("a tag, an error type or a scope that is not declared, a resource named like the platform's schemas", () => {
    const get = { method: "GET", path: "/fixture", responses: ok } as const;
    defineContract({
      purpose: { title: "FIXTURE", tags: { fixtureTag: {} } },
      errors: { fixtureGone: { status: 410, title: "Gone" } },
      operations: { fixtureGet: { ...get, tags: ["fixtureTag"], errors: ["fixtureGone"] } },
    });
    defineContract({
      purpose: { title: "FIXTURE", tags: { fixtureTag: {} } },
      // @ts-expect-error fixtureTga is not a tag of part 1
      operations: { fixtureGet: { ...get, tags: ["fixtureTga"] } },
    });
    const payload = z.object({ id: z.string() });
    defineContract({
      purpose: { title: "FIXTURE", tags: { fixtureTag: {} } },
      events: { fixtureHappened: { payload, tags: ["fixtureTag"] } },
    });
    defineContract({
      purpose: { title: "FIXTURE", tags: { fixtureTag: {} } },
      // @ts-expect-error an event's fixtureTga is not a tag of part 1 either
      events: { fixtureHappened: { payload, tags: ["fixtureTga"] } },
    });
    defineContract({
      errors: { fixtureGone: { status: 410, title: "Gone" } },
      // @ts-expect-error fixtureGnoe is not an error type of part 7
      operations: { fixtureGet: { ...get, errors: ["fixtureGnoe"] } },
    });
    const oauth = {
      type: "oauth2",
      flows: {
        clientCredentials: { tokenUrl: "https://fixture.test/t", scopes: { "a:read": "A" } },
      },
      jwt: { jwksUrl: "FIXTURE_JWKS", issuer: "FIXTURE_ISS", audience: "FIXTURE_AUD" },
    } as const;
    defineContract({
      securitySchemes: { fixtureOAuth: oauth, fixtureKey: KEY },
      operations: { fixtureGet: { ...get, security: [{ fixtureOAuth: ["a:read"] }] } },
    });
    defineContract({
      securitySchemes: { fixtureOAuth: oauth, fixtureKey: KEY },
      operations: {
        fixtureGet: {
          ...get,
          // @ts-expect-error a:write is not a scope the scheme grants
          security: [{ fixtureOAuth: ["a:write"] }],
        },
      },
    });
    defineContract({
      securitySchemes: { fixtureOAuth: oauth, fixtureKey: KEY },
      operations: {
        fixtureGet: {
          ...get,
          // @ts-expect-error an API key grants no scope
          security: [{ fixtureKey: ["a:read"] }],
        },
      },
    });
    // @ts-expect-error Problem is the name of the platform's problem schema
    defineContract({ resources: { Problem: z.object({}) } });
  });

  it("a contract that needs the operation engine or a converter, built without them", () => {
    const contract = defineContract({
      operations: { fixtureGet: { method: "GET", path: "/fixture", responses: ok } },
    });
    // @ts-expect-error part 4 declares an operation: the engine is required
    expect(() => createApp(contract)).toThrow(/pass BUILD_ENGINE/);
    createApp(contract, { engine: BUILD_ENGINE });
    const schemas = defineContract({ resources: { FixtureThing: z.object({}) } });
    // @ts-expect-error part 2 declares a schema: toJSONSchema (and the engine) are required
    expect(() => createApp(schemas, { engine: BUILD_ENGINE })).toThrow(/toJSONSchema/);
    createApp(schemas, { engine: BUILD_ENGINE, jsonSchema: toJSONSchema });
    createApp(defineContract({}));
    // Part 1 alone is what the platform serves by itself; any other part needs the engine.
    const purpose = defineContract({ purpose: { title: "FIXTURE" } });
    createApp(purpose);
    const errors = defineContract({ errors: { fixtureGone: { status: 410, title: "Gone" } } });
    // @ts-expect-error part 7 declares an error type: the engine is required
    expect(() => createApp(errors)).toThrow(/pass BUILD_ENGINE/);
    expectTypeOf<NeedsEngine<typeof purpose>>().toEqualTypeOf<false>();
    expectTypeOf<NeedsEngine<typeof errors>>().toEqualTypeOf<true>();
    expectTypeOf<NeedsEngine<typeof schemas>>().toEqualTypeOf<true>();
    expectTypeOf<NeedsJsonSchema<typeof contract>>().toEqualTypeOf<false>();
  });

  it("a contract with a JWT scheme, served by an engine without the jwt feature (jose ships only with it)", () => {
    const jwtScheme = {
      type: "http",
      scheme: "bearer",
      jwt: { jwksUrl: "FIXTURE_JWKS_URL", issuer: "FIXTURE_ISSUER", audience: "FIXTURE_AUDIENCE" },
    } as const;
    const contract = defineContract({
      securitySchemes: { fixtureBearer: jwtScheme },
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture",
          security: [{ fixtureBearer: [] }],
          responses: ok,
        },
      },
    });
    // An engine given every feature but the verifier (a stale build) refuses to mount it.
    const stale = {
      ...BUILD_ENGINE,
      ...servingEngine({ security: SECURITY_FEATURE }, defaultRouter),
    };
    expect(() => createApp(contract, { engine: stale })).toThrow(
      /^the contract uses the engine's jwt feature, which this Worker was not built with: run npm run build:contract$/,
    );
    createApp(contract, { engine: BUILD_ENGINE });
    expect(servingFeatures(contract)).toContain("jwt");
    const keyOnly = defineContract({ securitySchemes: { fixtureKey: KEY } });
    expect(servingFeatures(keyOnly)).not.toContain("jwt");
    createApp(keyOnly, { engine: BUILD_ENGINE });
  });

  it("a token scheme that says both how to verify (jwt and introspection), or neither", () => {
    const jwt = { jwksUrl: "FIXTURE_JWKS_URL", issuer: "FIXTURE_ISSUER", audience: "FIXTURE_AUD" };
    const introspection = {
      endpoint: "FIXTURE_INTROSPECTION_URL",
      clientId: "FIXTURE_CLIENT_ID",
      clientSecret: "FIXTURE_CLIENT_SECRET",
    };
    const flows = { clientCredentials: { tokenUrl: "https://idp.example/token", scopes: {} } };
    const schemes = {
      fixtureOpaque: { type: "http", scheme: "bearer", introspection },
      fixtureOAuthOpaque: { type: "oauth2", flows, introspection },
      fixtureOAuthJwt: { type: "oauth2", flows, jwt },
      // @ts-expect-error RFC 7662 or RFC 9068: one way to verify a token, not two
      fixtureBoth: { type: "oauth2", flows, jwt, introspection },
      // @ts-expect-error the same, for a bearer token
      fixtureBearerBoth: { type: "http", scheme: "bearer", jwt, introspection },
      // @ts-expect-error an OAuth 2 token must be verified somehow
      fixtureNeither: { type: "oauth2", flows },
    } as const satisfies Readonly<Record<string, SecurityScheme>>;
    expect(Object.keys(schemes)).toHaveLength(6);
  });

  it("a contract with an XML media type (RFC 7303), built without the XML codec (fast-xml-parser ships only then)", () => {
    const Thing = zm.object({ id: zm.string() }).check(zm.meta({ xml: { name: "thing" } }));
    const answersXml = defineContract({
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture",
          responses: { 200: { description: "FIXTURE", content: { "application/xml": Thing } } },
        },
      },
    });
    const options = { engine: BUILD_ENGINE, jsonSchema: toJSONSchema };
    // @ts-expect-error part 4 declares an XML answer: the XML codec is required
    expect(() => createApp(answersXml, options)).toThrow(/pass XML_CODEC/);
    createApp(answersXml, { ...options, xml: XML_CODEC });
    expectTypeOf<NeedsXml<typeof answersXml>>().toEqualTypeOf<true>();
    // A request body of a +xml type, in any case, and text/xml count as well.
    const takesXml = defineContract({
      operations: {
        fixturePost: {
          method: "POST",
          path: "/fixture",
          request: { body: { "Application/Fixture+XML": Thing } },
          responses: ok,
        },
      },
    });
    expectTypeOf<NeedsXml<typeof takesXml>>().toEqualTypeOf<true>();
    const textXml = defineContract({
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture",
          responses: { 200: { description: "FIXTURE", content: { "text/xml": Thing } } },
        },
      },
    });
    expectTypeOf<NeedsXml<typeof textXml>>().toEqualTypeOf<true>();
    // JSON, text and a media type that merely mentions xml do not.
    const noXml = defineContract({
      operations: {
        fixturePost: {
          method: "POST",
          path: "/fixture",
          request: { body: { "application/json": Thing, "application/xml-dtd": zm.string() } },
          responses: { 200: { description: "FIXTURE", content: { "text/plain": zm.string() } } },
        },
      },
    });
    expectTypeOf<NeedsXml<typeof noXml>>().toEqualTypeOf<false>();
    createApp(noXml, { engine: BUILD_ENGINE, jsonSchema: toJSONSchema });
  });

  it("a handler for an undeclared operation", () => {
    const contract = defineContract({
      operations: { fixtureGet: { method: "GET", path: "/fixture", responses: ok } },
    });
    const handlers = defineHandlers(contract, {
      // @ts-expect-error fixtureGit is not an operation of part 4
      fixtureGit: () => ({ status: 200 }),
    });
    expect(() => createApp(contract, { engine: BUILD_ENGINE, handlers })).toThrow(
      /handler fixtureGit/,
    );
  });

  it("a version range or a variant naming an undeclared version, a variant whose params differ from the path", () => {
    const versioning = {
      current: "fixture2",
      versions: { fixture1: {}, fixture2: {} },
      placement: { in: "path" },
    } as const;
    const params = zm.object({ fixtureId: zm.string() });
    defineContract({
      versioning,
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture/{fixtureId}",
          request: { params },
          responses: ok,
          // @ts-expect-error fixture3 is not a version of part 9
          versions: { added: "fixture3" },
        },
      },
    });
    defineContract({
      versioning,
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture/{fixtureId}",
          request: { params },
          responses: ok,
          // @ts-expect-error fixture3 is not a version of part 9
          variants: [{ versions: { removed: "fixture3" }, responses: ok }],
        },
      },
    });
    defineContract({
      versioning,
      operations: {
        fixtureGet: {
          method: "GET",
          // @ts-expect-error the variant's params name fixtureKey, the path fixtureId
          path: "/fixture/{fixtureId}",
          request: { params },
          responses: ok,
          variants: [
            {
              versions: { removed: "fixture2" },
              request: { params: zm.object({ fixtureKey: zm.string() }) },
            },
          ],
        },
      },
    });
    // The same, right: it compiles.
    const right = defineContract({
      versioning,
      operations: {
        fixtureGet: {
          method: "GET",
          path: "/fixture/{fixtureId}",
          request: { params },
          responses: ok,
          variants: [{ versions: { removed: "fixture2" }, request: { params } }],
        },
      },
    });
    expect(right.operations.fixtureGet.variants).toHaveLength(1);
  });

  it("adding a route to the built app (the catch-all would shadow it)", () => {
    const app = createApp(defineContract({}));
    // @ts-expect-error the app is closed: it has fetch and request, nothing to add routes with
    expect(() => app.get("/fixture", () => new Response())).toThrow(TypeError);
    expect(Object.isFrozen(app)).toBe(true);
  });
});
