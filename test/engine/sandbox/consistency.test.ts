/**
 * What the sandbox promises of its data inside workerd: concurrent writes to one item lose
 * nothing (each change is a conditional write on the item's version, retried from a fresh
 * read), a transition is taken once however many ask at the same moment, the reset empties
 * the caller's sandbox and no other (DELETE /_service/sandbox, RFC 9110 §9.3.5), and the
 * store a handler gets is the same data, typed by resource, so one operation can be
 * replaced by a team's handler while the sandbox answers the others.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defineContract } from "../../../src/contract-language/define-contract";
import type { AnyHandler } from "../../../src/contract-language/define-handlers";
import { UNHANDLED_VAR } from "../../../src/engine/operations/unhandled-setting";
import {
  FIXTURE_SANDBOX_KEYED_CONTRACT,
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../../fixtures/sandbox";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

const newPet = { name: "Rex", species: "dog", microchip: "chip-1" };

/** FIXTURE: a team's own handler of one operation, over the sandbox's store. */
const countingUpdate: AnyHandler = async (input, { store }) => {
  const { bookId } = (input as { params: { bookId: number } }).params;
  const book = (await store.FixtureBook?.update(bookId, (current) => {
    const { note } = current as { note?: string };
    return { ...(current as object), note: String(Number(note ?? "0") + 1) };
  })) as Record<string, unknown> | undefined;
  return { status: 200, body: book ?? {} };
};

describe("the sandbox under concurrent writes to one item", () => {
  it("loses no PATCH: concurrent patches of different members all land", async () => {
    const call = callerOf(sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT));
    const pet = (await (await call("/fixture-pets", { method: "POST", body: newPet })).json()) as {
      id: string;
    };
    for (let round = 0; round < 5; round += 1) {
      const patches = [
        { name: `name-${round}` },
        { nickname: `nick-${round}` },
        { tags: [`tag-${round}`] },
        { species: round % 2 === 0 ? "cat" : "dog" },
      ];
      const answers = await Promise.all(
        patches.map((body) => call(`/fixture-pets/${pet.id}`, { method: "PATCH", body })),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(await (await call(`/fixture-pets/${pet.id}`)).json()).toMatchObject({
        name: `name-${round}`,
        nickname: `nick-${round}`,
        tags: [`tag-${round}`],
        species: round % 2 === 0 ? "cat" : "dog",
      });
    }
  });

  it("takes a transition once: of 10 concurrent adoptions, one is 200 and nine are 409", async () => {
    const call = callerOf(sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT));
    const pet = (await (await call("/fixture-pets", { method: "POST", body: newPet })).json()) as {
      id: string;
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(`/fixture-pets/${pet.id}/adopt`, { method: "POST" })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
  });

  it("loses no update of a handler's store: 25 concurrent increments count 25", async () => {
    const app = sandboxApp(FIXTURE_SANDBOX_SHELVES_CONTRACT, { fixtureUpdateBook: countingUpdate });
    const call = callerOf(app);
    await call("/fixture-shelves", { method: "POST", body: { label: "A" } });
    await call("/fixture-shelves/1/fixture-books", { method: "POST", body: { title: "T" } });
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        call("/fixture-shelves/1/fixture-books/1", {
          method: "PATCH",
          type: "application/merge-patch+json",
          body: {},
        }),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await (await call("/fixture-shelves/1/fixture-books/1")).json()).toEqual({
      id: 1,
      title: "T",
      note: "25",
    });
  });
});

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

describe("the store offered to handlers", () => {
  it("is the sandbox's data: a handler of one operation sees what the sandbox stored", async () => {
    const app = sandboxApp(FIXTURE_SANDBOX_SHELVES_CONTRACT, { fixtureUpdateBook: countingUpdate });
    const call = callerOf(app);
    await call("/fixture-shelves", { method: "POST", body: { label: "A" } });
    await call("/fixture-shelves/1/fixture-books", { method: "POST", body: { title: "T" } });
    const counted = await call("/fixture-shelves/1/fixture-books/1", {
      method: "PATCH",
      type: "application/merge-patch+json",
      body: {},
    });
    expect(await counted.json()).toEqual({ id: 1, title: "T", note: "1" });
    // The sandbox's own list sees the handler's write.
    expect(await (await call("/fixture-shelves/1/fixture-books")).json()).toMatchObject({
      items: [{ id: 1, note: "1" }],
    });
  });
});
