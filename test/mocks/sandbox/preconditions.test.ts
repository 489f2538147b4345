/**
 * HTTP preconditions on the sandbox's items (src/mocks/sandbox/preconditions.ts), inside
 * workerd through the whole run path (FIXTURE pets): an ETag on each item answered
 * (RFC 9110 §8.8.3), 304 for a read the caller holds (§13.1.2, §15.4.5), 412 for a write
 * whose If-Match does not hold, or that has no item to match (§13.1.1, §15.5.13).
 */
import { describe, expect, it } from "vitest";
import { FIXTURE_SANDBOX_PETS_CONTRACT } from "../../fixtures/sandbox";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

const pets = sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT);
const newPet = { name: "Rex", species: "dog", microchip: "chip-1" };

async function petOf(call: ReturnType<typeof callerOf>) {
  const created = await call("/fixture-pets", { method: "POST", body: newPet });
  const pet = (await created.json()) as { id: string };
  return { path: `/fixture-pets/${pet.id}`, etag: String(created.headers.get("etag")) };
}

describe("preconditions on the sandbox's items (RFC 9110 §13)", () => {
  it("tags each answered item, and answers 304 with no body to a read the caller holds", async () => {
    const call = callerOf(pets);
    const { path, etag } = await petOf(call);
    expect(etag).toMatch(/^"[^"]+"$/);
    const read = await call(path);
    expect(read.headers.get("etag")).toBe(etag);
    const held = await call(path, { headers: { "if-none-match": `W/${etag}` } });
    expect(held.status).toBe(304);
    expect(await held.text()).toBe("");
    expect(held.headers.get("etag")).toBe(etag);
    expect((await call(path, { headers: { "if-none-match": '"other"' } })).status).toBe(200);
  });

  it("refuses a write whose If-Match is stale with 412, and changes nothing", async () => {
    const call = callerOf(pets);
    const { path, etag } = await petOf(call);
    const fresh = await call(path, {
      method: "PATCH",
      body: { name: "Max" },
      headers: { "if-match": etag },
    });
    expect(fresh.status).toBe(200);
    const next = String(fresh.headers.get("etag"));
    expect(next).not.toBe(etag);
    const stale = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(path, { method: "PATCH", body: { name: "Stale" }, headers: { "if-match": etag } }),
      ),
    );
    expect(stale.map((a) => a.status)).toEqual(Array(20).fill(412));
    expect(await (await call(path)).json()).toMatchObject({ name: "Max" });
    const removed = await call(path, { method: "DELETE", headers: { "if-match": etag } });
    expect(removed.status).toBe(412);
    expect((await call(path, { method: "DELETE", headers: { "if-match": next } })).status).toBe(
      204,
    );
  });

  it("answers 412 to If-Match where there is no item to match", async () => {
    const call = callerOf(pets);
    const missing = await call("/fixture-pets/00000000-0000-4000-8000-000000000000", {
      method: "PUT",
      body: newPet,
      headers: { "if-match": "*" },
    });
    expect(missing.status).toBe(412);
  });

  it("documents the 412 of each write it places", async () => {
    const doc = (await (
      await pets.request("https://fixture.test/_service/openapi.json")
    ).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths["/fixture-pets/{petId}"]?.patch?.responses ?? {})).toContain(
      "412",
    );
    // A create given an id an item has is 409 (RFC 9110 §15.5.10): documented with it.
    expect(Object.keys(doc.paths["/fixture-pets"]?.post?.responses ?? {})).toContain("409");
  });
});
