/**
 * The served contract's schemas (src/build/share-schemas.ts): a named schema another holds
 * is built when that one first checks a value, and a schema written in several places is
 * built once, while every value is judged exactly as the declared contract judges it. A
 * FIXTURE contract is written to a directory of its own, copied, and both are imported.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { writeServedContract } from "../../src/build/served-contract";
import { resolveSchema } from "../../src/contract-language/lazy";
import { viewOf } from "../../src/engine/zod/views";

const ROOT = resolve("test/artifacts/share-schemas");
const FROM = join(ROOT, "declared");
const TO = join(ROOT, "served");
/** A second copy, so one test sees a module no other has built a schema of. */
const UNTOUCHED = join(ROOT, "served-untouched");

const MODULE = `import * as z from "zod/mini";
import { component } from "../../../../src/contract-language/lazy";
import { readOnly } from "../../../../src/contract-language/schema";

export const fixtureBuilt = [];
let fixtureMost = 3;

/** A named schema that says when it is built. */
const fixtureCounted = (name, build) =>
  component(() => {
    fixtureBuilt.push(name);
    return build();
  });

const FixtureAddress = fixtureCounted("address", () =>
  z.object({ city: z.string(), lines: z.optional(z.array(z.string())) }),
);
const FixtureOwner = fixtureCounted("owner", () =>
  z.object({ id: readOnly(z.string()), address: z.optional(FixtureAddress()) }),
);
export const FixtureKind = component(() => z.enum(["cat", "dog"]));
const FixtureCatKind = component(() => z.literal("cat"));
const FixtureDogKind = component(() => z.literal("dog"));
const FixtureCat = component(() => z.object({ kind: FixtureCatKind(), lives: z.optional(z.int()) }));
const FixtureDog = component(() => z.object({ kind: FixtureDogKind(), good: z.optional(z.boolean()) }));
export const FixtureSame = component(() => z.object({ x: z.optional(z.string()) }));
export const FixtureAlike = component(() => z.object({ x: z.optional(z.string()) }));

export const FixturePet = component(() =>
  z.object({
    name: z.optional(z.string()),
    nick: z.optional(z.string()),
    kind: FixtureKind(),
    owner: z.optional(FixtureOwner()),
    friends: z.optional(z.array(FixtureOwner())),
    animal: z.optional(z.discriminatedUnion("kind", [FixtureCat(), FixtureDog()])),
    counts: z.optional(z.record(FixtureKind(), z.int())),
    short: z.optional(z.string().check(z.refine((v) => v.length < 5))),
    shorter: z.optional(z.string().check(z.refine((v) => v.length < 5))),
    few: z.optional(z.array(z.string()).check(z.maxLength(fixtureMost))),
    fewer: z.optional(z.array(z.string()).check(z.maxLength(fixtureMost))),
    either: z.optional(z.union([FixtureSame(), z.null()])),
  }),
);
export const FixtureBigPet = component(() => z.extend(FixturePet(), { extra: z.optional(z.string()) }));
`;

interface FixtureModule {
  readonly fixtureBuilt: string[];
  readonly FixturePet: () => z.ZodMiniType;
  readonly FixtureBigPet: () => z.ZodMiniType;
  readonly FixtureKind: () => z.ZodMiniType;
  readonly FixtureSame: () => z.ZodMiniType;
  readonly FixtureAlike: () => z.ZodMiniType;
}

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(FROM, { recursive: true });
  writeFileSync(join(FROM, "index.ts"), MODULE);
  await writeServedContract(false, FROM, TO);
  await writeServedContract(false, FROM, UNTOUCHED);
});
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const load = async (dir: string) => (await import(join(dir, "index.js"))) as FixtureModule;

