/**
 * The sandbox inside workerd, on FIXTURE contracts of two shapes, through the whole run path
 * (validation, the answer checked in "enforce" mode, part 3's 409, part 6's queue), with
 * the Durable Object the test runtime binds as SANDBOX: create → read → list → update →
 * transition → delete → 404 for uuid ids and for integer ids in a nested collection;
 * readOnly, writeOnly and defaults as OpenAPI 3.1 §4.8.24.1 says; each caller's sandbox
 * apart; bad input still the contract's problems.
 */
import { describe, expect, it } from "vitest";
import {
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../../fixtures/sandbox";
import { FixtureQueue } from "../../support/events";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

const pets = sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT);
const shelves = sandboxApp(FIXTURE_SANDBOX_SHELVES_CONTRACT);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const newPet = { name: "Rex", species: "dog", microchip: "chip-1" };

describe("the sandbox, on uuid ids (FIXTURE pets)", () => {
  it("walks create, read, list, update, transition, delete, then answers the contract's 404", async () => {
    const queue = new FixtureQueue();
    const call = callerOf(pets, undefined, {
      EVENTS: queue,
      WEBHOOK_DESTINATIONS: JSON.stringify([
        {
          url: "https://a.fixture.test/hooks",
          events: ["fixturePetAdopted"],
          secret: "FIXTURE_HOOK",
        },
      ]),
      FIXTURE_HOOK: "whsec_Zml4dHVyZS1zYW5kYm94LWtleS0xMjM0NTY3OA==",
    });
    const created = await call("/fixture-pets", { method: "POST", body: newPet });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Record<string, unknown>;
    expect(pet.id).toMatch(UUID);
    expect(pet).toMatchObject({ name: "Rex", status: "available", tags: [] });
    expect(Date.parse(String(pet.createdAt))).not.toBeNaN();
    expect(pet).not.toHaveProperty("microchip");
    // RFC 9110 §10.2.2: the created item's URI, where the answer declares Location.
    expect(created.headers.get("location")).toBe(`/fixture-pets/${pet.id}`);

    const read = await call(`/fixture-pets/${pet.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(pet);

    const listed = await call("/fixture-pets");
    expect(await listed.json()).toEqual([pet]);

    const updated = await call(`/fixture-pets/${pet.id}`, {
      method: "PATCH",
      body: { nickname: "R", tags: ["good"] },
    });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toEqual({ ...pet, nickname: "R", tags: ["good"] });

    const adopted = await call(`/fixture-pets/${pet.id}/adopt`, { method: "POST" });
    expect(adopted.status).toBe(200);
    expect(await adopted.json()).toMatchObject({ id: pet.id, status: "adopted" });
    expect(queue.sent).toHaveLength(1);
    expect(queue.sent[0]).toMatchObject({
      type: "fixturePetAdopted",
      data: { id: pet.id, name: "Rex" },
    });

    // RFC 9110 §15.5.10: the machine allows no adoption from "adopted", as a handler's would.
    const again = await call(`/fixture-pets/${pet.id}/adopt`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      currentState: "adopted",
      allowedTriggers: ["return"],
    });
    expect(queue.sent).toHaveLength(1);

    expect((await call(`/fixture-pets/${pet.id}`, { method: "DELETE" })).status).toBe(204);
    const gone = await call(`/fixture-pets/${pet.id}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("content-type")).toBe("application/problem+json");
    expect(await gone.json()).toMatchObject({ title: "Fixture pet missing", status: 404 });
    expect((await call(`/fixture-pets/${pet.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("sets read-only members itself, ignoring what a caller sends, and keeps them through PUT and PATCH", async () => {
    const call = callerOf(pets);
    const id = crypto.randomUUID();
    const sent = { ...newPet, id, status: "adopted", createdAt: "2000-01-01T00:00:00Z" };
    const pet = (await (
      await call("/fixture-pets", { method: "POST", body: sent })
    ).json()) as Record<string, unknown>;
    expect(pet.id).not.toBe(id);
    expect(pet.status).toBe("available");
    expect(pet.createdAt).not.toBe(sent.createdAt);
    const replaced = await call(`/fixture-pets/${pet.id}`, {
      method: "PUT",
      body: { name: "Max", species: "cat", microchip: "chip-2", status: "adopted" },
    });
    expect(replaced.status).toBe(200);
    // A replacement drops what it leaves out (nickname), and applies defaults (tags).
    expect(await replaced.json()).toEqual({
      id: pet.id,
      name: "Max",
      species: "cat",
      status: "available",
      tags: [],
      createdAt: pet.createdAt,
    });
  });

  it("keeps write-only members, never answering them, and refuses a patch that breaks the resource (422) without storing it", async () => {
    const call = callerOf(pets);
    const pet = (await (
      await call("/fixture-pets", { method: "POST", body: newPet })
    ).json()) as Record<string, unknown>;
    const listed = await (await call("/fixture-pets")).text();
    expect(listed).not.toContain("chip-1");
    // JSON (not merge patch): null sets a member that may be null.
    const nulled = await call(`/fixture-pets/${pet.id}`, {
      method: "PATCH",
      body: { nickname: null },
    });
    expect(await nulled.json()).toMatchObject({ nickname: null });
    const bad = await call(`/fixture-pets/${pet.id}`, { method: "PATCH", body: { name: "" } });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ errors: [{ in: "body", pointer: "#/name" }] });
    expect(await (await call(`/fixture-pets/${pet.id}`)).json()).toMatchObject({ name: "Rex" });
  });

  it("still answers bad input with the contract's problems, before anything is stored", async () => {
    const call = callerOf(pets);
    const bad = await call("/fixture-pets", { method: "POST", body: { name: "Rex" } });
    expect(bad.status).toBe(422);
    expect((await bad.json()) as object).not.toHaveProperty("stack");
    expect((await call("/fixture-pets/not-a-uuid")).status).toBe(422);
    const malformed = await pets.request(
      "https://fixture.test/fixture-pets",
      {
        method: "POST",
        headers: { "content-type": "application/json", "sandbox-id": call.sandbox },
        body: "{",
      },
      { RESPONSE_VALIDATION: "enforce" },
    );
    expect(malformed.status).toBe(400);
    expect(await (await call("/fixture-pets")).json()).toEqual([]);
  });

  it("pages with part 8's page size and an offset, and filters by a member named as a query parameter", async () => {
    const call = callerOf(pets);
    const names: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      names.push(`pet-${i}`);
      await call("/fixture-pets", {
        method: "POST",
        body: { ...newPet, name: `pet-${i}`, species: i % 2 === 0 ? "dog" : "cat" },
      });
    }
    const page = (await (await call("/fixture-pets?limit=2&offset=1")).json()) as {
      name: string;
    }[];
    expect(page.map((p) => p.name)).toEqual(["pet-1", "pet-2"]);
    const cats = (await (await call("/fixture-pets?species=cat")).json()) as { name: string }[];
    expect(cats.map((p) => p.name)).toEqual(["pet-1", "pet-3"]);
    expect((await call("/fixture-pets?limit=21")).status).toBe(422);
  });

  it("keeps each caller's data apart, by the sandbox id it sends", async () => {
    const alice = callerOf(pets);
    const bob = callerOf(pets);
    const pet = (await (await alice("/fixture-pets", { method: "POST", body: newPet })).json()) as {
      id: string;
    };
    expect((await bob(`/fixture-pets/${pet.id}`)).status).toBe(404);
    expect(await (await bob("/fixture-pets")).json()).toEqual([]);
    expect((await alice(`/fixture-pets/${pet.id}`)).status).toBe(200);
    const bad = await callerOf(pets, "not a sandbox id!")("/fixture-pets");
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain("not a sandbox id");
  });
});

describe("the sandbox, on integer ids in a nested collection (FIXTURE shelves)", () => {
  it("walks create, read, list, update, transition, delete, then the platform's 404", async () => {
    const call = callerOf(shelves);
    const shelf = (await (
      await call("/fixture-shelves", { method: "POST", body: { label: "A" } })
    ).json()) as { id: number };
    expect(shelf).toEqual({ id: 1, label: "A" });
    const other = (await (
      await call("/fixture-shelves", { method: "POST", body: { label: "B" } })
    ).json()) as { id: number };
    expect(other.id).toBe(2);

    const books = `/fixture-shelves/${shelf.id}/fixture-books`;
    const created = await call(books, { method: "POST", body: { title: "T", note: "n" } });
    expect(created.status).toBe(201);
    const book = (await created.json()) as { id: number };
    expect(book).toEqual({ id: 1, title: "T", note: "n" });
    expect(await (await call(`${books}/${book.id}`)).json()).toEqual(book);
    // Nested: the book is not in the other shelf's collection.
    expect((await call(`/fixture-shelves/${other.id}/fixture-books/${book.id}`)).status).toBe(404);
    expect(await (await call(books)).json()).toEqual({ items: [book], total: 1, page: 1 });
    expect(await (await call(`/fixture-shelves/${other.id}/fixture-books`)).json()).toEqual({
      items: [],
      total: 0,
      page: 1,
    });
    // A collection of an item that does not exist: the item's 404.
    expect((await call("/fixture-shelves/99/fixture-books")).status).toBe(404);
    // An operation with no 404 of its own answers it as its `default` says (OpenAPI 3.1
    // §4.8.16.2), the answer the document gives a client to read, not the platform's problem.
    const orphan = await call("/fixture-shelves/99/fixture-books", {
      method: "POST",
      body: { title: "T" },
    });
    expect(orphan.status).toBe(404);
    expect(orphan.headers.get("content-type")).toBe("application/json");

    // RFC 7396: null removes a member.
    const patched = await call(`${books}/${book.id}`, {
      method: "PATCH",
      type: "application/merge-patch+json",
      body: { title: "U", note: null },
    });
    expect(await patched.json()).toEqual({ id: 1, title: "U" });

    expect((await call(`${books}/${book.id}/lend`, { method: "POST" })).status).toBe(204);
    const twice = await call(`${books}/${book.id}/lend`, { method: "POST" });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({
      currentState: "lent",
      allowedTriggers: ["bring-back"],
    });

    expect((await call(`${books}/${book.id}`, { method: "DELETE" })).status).toBe(204);
    const gone = await call(`${books}/${book.id}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      status: 404,
      detail: "No item exists at this path.",
    });
    // Ids are not made twice: the next book is 2.
    const next = (await (await call(books, { method: "POST", body: { title: "V" } })).json()) as {
      id: number;
    };
    expect(next.id).toBe(2);
  });

  it("makes ids from the id member's pattern where no counter or UUID satisfies it", async () => {
    const made = await callerOf(shelves)("/fixture-codes", { method: "POST", body: {} });
    expect(made.status).toBe(201);
    expect(((await made.json()) as { code: string }).code).toMatch(/^c-[a-z]{6}$/);
  });

  it("numbers pages from 1 with the page size the query gives", async () => {
    const call = callerOf(shelves);
    await call("/fixture-shelves", { method: "POST", body: { label: "A" } });
    for (const title of ["a", "b", "c"])
      await call("/fixture-shelves/1/fixture-books", { method: "POST", body: { title } });
    const second = await (await call("/fixture-shelves/1/fixture-books?page=2&size=2")).json();
    expect(second).toEqual({ items: [{ id: 3, title: "c" }], total: 3, page: 2 });
    const one = await (await call("/fixture-shelves/1/fixture-books?page=2&size=1")).json();
    expect(one).toEqual({ items: [{ id: 2, title: "b" }], total: 3, page: 2 });
  });
});
