/**
 * The store offered to handlers inside workerd (src/mocks/sandbox/store.ts): the sandbox's
 * own data, typed by resource, so one operation can be replaced by a team's handler while the
 * sandbox answers the others; and concurrent updates through it lose nothing.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineContract } from "../../../src/contract-language/define-contract";
import type { AnyHandler } from "../../../src/contract-language/define-handlers";
import { STORE_FEATURE } from "../../../src/mocks/sandbox/store";
import {
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../../fixtures/sandbox";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

/** FIXTURE: a team's own handler of one operation, over the sandbox's store. */
const countingUpdate: AnyHandler = async (input, { store }) => {
  const { bookId } = (input as { params: { bookId: number } }).params;
  const book = (await store.FixtureBook?.update(bookId, (current) => {
    const { note } = current as { note?: string };
    return { ...(current as object), note: String(Number(note ?? "0") + 1) };
  })) as Record<string, unknown> | undefined;
  return { status: 200, body: book ?? {} };
};

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

describe("a request's store", () => {
  it("makes a resource's member on its first use only, whatever the number of resources", async () => {
    // FIXTURE: 2,000 resources, as large documents' component schemas are.
    const resources = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`FixtureThing${i}`, z.object({ id: z.string() })]),
    );
    const contract = defineContract({ resources });
    const open = () =>
      STORE_FEATURE.open(contract, {}, async () => undefined, new Request("https://fixture.test/"));
    const store = open();
    expect(Object.getOwnPropertyNames(store)).toEqual([]);
    expect("FixtureThing1999" in store).toBe(true);
    const used = store.FixtureThing7;
    expect(typeof used?.get).toBe("function");
    expect(store.FixtureThing7).toBe(used);
    expect(Object.getOwnPropertyNames(store)).toEqual(["FixtureThing7"]);
    // Another request's store makes its own.
    expect(open().FixtureThing7).not.toBe(used);
  });
});

describe("what the sandbox stores", () => {
  it("never a member only clients send (writeOnly, OpenAPI 3.1 §4.8.24.1): a handler over its store sees none", async () => {
    // FIXTURE: a team's own read of one pet, over the sandbox's store, answering the names
    // of the members stored (the answer itself never carries a write-only one).
    const rawRead: AnyHandler = async (input, { store }) => {
      const { petId } = (input as { params: { petId: string } }).params;
      const stored = (await store.FixturePet?.get(petId)) ?? {};
      return { status: 200, body: { id: petId, name: "Rex", stored: Object.keys(stored) } };
    };
    const app = sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT, { fixtureGetPet: rawRead });
    const call = callerOf(app, undefined, { RESPONSE_VALIDATION: "off" });
    const created = await call("/fixture-pets", {
      method: "POST",
      body: { name: "Rex", species: "dog", microchip: "FIXTURE-chip" },
    });
    const { id } = (await created.json()) as { id: string };
    const read = (await (await call(`/fixture-pets/${id}`)).json()) as { stored: string[] };
    expect(read.stored).toContain("name");
    expect(read.stored).not.toContain("microchip");
  });
});
