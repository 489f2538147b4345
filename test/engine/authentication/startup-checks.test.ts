/**
 * Declarations of parts 5 and 8 that could not be enforced as written are refused when the
 * app is built, so a mistake shows at deploy time and never opens an operation. FIXTURE
 * declarations only.
 */

import { describe, expect, it } from "vitest";
import { toJSONSchema, z } from "zod";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import type {
  Contract,
  Limit,
  Operation,
  SecurityScheme,
} from "../../../src/contract-language/contract";
import { defineContract } from "../../../src/contract-language/define-contract";
import type { JwtVerifier } from "../../../src/engine/authentication/verify-jwt";
import { operationProblemTypes } from "../../../src/engine/operations/failures";
import { ENGINE_PROBLEM_SLUGS } from "../../support/catalogue";
import { engineWithJwt } from "../../support/engine-with-jwt";

const KEY: SecurityScheme = {
  type: "apiKey",
  in: "header",
  name: "x-fixture-key",
  secret: "FIXTURE_KEY",
};
const TOKEN: SecurityScheme = {
  type: "http",
  scheme: "bearer",
  secret: "FIXTURE_TOKEN",
};

const fixtureOp = (extra: Partial<Operation> = {}): Operation => ({
  method: "POST",
  path: "/fixture",
  security: [{ fixtureKey: [] }],
  request: {
    query: z.object({ size: z.coerce.number().int().min(1).max(20).optional() }),
    body: { "application/json": z.object({}) },
  },
  responses: { 200: { description: "fixture" } },
  ...extra,
});

function build(parts: {
  schemes?: Record<string, SecurityScheme>;
  op?: Operation;
  limits?: Record<string, Limit>;
}): () => unknown {
  // Typed as plain `Contract`: these are refused by the startup checks, not the compiler.
  const contract: Contract = {
    ...defineContract({}),
    securitySchemes: parts.schemes ?? { fixtureKey: KEY, fixtureToken: TOKEN },
    operations: { fixtureOp: parts.op ?? fixtureOp() },
    limits: parts.limits ?? {},
  };
  return () => createApp(contract, { jsonSchema: toJSONSchema, engine: BUILD_ENGINE });
}

const asScheme = (scheme: object) => scheme as SecurityScheme;
const asLimit = (limit: object) => limit as Limit;

describe("security schemes (part 5) that createApp refuses", () => {
  it.each([
    ["a secret that is not a binding name", { ...KEY, secret: "fixture-key" }, /binding name/],
    ["an API key in an unknown place", { ...KEY, in: "body" }, /header, query or cookie/],
    ["an API key name that is not a token", { ...KEY, name: "x fixture" }, /HTTP token/],
    [
      "an http scheme other than bearer or basic",
      { ...TOKEN, scheme: "digest" },
      /bearer or basic/,
    ],
    [
      "a basic realm with a quote",
      { type: "http", scheme: "basic", realm: 'fixture"', secret: "FIXTURE_BASIC" },
      /realm/,
    ],
  ])("%s", (_label, scheme, message) => {
    expect(build({ schemes: { fixtureKey: asScheme(scheme), fixtureToken: TOKEN } })).toThrow(
      message,
    );
  });

  it("a JWT profile other than RFC 9068's", () => {
    const jwt = { jwksUrl: "FIXTURE_JWKS", issuer: "FIXTURE_ISS", audience: "FIXTURE_AUD" };
    const scheme = asScheme({
      type: "http",
      scheme: "bearer",
      jwt: { ...jwt, profile: "rfc7523" },
    });
    const contract: Contract = {
      ...defineContract({}),
      securitySchemes: { fixtureJwt: scheme },
      operations: { fixtureOp: fixtureOp({ security: [{ fixtureJwt: [] }] }) },
    };
    const verifier: JwtVerifier = async () => ({ kind: "invalid" });
    expect(() =>
      createApp(contract, { jsonSchema: toJSONSchema, engine: engineWithJwt(verifier) }),
    ).toThrow(/jwt.profile: rfc7523 is not a profile/);
  });

  it("an OAuth flow URL that is neither a URL nor a relative reference, and takes one that is (OpenAPI 3.1 §4.3)", () => {
    const oauth = (tokenUrl: string) =>
      asScheme({
        type: "oauth2",
        flows: { clientCredentials: { tokenUrl, scopes: {} } },
        introspection: {
          endpoint: "FIXTURE_INTROSPECTION_URL",
          clientId: "FIXTURE_CLIENT_ID",
          clientSecret: "FIXTURE_CLIENT_SECRET",
        },
      });
    const op = fixtureOp({ security: [{ fixtureOAuth: [] }] });
    expect(build({ schemes: { fixtureOAuth: oauth("not a url") }, op })).toThrow(
      /neither a URL nor a relative reference/,
    );
    expect(build({ schemes: { fixtureOAuth: oauth("javascript:alert(1)") }, op })).toThrow(
      /neither a URL nor a relative reference/,
    );
    expect(build({ schemes: { fixtureOAuth: oauth("/fixture-oauth/token") }, op })).not.toThrow();
    expect(
      build({ schemes: { fixtureOAuth: oauth("https://fixture.test/token") }, op }),
    ).not.toThrow();
  });

  it("a scheme name OpenAPI cannot use as a component key", () => {
    expect(build({ schemes: { "fixture key": KEY } })).toThrow(/must match/);
  });
});

