/**
 * Part 5 (src/importer/parts/security.ts), imported from FIXTURE documents and served by the
 * real app: every scheme the platform verifies, with the names of its secrets and vars (never a
 * value); what only a scheme it cannot verify guards, left out (fail closed); OAuth URLs and
 * scopes; API keys as SendGrid, Trello and the FEC declare them.
 * Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { doc31, findingLines, importCase, type Json, served } from "../../support/import-case";

describe("security schemes and requirements (part 5)", () => {
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
    const doc = secured(
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
    );
    // Every scheme is named by some requirement: one no requirement names is not declared.
    const all = [{ basic: [] }, { token: [] }, { jwt: [] }, { oidc: [] }];
    const c = await importCase("schemes", {
      ...doc,
      paths: {
        ...(doc.paths as Json),
        "/fixture-all": {
          get: {
            operationId: "fixtureAll",
            security: all,
            responses: { "204": { description: "FIXTURE" } },
          },
        },
      },
    });
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

  it("declares no scheme that no security requirement names, so the deployment is asked for no secret of it", async () => {
    const c = await importCase(
      "unused-scheme",
      secured(
        {
          key: { type: "apiKey", in: "header", name: "X-Key" },
          unused: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        },
        [{ key: [] }],
      ),
    );
    expect(Object.keys(c.contract.securitySchemes)).toEqual(["key"]);
    expect(JSON.stringify(c.code.authentication)).not.toMatch(/UNUSED_/);
    expect(findingLines(c)).toContain(
      "lost #/components/securitySchemes/unused: security scheme unused: no security requirement names it, so it is not declared and asks the deployment for no secret",
    );
  });

  it("leaves out an operation only a scheme it cannot read would guard (fail closed), and imports the rest", async () => {
    const c = await importCase(
      "unknown-scheme",
      secured({ odd: { type: "fixtureUnknownKind" } }, [{ odd: [] }]),
    );
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureOpen"]);
    expect(findingLines(c)).toContain(
      "lost #/paths/~1fixture/get: left out: operation fixtureGet can only be reached with credentials the platform cannot verify, and is not served open",
    );
    // Never served open: its method on the path is one the path does not have.
    expect((await c.app.request("https://fixture.test/fixture")).status).toBe(405);
  });

  it.each([
    [
      "mutual TLS, verified as Cloudflare verified the client certificate",
      { type: "mutualTLS" },
      { type: "verified", verifiedBy: "mutual-tls", declared: { type: "mutualTLS" } },
      "ClientCertificate",
    ],
    [
      "an http scheme of the API's own, verified by code the deployment gives",
      { type: "http", scheme: "fixture-hmac-sha256" },
      {
        type: "verified",
        verifiedBy: "code",
        declared: { type: "http", scheme: "fixture-hmac-sha256" },
      },
      "fixture-hmac-sha256",
    ],
    [
      "an AWS request signature (x-amazon-apigateway-authtype), verified by the platform",
      {
        type: "apiKey",
        in: "header",
        name: "Authorization",
        "x-amazon-apigateway-authtype": "awsSigv4",
      },
      {
        type: "verified",
        verifiedBy: "aws-sigv4",
        declared: { type: "apiKey", in: "header", name: "Authorization" },
        accessKeys: "FIXTURE_SIGNED_ACCESS_KEYS",
      },
      "AWS4-HMAC-SHA256",
    ],
  ])("serves what only %s guards, never open", async (_label, declared, expected, challenge) => {
    const c = await importCase("verified", {
      ...secured({ fixtureSigned: declared }, [{ fixtureSigned: [] }]),
      info: { title: "FIXTURE", version: "1" },
    });
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureGet", "fixtureOpen"]);
    expect(c.contract.securitySchemes.fixtureSigned).toEqual(expected);
    const res = await c.app.request("https://fixture.test/fixture");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(challenge);
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
    const c = await importCase(
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

  it("keeps a relative OAuth URL no absolute server resolves as written (OpenAPI 3.1 §4.3), and serves what its scheme guards", async () => {
    const c = await importCase("oauth-serverless", relativeOAuth([{ url: "/fixture-relative" }]));
    expect(Object.keys(c.contract.operations).sort()).toEqual(["fixtureGet", "fixtureOpen"]);
    expect(c.contract.securitySchemes.oauth).toMatchObject({
      flows: {
        authorizationCode: {
          authorizationUrl: "/fixture-oauth/authorize",
          tokenUrl: "fixture-oauth/token",
        },
      },
    });
    expect(findingLines(c).join("\n")).toContain(
      "changed #/components/securitySchemes/oauth/flows/authorizationCode/authorizationUrl: /fixture-oauth/authorize: a relative URL no absolute server resolves, kept as written: clients read it against where the served document is (OpenAPI 3.1 §4.3)",
    );
  });

  it("leaves out an OAuth flow whose URL is no URL reference at all, and with it the scheme and what only it guards", async () => {
    const doc = secured(
      {
        oauth: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: "not a url", scopes: {} } },
        },
      },
      [{ oauth: [] }],
    );
    const c = await importCase("oauth-no-url", doc);
    expect(Object.keys(c.contract.operations)).toEqual(["fixtureOpen"]);
    expect(findingLines(c).join("\n")).toContain(
      "lost #/components/securitySchemes/oauth/flows/clientCredentials: OAuth flow clientCredentials: left out, a URL of it is neither an http(s) URL nor a relative reference (RFC 3986 §4.2)",
    );
  });

  it("imports an API key in the Authorization header as that header's whole value, compared with its secret (as SendGrid declares its key)", async () => {
    const c = await importCase(
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

  it("compares two API key schemes that read the same field with one secret: one credential (the FEC's document requires both together)", async () => {
    const query = { type: "apiKey", in: "query", name: "api_key" };
    const c = await importCase(
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

  it("credentials made optional by an empty requirement", async () => {
    const c = await importCase("optional", {
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