/** Values each schema must judge as the declared one does: valid, invalid, and at every place. */
const PETS: readonly unknown[] = [
  { kind: "cat" },
  { kind: "cow" },
  { kind: "dog", name: "a", nick: 1 },
  { kind: "cat", owner: { id: "o" } },
  { kind: "cat", owner: { id: "o", address: { city: "c", lines: ["1"] } } },
  { kind: "cat", owner: { id: "o", address: { lines: [1] } } },
  { kind: "cat", friends: [{ id: "a" }, { id: 2 }] },
  { kind: "cat", animal: { kind: "cat", lives: 9 } },
  { kind: "cat", animal: { kind: "dog", good: "yes" } },
  { kind: "cat", animal: { kind: "bird" } },
  { kind: "cat", counts: { cat: 1, dog: 2 } },
  { kind: "cat", counts: { cat: 1 } },
  { kind: "cat", short: "abc", shorter: "abcdef" },
  { kind: "cat", few: ["a", "b", "c"], fewer: ["a", "b", "c", "d"] },
  { kind: "cat", either: null },
  { kind: "cat", either: { x: 1 } },
  { kind: "cat", extra: "e" },
  "not a pet",
];

describe("the served contract's schemas (src/build/share-schemas.ts)", () => {
  it("judges every value as the declared contract does: references, discriminated unions, enum keys, extensions", async () => {
    const declared = await load(FROM);
    const served = await load(TO);
    for (const name of ["FixturePet", "FixtureBigPet"] as const)
      for (const value of PETS)
        expect(z.safeParse(resolveSchema(served[name]), value)).toEqual(
          z.safeParse(resolveSchema(declared[name]), value),
        );
    // The views (OpenAPI 3.1 §4.8.24.1) too: a read-only id at depth is not required in requests.
    for (const value of [
      { kind: "cat", owner: {} },
      { kind: "cat", friends: [{}, { id: 1 }] },
    ])
      expect(
        z.safeParse(viewOf(resolveSchema(served.FixturePet), "request", "checking"), value),
      ).toEqual(z.safeParse(viewOf(resolveSchema(declared.FixturePet), "request"), value));
  });

  it("builds a named schema another holds when that one first checks a value, not when it is built", async () => {
    const declared = await load(FROM);
    resolveSchema(declared.FixturePet);
    expect(declared.fixtureBuilt).toContain("address");
    const served = await load(UNTOUCHED);
    const pet = resolveSchema(served.FixturePet);
    expect(served.fixtureBuilt).toEqual([]);
    expect(z.safeParse(pet, { kind: "dog" }).success).toBe(true);
    // The pet's members are read (is the owner optional?); the owner's are not, yet.
    expect(served.fixtureBuilt).toEqual(["owner"]);
    expect(
      z.safeParse(pet, { kind: "dog", owner: { id: "o", address: { city: "c" } } }).success,
    ).toBe(true);
    expect(served.fixtureBuilt).toEqual(["owner", "address"]);
  });

  it("writes a schema held in several places once, and never a declaration's own schema or one that may change", () => {
    const text = readFileSync(join(TO, "index.js"), "utf8");
    const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
    const getterOf = (member: string) => new RegExp(`\\b${member}: (\\w+)\\(\\)`).exec(text)?.[1];
    // Written once, each place calling its getter.
    expect(getterOf("name")).toBeDefined();
    expect(getterOf("nick")).toBe(getterOf("name"));
    expect(count(/z\.optional\(z\.string\(\)\)/g)).toBe(0);
    expect(count(/reference\(FixtureOwner\)/g)).toBe(1);
    // What holds a function, and what reads a name that may change, is written where it was.
    expect(count(/z\.refine\(/g)).toBe(2);
    expect(count(/maxLength\(fixtureMost\)/g)).toBe(2);
    // A record's keys and an extended object are read whole: called, not referred to.
    expect(text).toMatch(/z\.extend\(FixturePet\(\)/);
    expect(text).toMatch(/FixtureKind\(\)/);
  });

  it("keeps each named schema its own object, however alike two are", async () => {
    const served = await load(TO);
    expect(resolveSchema(served.FixtureSame)).not.toBe(resolveSchema(served.FixtureAlike));
    expect((resolveSchema(served.FixtureSame) as z.ZodMiniObject)._zod.def.type).toBe("object");
  });
});
