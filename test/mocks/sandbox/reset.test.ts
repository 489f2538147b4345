/**
 * Resetting a sandbox inside workerd (src/mocks/sandbox/reset.ts): DELETE
 * /_service/sandbox empties the caller's sandbox and no other (RFC 9110 §9.3.5), callers apart
 * by credential without a sandbox id, 405 to another method, 400 to a bad sandbox id, no
 * operation planned to answer it in a Worker, and no such path for a contract that places
 * no operation in the sandbox.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { prepareBuild, servedFeatures } from "../../../src/build/generate";
import type { Contract } from "../../../src/contract-language/contract";
import { defineContract } from "../../../src/contract-language/define-contract";
import { UNHANDLED_VAR } from "../../../src/engine/operations/unhandled-setting";
import { type ServeOptions, serveApp } from "../../../src/serve-app";
import {
  FIXTURE_SANDBOX_KEYED_CONTRACT,
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../../fixtures/sandbox";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

const newPet = { name: "Rex", species: "dog", microchip: "chip-1" };

describe("resetting a sandbox", () => {
  it("empties the caller's sandbox, and no other", async () => {
    const app = sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT);
    const mine = callerOf(app);
    const theirs = callerOf(app);
    await mine("/fixture-pets", { method: "POST", body: newPet });
    await theirs("/fixture-pets", { method: "POST", body: newPet });
    const reset = await mine("/_service/sandbox", { method: "DELETE" });
    expect(reset.status).toBe(204);
    expect(await (await mine("/fixture-pets")).json()).toEqual([]);
    expect(await (await theirs("/fixture-pets")).json()).toHaveLength(1);
    // Ids start again.
    const shelves = callerOf(sandboxApp(FIXTURE_SANDBOX_SHELVES_CONTRACT));
    await shelves("/fixture-shelves", { method: "POST", body: { label: "A" } });
    await shelves("/_service/sandbox", { method: "DELETE" });
    const again = await shelves("/fixture-shelves", { method: "POST", body: { label: "B" } });
    expect(await again.json()).toEqual({ id: 1, label: "B" });
  });

  it("keeps callers with different credentials apart, their resets too, without a sandbox id", async () => {
    const app = sandboxApp(FIXTURE_SANDBOX_KEYED_CONTRACT);
    // Test-only values, made here: no credential is committed.
    const keys = {
      FIXTURE_SANDBOX_KEY: crypto.randomUUID(),
      FIXTURE_SANDBOX_KEY_NEXT: crypto.randomUUID(),
    };
    const as =
      (key: string) =>
      (path: string, init: { method?: string; body?: unknown } = {}) =>
        app.request(
          `https://fixture.test${path}`,
          {
            method: init.method ?? "GET",
            headers: { "x-fixture-sandbox-key": key, "content-type": "application/json" },
            ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
          },
          { ...env, RESPONSE_VALIDATION: "enforce", [UNHANDLED_VAR]: "sandbox", ...keys },
        );
    const first = as(keys.FIXTURE_SANDBOX_KEY);
    const second = as(keys.FIXTURE_SANDBOX_KEY_NEXT);
    await first("/_service/sandbox", { method: "DELETE" });
    await second("/_service/sandbox", { method: "DELETE" });
    expect((await first("/fixture-notes", { method: "POST", body: { text: "mine" } })).status).toBe(
      201,
    );
    expect(await (await second("/fixture-notes")).json()).toEqual([]);
    expect((await second("/_service/sandbox", { method: "DELETE" })).status).toBe(204);
    expect(await (await first("/fixture-notes")).json()).toEqual([{ id: 1, text: "mine" }]);
    expect((await as("wrong")("/_service/sandbox", { method: "DELETE" })).status).toBe(401);
  });

  it("answers 405 with Allow to another method (RFC 9110 §15.5.6), and a bad sandbox id 400", async () => {
    const app = sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT);
    const get = await callerOf(app)("/_service/sandbox");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("DELETE, OPTIONS");
    const bad = await callerOf(app, "../other")("/_service/sandbox", { method: "DELETE" });
    expect(bad.status).toBe(400);
  });

  it("is answered in a Worker without planning any operation: its build knows there is a sandbox", async () => {
    // The Worker's contract is its own object, as in a deployed isolate: nothing the build
    // planned for the contract it built is remembered for it.
    const { needed, built } = await prepareBuild(FIXTURE_SANDBOX_PETS_CONTRACT, {});
    let read = 0;
    const operations = Object.fromEntries(
      Object.entries(FIXTURE_SANDBOX_PETS_CONTRACT.operations).map(([id, op]) => {
        const counted = { ...op };
        Object.defineProperty(counted, "responses", {
          get: () => {
            read += 1;
            return op.responses;
          },
        });
        return [id, counted];
      }),
    );
    const contract = { ...FIXTURE_SANDBOX_PETS_CONTRACT, operations } as Contract;
    const app = serveApp(contract, {
      handlers: {},
      built,
      ...servedFeatures(needed),
    } as ServeOptions<Contract>);
    const before = read;
    const reset = await callerOf(app as never)("/_service/sandbox", { method: "DELETE" });
    expect(reset.status).toBe(204);
    // Planning an operation reads its answers; one request must not plan every operation.
    expect(read).toBe(before);
  });

  it("is an unknown path for a contract that places no operation in the sandbox", async () => {
    const contract = defineContract({
      operations: {
        fixturePing: {
          method: "GET",
          path: "/fixture-ping",
          responses: { 204: { description: "Up" } },
        },
      },
    });
    const reset = await callerOf(sandboxApp(contract))("/_service/sandbox", { method: "DELETE" });
    expect(reset.status).toBe(404);
  });
});
