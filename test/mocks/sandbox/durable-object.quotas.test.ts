/// <reference path="../../../node_modules/@cloudflare/vitest-plugin/types/cloudflare-test.d.ts" />
/**
 * The sandbox's quotas (src/mocks/sandbox/durable-object.ts), inside workerd with the test
 * runtime's settings (vitest.config.ts: SANDBOX_MAX_ITEMS 60, SANDBOX_MAX_BYTES 400000):
 * a write past a quota is 507 (RFC 4918 §11.5) naming the setting, and stores nothing; a
 * sandbox older than SANDBOX_MAX_AGE_DAYS is deleted whole by its alarm.
 */

import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxName, sandboxRecords } from "../../../src/mocks/sandbox/records";
import { FIXTURE_SANDBOX_PETS_CONTRACT } from "../../fixtures/sandbox";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

const pets = sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT);
const pet = (name: string) => ({ name, species: "cat", microchip: "chip-1" });

describe("the sandbox's quotas", () => {
  it("refuses the item past SANDBOX_MAX_ITEMS with 507, and takes one again once one is deleted", async () => {
    const call = callerOf(pets);
    for (let i = 0; i < 60; i += 1)
      expect((await call("/fixture-pets", { method: "POST", body: pet(`p${i}`) })).status).toBe(
        201,
      );
    const full = await call("/fixture-pets", { method: "POST", body: pet("one too many") });
    expect(full.status).toBe(507);
    expect(((await full.json()) as { detail: string }).detail).toContain("SANDBOX_MAX_ITEMS");
    const [first] = (await (await call("/fixture-pets?limit=1")).json()) as { id: string }[];
    expect((await call(`/fixture-pets/${first?.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call("/fixture-pets", { method: "POST", body: pet("again") })).status).toBe(201);
  });

  it("refuses a write past SANDBOX_MAX_BYTES with 507, storing nothing", async () => {
    const call = callerOf(pets);
    const big = "x".repeat(150_000);
    for (const name of ["a", "b"])
      expect((await call("/fixture-pets", { method: "POST", body: pet(big + name) })).status).toBe(
        201,
      );
    const full = await call("/fixture-pets", { method: "POST", body: pet(`${big}c`) });
    expect(full.status).toBe(507);
    expect(((await full.json()) as { detail: string }).detail).toContain("SANDBOX_MAX_BYTES");
    expect(((await (await call("/fixture-pets")).json()) as unknown[]).length).toBe(2);
  });

  it("deletes a sandbox whole when its age alarm rings", async () => {
    const call = callerOf(pets);
    const created = await call("/fixture-pets", { method: "POST", body: pet("old") });
    const { id } = (await created.json()) as { id: string };
    const name = await sandboxName(undefined, new Headers({ "sandbox-id": call.sandbox }));
    const stub = sandboxRecords(env as never, name) as unknown as DurableObjectStub;
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await call(`/fixture-pets/${id}`)).status).toBe(404);
  });
});