describe("names the platform reserves", () => {
  it("are exactly the problem types an operation of parts 3, 4, 5, 8 and 9 can answer with (its model's failures)", () => {
    const everything = {
      ...defineContract({}),
      operations: {
        fixtureOp: {
          method: "POST",
          path: "/fixture",
          request: { body: { "application/json": {} } },
          security: [{ fixtureOAuth: ["fixture:read"] }],
          responses: { 200: { description: "x", content: { "application/json": {} } } },
          transition: { machine: "fixtureMachine", trigger: "fixtureGo" },
          deprecated: { deprecated: "2026-01-01", sunset: "2027-01-01" },
          versions: { added: "fixture2" },
        },
      },
      securitySchemes: { fixtureOAuth: { type: "oauth2", flows: {}, jwt: {} } },
      limits: {
        fixtureRate: {
          kind: "rate",
          operations: ["fixtureOp"],
          limit: 1,
          period: 10,
          key: "client",
        },
      },
      versioning: {
        current: "fixture2",
        versions: { fixture1: { sunset: "2026-06-01" }, fixture2: {} },
        placement: { in: "header", name: "V" },
      },
    } as unknown as Contract;
    const slugs = operationProblemTypes(everything).map((t) => t.slug);
    expect([...ENGINE_PROBLEM_SLUGS].sort()).toEqual(slugs.sort());
  });

  it.each(["authentication-required", "rate-limit-exceeded"])(
    "a part 7 error type named %s, even where parts 5 and 8 declare nothing",
    (slug) => {
      const errors = { [slug]: { status: 400, title: "Fixture" } };
      expect(() => createApp(defineContract({ errors }), { engine: BUILD_ENGINE })).toThrow(
        /platform uses that name/,
      );
    },
  );
});

describe("operation security that createApp refuses", () => {
  it("an operation that omits security once part 5 declares schemes (none is left open by omission)", () => {
    expect(build({ op: fixtureOp({ security: undefined }) })).toThrow(/security must be declared/);
  });

  it.each<[string, Operation["security"], RegExp]>([
    ["an unknown scheme", [{ fixtureNope: [] }], /does not declare/],
    [
      "a scope a secret-compared scheme cannot grant",
      [{ fixtureKey: ["fixture:read"] }],
      /does not grant/,
    ],
  ])("%s", (_label, security, message) => {
    expect(build({ op: fixtureOp({ security }) })).toThrow(message);
  });

  it("two Authorization schemes required together", () => {
    const schemes = {
      fixtureKey: KEY,
      fixtureToken: TOKEN,
      fixtureBasic: asScheme({ type: "http", scheme: "basic", realm: "f", secret: "FIXTURE_B" }),
    };
    const op = fixtureOp({ security: [{ fixtureToken: [], fixtureBasic: [] }] });
    expect(build({ schemes, op })).toThrow(/two Authorization credentials \(Bearer and Basic\)/);
    // Two schemes that read the same Bearer credential: one token, which both verify.
    const bearers = { fixtureToken: TOKEN, fixtureOther: TOKEN };
    const both = fixtureOp({ security: [{ fixtureToken: [], fixtureOther: [] }] });
    expect(build({ schemes: bearers, op: both })).not.toThrow();
  });

  it("an API key in Authorization required with a bearer token: one header, one credential (RFC 9110 §11.6.2)", () => {
    const schemes = {
      fixtureKey: asScheme({ ...KEY, name: "Authorization" }),
      fixtureToken: TOKEN,
    };
    const together = fixtureOp({ security: [{ fixtureKey: [], fixtureToken: [] }] });
    expect(build({ schemes, op: together })).toThrow(/two Authorization credentials/);
    const either = fixtureOp({ security: [{ fixtureKey: [] }, { fixtureToken: [] }] });
    expect(build({ schemes, op: either })).not.toThrow();
  });

  it("accepts security: [] as an explicitly open operation", () => {
    expect(build({ op: fixtureOp({ security: [] }) })).not.toThrow();
  });
});

