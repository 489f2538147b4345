/**
 * Part 5's schemes no secret compares (src/engine/authentication/authenticate.ts,
 * aws-sigv4.ts): AWS Signature Version 4 recomputed by the platform, the client certificate
 * Cloudflare verified (`request.cf.tlsClientAuth`), and a scheme only the deployment's code
 * can check, refused until its verifier is given. FIXTURE contract; every access key is
 * made here.
 */

import { env } from "cloudflare:workers";
import { AwsV4Signer } from "aws4fetch";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineVerifiers } from "../../../src/contract-language/verifiers";
import {
  FIXTURE_ACCESS_KEYS,
  FIXTURE_VERIFIED_CONTRACT,
  FIXTURE_VERIFIED_HANDLERS,
} from "../../fixtures/verified";
import { expectProblem } from "../../support/assertions";

const keyId = `AKIAFIXTURE${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
const secret = crypto.randomUUID();
const keys = { [FIXTURE_ACCESS_KEYS]: `OTHERFIXTUREID:${crypto.randomUUID()}\n${keyId}:${secret}` };

const verifiers = defineVerifiers<typeof FIXTURE_VERIFIED_CONTRACT>({
  // FIXTURE: the header must be the request's path reversed, and names its subject.
  fixtureHmac: (request) => {
    const given = request.headers.get("authorization") ?? "";
    const path = new URL(request.url).pathname;
    return given === `fixture-hmac ${[...path].reverse().join("")}`
      ? { valid: true, subject: "fixture-signer" }
      : { valid: false };
  },
});
const app = (withVerifiers = true) =>
  createApp(FIXTURE_VERIFIED_CONTRACT, {
    engine: BUILD_ENGINE,
    jsonSchema: z.toJSONSchema,
    handlers: FIXTURE_VERIFIED_HANDLERS,
    ...(withVerifiers ? { verifiers } : {}),
  });

const URL_BASE = "https://fixture.test";
const amzDate = (at: Date) => at.toISOString().replace(/[:-]|\.\d{3}/g, "");

/** A PUT signed as an AWS SDK signs it, by `id`:`key`, at `at`. */
async function signed(
  options: { id?: string; key?: string; at?: Date; body?: string; path?: string } = {},
): Promise<Request> {
  const { id = keyId, key = secret, at = new Date(), body = '{"n":1}' } = options;
  const signer = new AwsV4Signer({
    method: "PUT",
    url: `${URL_BASE}${options.path ?? "/fixture-signed/f1?note=a%20b"}`,
    headers: { "content-type": "application/json" },
    body,
    accessKeyId: id,
    secretAccessKey: key,
    service: "execute-api",
    region: "eu-fixture-1",
    datetime: amzDate(at),
  });
  const { url, headers } = await signer.sign();
  return new Request(url, { method: "PUT", headers, body });
}

describe("AWS Signature Version 4, verified by the platform", () => {
  it("lets in a request signed with a deployment's access key, naming the scheme", async () => {
    const res = await app().request(await signed(), {}, { ...env, ...keys });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ schemes: ["fixtureSigned"] });
  });

  it.each([
    ["signed with another secret", { key: "fixture-wrong-secret" }],
    ["by an access key the deployment does not hold", { id: "AKIAFIXTUREUNKNOWN" }],
    ["dated more than AWS's 15 minutes ago", { at: new Date(Date.now() - 16 * 60 * 1000) }],
  ])("refuses a request %s: 401 with AWS's challenge", async (_label, options) => {
    const res = await app().request(await signed(options), {}, { ...env, ...keys });
    await expectProblem(res, 401);
    expect(res.headers.get("www-authenticate")).toBe("AWS4-HMAC-SHA256");
  });

  it("refuses a request changed after it was signed: its body, its query", async () => {
    const original = await signed();
    const body = new Request(original, { body: '{"n":2}' });
    expect((await app().request(body, {}, { ...env, ...keys })).status).toBe(401);
    const query = new Request(original.url.replace("note=a", "note=b"), original);
    expect((await app().request(query, {}, { ...env, ...keys })).status).toBe(401);
  });

  it("fails closed where the deployment holds no access key: 500 for a signed request, 401 without one", async () => {
    const res = await app().request(await signed(), {}, env);
    await expectProblem(res, 500);
    const bare = await app().request(`${URL_BASE}/fixture-signed/f1`, { method: "PUT" }, env);
    await expectProblem(bare, 401);
  });
});

describe("mutual TLS, as Cloudflare verified the client certificate", () => {
  const withCertificate = (tlsClientAuth: Record<string, string>) =>
    new Request(`${URL_BASE}/fixture-certified`, { cf: { tlsClientAuth } } as RequestInit);

  it("lets in a request whose certificate the edge verified", async () => {
    const res = await app().request(
      withCertificate({
        certPresented: "1",
        certVerified: "SUCCESS",
        certRevoked: "0",
        certFingerprintSHA256: "f1f1",
      }),
      {},
      env,
    );
    expect(res.status).toBe(200);
  });

  it.each([
    ["none presented", { certPresented: "0", certVerified: "NONE" }],
    [
      "one the edge could not verify",
      { certPresented: "1", certVerified: "FAILED:self signed certificate" },
    ],
    [
      "a revoked one",
      {
        certPresented: "1",
        certVerified: "SUCCESS",
        certRevoked: "1",
        certFingerprintSHA256: "f1",
      },
    ],
  ])("refuses %s (401)", async (_label, auth) => {
    await expectProblem(await app().request(withCertificate(auth), {}, env), 401);
  });

  it("refuses every request where the zone verifies no certificate (no tlsClientAuth)", async () => {
    await expectProblem(await app().request(`${URL_BASE}/fixture-certified`, {}, env), 401);
  });
});

describe("a scheme the deployment's code verifies", () => {
  const hmac = (value: string) =>
    new Request(`${URL_BASE}/fixture-hmac`, { headers: { authorization: value } });

  it("lets in what its verifier accepts, with the subject it names", async () => {
    const res = await app().request(hmac("fixture-hmac camh-erutxif/"), {}, env);
    expect(await res.json()).toEqual({ schemes: ["fixtureHmac"], subject: "fixture-signer" });
    await expectProblem(await app().request(hmac("fixture-hmac wrong"), {}, env), 401);
  });

  it("refuses every request (401) until its verifier is given", async () => {
    const res = await app(false).request(hmac("fixture-hmac camh-erutxif/"), {}, env);
    await expectProblem(res, 401);
    expect(res.headers.get("www-authenticate")).toBe("fixture-hmac");
  });

  it("is refused at start-up when a verifier names no such scheme", () => {
    expect(() =>
      createApp(FIXTURE_VERIFIED_CONTRACT, {
        engine: BUILD_ENGINE,
        jsonSchema: z.toJSONSchema,
        verifiers: { fixtureSigned: () => ({ valid: true }) } as never,
      }),
    ).toThrow(/^verifier fixtureSigned: part 5 declares no scheme of that name verified by code$/);
  });

  it("documents each scheme as the API declares it", async () => {
    const doc = (await (await app().request("/_service/openapi.json", {}, env)).json()) as {
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes).toEqual({
      fixtureSigned: {
        type: "apiKey",
        in: "header",
        name: "Authorization",
        "x-amazon-apigateway-authtype": "awsSigv4",
      },
      fixtureCertificate: { type: "mutualTLS" },
      fixtureHmac: {
        type: "http",
        scheme: "fixture-hmac",
        description: "FIXTURE: an HMAC of the API's own.",
      },
    });
  });
});
