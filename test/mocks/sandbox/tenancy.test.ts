/**
 * Who shares a store (src/mocks/sandbox/tenancy.ts), inside workerd: the deployment's
 * STORE_TENANCY, not the credential, says so. Production handlers over `context.store` see
 * one tenant's data whichever of its credentials a caller sends; the sandbox keeps each
 * credential apart; a caller that names no tenant is refused, and a setting that is none
 * fails closed.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineVerifiers } from "../../../src/contract-language/verifiers";
import { TENANCY_VAR } from "../../../src/mocks/sandbox/tenancy";
import {
  FIXTURE_SANDBOX_TENANT_CONTRACT,
  FIXTURE_SANDBOX_TENANT_HANDLERS,
} from "../../fixtures/sandbox";

type Contract = typeof FIXTURE_SANDBOX_TENANT_CONTRACT;

// FIXTURE verifiers: a token `<user>@<tenant>`, a back-office key `<tenant>.office`; a key
// `orphan.office` is valid but names no tenant.
const verifiers = defineVerifiers<Contract>({
  fixtureUserToken: (request) => {
    const [user, tenant] = (request.headers.get("authorization") ?? "").slice(7).split("@");
    return user && tenant ? { valid: true, subject: user, claims: { tenant } } : { valid: false };
  },
  fixtureBackOfficeKey: (request) => {
    const key = request.headers.get("x-fixture-back-office-key") ?? "";
    if (key === "orphan.office") return { valid: true, subject: "office" };
    return key.endsWith(".office")
      ? { valid: true, subject: "office", claims: { tenant: key.slice(0, -7) } }
      : { valid: false };
  },
});

const app = createApp(FIXTURE_SANDBOX_TENANT_CONTRACT, {
  engine: BUILD_ENGINE,
  jsonSchema: z.toJSONSchema,
  handlers: FIXTURE_SANDBOX_TENANT_HANDLERS,
  verifiers,
});

// Tenant keys made here, never written down.
const KEYS = {
  FIXTURE_TENANT_KEY_A: crypto.randomUUID(),
  FIXTURE_TENANT_KEY_B: crypto.randomUUID(),
};

/** A caller sending `headers`, under the deployment's `tenancy`. */
const callerWith =
  (tenancy: string | undefined, headers: Record<string, string>) =>
  (method = "GET", total?: number, path = "/fixture-invoices") =>
    app.request(
      `https://fixture.test${path}`,
      {
        method,
        headers: {
          ...headers,
          ...(total === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(total === undefined ? {} : { body: JSON.stringify({ total }) }),
      },
      { ...env, ...KEYS, ...(tenancy === undefined ? {} : { [TENANCY_VAR]: tenancy }) },
    );

const user = (name: string, tenant: string, more: Record<string, string> = {}) => ({
  authorization: `Bearer ${name}@${tenant}`,
  ...more,
});
const office = (tenant: string) => ({ "x-fixture-back-office-key": `${tenant}.office` });
const totals = async (answer: Response | Promise<Response>) =>
  ((await (await answer).json()) as { total: number }[]).map((invoice) => invoice.total).sort();

describe("a deployment whose STORE_TENANCY is claim:tenant", () => {
  const tenancy = "claim:tenant";

  it("shows a tenant's data to every credential that names the tenant: a user's token, the back office's key", async () => {
    const tenant = `fixture-${crypto.randomUUID()}`;
    const dashboard = callerWith(tenancy, user("ada", tenant));
    const backOffice = callerWith(tenancy, office(tenant));
    expect((await dashboard("POST", 1)).status).toBe(201);
    expect((await backOffice("POST", 2)).status).toBe(201);
    expect(await totals(dashboard())).toEqual([1, 2]);
    expect(await totals(backOffice())).toEqual([1, 2]);
    // Another user of the tenant, and one who names a sandbox: Sandbox-Id splits nothing.
    expect(await totals(callerWith(tenancy, user("bob", tenant, { "sandbox-id": "x" }))())).toEqual(
      [1, 2],
    );
  });

  it("keeps tenants apart", async () => {
    const one = `fixture-${crypto.randomUUID()}`;
    await callerWith(tenancy, user("ada", one))("POST", 3);
    expect(
      await totals(callerWith(tenancy, user("ada", `fixture-${crypto.randomUUID()}`))()),
    ).toEqual([]);
  });

  it("refuses a valid credential that names no tenant (RFC 9110 §15.5.4: 403), storing nothing", async () => {
    const orphan = callerWith(tenancy, { "x-fixture-back-office-key": "orphan.office" });
    const answer = await orphan("POST", 4);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({
      status: 403,
      detail: expect.stringMatching(/tenant/),
    });
  });

  it("has no reset route: a tenant's store is production data", async () => {
    const answer = await callerWith(tenancy, user("ada", "fixture-t"))(
      "DELETE",
      undefined,
      "/_service/sandbox",
    );
    expect(answer.status).toBe(404);
  });
});

describe("a deployment whose STORE_TENANCY is scheme:fixtureTenantKey", () => {
  const tenancy = "scheme:fixtureTenantKey";

  it("shares one store per tenant key among the users who send it, and another key's is apart", async () => {
    const a = { "x-fixture-tenant-key": KEYS.FIXTURE_TENANT_KEY_A };
    const b = { "x-fixture-tenant-key": KEYS.FIXTURE_TENANT_KEY_B };
    const marker = Math.floor(Math.random() * 1e9);
    await callerWith(tenancy, user("ada", "x", a))("POST", marker);
    expect(await totals(callerWith(tenancy, user("bob", "y", a))())).toContain(marker);
    expect(await totals(callerWith(tenancy, user("ada", "x", b))())).not.toContain(marker);
  });

  it("refuses a caller let in without the tenant key (403)", async () => {
    expect((await callerWith(tenancy, user("ada", "x"))()).status).toBe(403);
  });
});

describe("STORE_TENANCY deployment and sandbox", () => {
  it("deployment: every caller sees one store", async () => {
    const marker = Math.floor(Math.random() * 1e9);
    await callerWith("deployment", user("ada", "one"))("POST", marker);
    expect(await totals(callerWith("deployment", office("two"))())).toContain(marker);
  });

  it("sandbox (the default): each credential's data is its own, as for trying an API", async () => {
    const tenant = `fixture-${crypto.randomUUID()}`;
    await callerWith(undefined, user("ada", tenant))("POST", 5);
    expect(await totals(callerWith(undefined, office(tenant))())).toEqual([]);
    expect(await totals(callerWith("sandbox", user("ada", tenant))())).toEqual([5]);
  });

  it.each(["tenant", "claim:", "claim:a b", "scheme"])(
    "a setting that is none (%j) fails closed: 500, nothing stored, nothing shown",
    async (setting) => {
      const name = `fixture-${crypto.randomUUID()}`;
      const answer = await callerWith(setting, user(name, "fixture-closed"))("POST", 6);
      expect(answer.status).toBe(500);
      expect(JSON.stringify(await answer.json())).not.toContain(name);
      expect(await totals(callerWith(undefined, user(name, "fixture-closed"))())).toEqual([]);
    },
  );
});