describe("limits (part 8) that createApp refuses", () => {
  const rate = {
    kind: "rate",
    binding: "FIXTURE_LIMITER",
    limit: 5,
    period: 60,
    key: "client",
    operations: ["fixtureOp"],
  };
  const page = {
    kind: "page-size",
    parameter: "size",
    minimum: 1,
    maximum: 20,
    operations: ["fixtureOp"],
  };
  it.each([
    ["an unknown operation", { ...rate, operations: ["fixtureNope"] }, /does not declare/],
    ["an operation named twice", { ...rate, operations: ["fixtureOp", "fixtureOp"] }, /twice/],
    ["an unknown kind", { kind: "burst", operations: ["fixtureOp"] }, /kind must be/],
    [
      "a body cap that is not a positive integer",
      { kind: "body-size", maxBytes: 0, operations: ["fixtureOp"] },
      /positive integer/,
    ],
    ["a rate period the binding lacks", { ...rate, period: 30 }, /10 or 60/],
    ["a rate limit of zero", { ...rate, limit: 0 }, /positive integer/],
    [
      "a binding that is not a binding name",
      { ...rate, binding: "fixture-limiter" },
      /binding name/,
    ],
    ["an unknown key", { ...rate, key: "ip" }, /client or credential/],
    ["page-size bounds the schema does not enforce", { ...page, maximum: 100 }, /must bound size/],
    [
      "a page-size parameter the schema lacks",
      { ...page, parameter: "count" },
      /no parameter count/,
    ],
    ["page-size bounds upside down", { ...page, minimum: 30 }, /0 ≤ minimum ≤ maximum/],
  ])("%s", (_label, limit, message) => {
    expect(build({ limits: { fixtureLimit: asLimit(limit) } })).toThrow(message);
  });

  it("a body cap on an operation that takes no body", () => {
    const op = fixtureOp({ method: "GET", request: {} });
    const limits = {
      fixtureCap: asLimit({ kind: "body-size", maxBytes: 10, operations: ["fixtureOp"] }),
    };
    expect(build({ op, limits })).toThrow(/takes no request body/);
  });

  it("two body caps on one operation", () => {
    const cap = asLimit({ kind: "body-size", maxBytes: 10, operations: ["fixtureOp"] });
    expect(build({ limits: { fixtureA: cap, fixtureB: cap } })).toThrow(/another body-size/);
  });

  it("a per-credential rate limit on an operation that requires no credential", () => {
    const op = fixtureOp({ security: [] });
    const limits = { fixtureRate: asLimit({ ...rate, key: "credential" }) };
    expect(build({ op, limits })).toThrow(/requires none/);
  });

  it("one binding declared with two different limits (wrangler.toml gives it one)", () => {
    const limits = {
      fixtureA: asLimit(rate),
      fixtureB: asLimit({ ...rate, limit: 6 }),
    };
    expect(build({ limits })).toThrow(/another limit or period/);
  });

  it("accepts limits it can enforce as written", () => {
    const limits = {
      fixtureRate: asLimit(rate),
      fixturePage: asLimit(page),
      fixtureCap: asLimit({ kind: "body-size", maxBytes: 10, operations: ["fixtureOp"] }),
    };
    expect(build({ limits })).not.toThrow();
  });
});
