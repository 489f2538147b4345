/**
 * What the sandbox promises of its data under concurrent writes inside workerd
 * (src/mocks/sandbox/durable-object.ts: each change is a conditional write on the item's
 * version, retried from a fresh read): concurrent PATCHes of one item lose nothing, and a
 * transition is taken once however many ask at the same moment. The store a handler gets
 * is held to the same in store.test.ts.
 */
import { describe, expect, it } from "vitest";
import { FIXTURE_SANDBOX_PETS_CONTRACT } from "../../fixtures/sandbox";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

const newPet = { name: "Rex", species: "dog", microchip: "chip-1" };

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

  it("never answers 500 under contention: of 200 concurrent PUTs, each is 200 or 503 with Retry-After (RFC 9110 §15.6.4), and the item is one of the 200s", async () => {
    const app = sandboxApp(FIXTURE_SANDBOX_PETS_CONTRACT);
    const call = callerOf(app);
    const pet = (await (await call("/fixture-pets", { method: "POST", body: newPet })).json()) as {
      id: string;
    };
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(`/fixture-pets/${pet.id}`, {
          method: "PUT",
          body: { name: `name-${i}`, species: "dog", microchip: "chip-1" },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const refused of answers.filter((a) => a.status === 503))
      expect(refused.headers.get("retry-after")).toBe("1");
    const kept = (await (await call(`/fixture-pets/${pet.id}`)).json()) as { name: string };
    const landed = answers.flatMap((a, i) => (a.status === 200 ? [`name-${i}`] : []));
    expect(landed).toContain(kept.name);
    // The served document gives the 503 it may answer.
    const doc = (await (
      await app.request("https://fixture.test/_service/openapi.json")
    ).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths["/fixture-pets/{petId}"]?.put?.responses ?? {})).toContain("503");
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
});
