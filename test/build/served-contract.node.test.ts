/**
 * The contract as the Worker serves it (src/build/served-contract.ts): the declared modules
 * as JavaScript, without the text only the documents carry, and serving exactly as the
 * declared contract does. A FIXTURE contract is written to a directory of its own, copied,
 * and both are imported.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { globalRegistry } from "zod/v4/core";
import { writeServedContract } from "../../src/build/served-contract";
import { resolveSchema } from "../../src/contract-language/lazy";
import { declaredSerialisation } from "../../src/engine/request/parameters";

const ROOT = resolve("test/artifacts/served-contract");
const FROM = join(ROOT, "declared");

/** Text that documents (must not reach the copy) and text that serves (must). */
const DOC = "FIXTURE-DOC";
const KEPT = "FIXTURE-KEPT";

const MODULES: Readonly<Record<string, string>> = {
  "index.ts": `import * as z from "zod/mini";
import { z as classic } from "zod";
import { component } from "../../../../src/contract-language/lazy";
import { limits } from "./nested/limits";

export const FixtureItem = component(() =>
  z.object({
    id: z.string().check(z.meta({ readOnly: true, description: "${DOC} id", "x-fixture-doc": { a: 1 } })),
    secret: z.optional(z.string().check(z.meta({ writeOnly: true, title: "${DOC} title", examples: ["${DOC}-x"] }))),
    description: z._default(z.object({ description: z.string() }), { description: "${KEPT} default" }),
    note: z.optional(z.string().check(z.describe("${DOC} " + "described"))),
    label: z.optional(z.string().check(z.minLength(1), z.meta({ description: "${DOC} label" }))),
    code: z.optional(classic.string().meta({ title: "${DOC} code" })),
  }),
);

export const operations = {
  fixtureList: {
    method: "GET",
    path: "/fixture-items",
    summary: "${DOC} summary",
    tags: ["${DOC}-tag"],
    description: \`${DOC} \` + "description",
    externalDocs: { url: "https://fixture.test/${DOC}" },
    request: {
      query: () =>
        z.object({
          ids: z.optional(z.array(z.string()).check(z.meta({ style: "pipeDelimited", explode: false, description: "${DOC} ids" }))),
        }),
    },
    responses: {
      200: {
        description: "${DOC} answer",
        content: { "application/json": { schema: FixtureItem, examples: { one: { value: { id: "${KEPT}-example" } } } } },
      },
    },
  },
} as const;

export { limits };
`,
  "nested/limits.ts": `import { numberFromText } from "../../../../../src/contract-language/text";
import * as z from "zod/mini";

export const limits = { fixturePage: { title: "${KEPT} title", description: "${DOC} limit", parse: numberFromText(z.int()) } };
`,
};

interface FixtureModule {
  readonly FixtureItem: () => z.ZodMiniType;
  readonly operations: {
    readonly fixtureList: {
      readonly summary?: string;
      readonly description?: string;
      readonly externalDocs?: unknown;
      readonly tags?: readonly string[];
      readonly request: { readonly query: () => z.ZodMiniObject };
      readonly responses: {
        readonly 200: {
          readonly description: string;
          readonly content: { readonly "application/json": { readonly examples?: unknown } };
        };
      };
    };
  };
  readonly limits: {
    readonly fixturePage: { readonly title: string; readonly parse: z.ZodMiniType };
  };
}

const copies: Record<"withExamples" | "withoutExamples", string> = {
  withExamples: join(ROOT, "served-with-examples"),
  withoutExamples: join(ROOT, "served-without-examples"),
};

const textOf = (dir: string) =>
  ["index.js", "nested/limits.js"].map((name) => readFileSync(join(dir, name), "utf8")).join("\n");

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  for (const [name, text] of Object.entries(MODULES)) {
    mkdirSync(join(FROM, name, ".."), { recursive: true });
    writeFileSync(join(FROM, name), text);
  }
  // What an earlier build left, which this contract no longer has.
  mkdirSync(copies.withExamples, { recursive: true });
  writeFileSync(join(copies.withExamples, "removed.js"), "export {};\n");
  await writeServedContract(true, FROM, copies.withExamples);
  await writeServedContract(false, FROM, copies.withoutExamples);
});
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const load = async (dir: string) => (await import(join(dir, "index.js"))) as FixtureModule;

describe("the served contract (src/build/served-contract.ts)", () => {
  it("has none of the text only the documents carry, and all the text that serves", () => {
    for (const dir of Object.values(copies)) {
      const text = textOf(dir);
      expect(text).not.toContain(DOC);
      expect(text).toContain(`${KEPT} default`);
      expect(text).toContain(`${KEPT} title`);
    }
    // Metadata left empty is no call at all (each would make its schema again).
    for (const dir of Object.values(copies)) {
      const text = textOf(dir);
      expect(text).not.toMatch(/meta\(\{\s*\}\)/);
      expect(text).toMatch(/label: z\.optional\(z\.string\(\)\.check\(z\.minLength\(1\)\)\)/);
      expect(text).toMatch(/code: z\.optional\(classic\.string\(\)\)/);
    }
    expect(textOf(copies.withExamples)).toContain(`${KEPT}-example`);
    expect(textOf(copies.withoutExamples)).not.toContain(`${KEPT}-example`);
  });

  it("serves as the declared contract does: metadata the engine reads, defaults, parsing", async () => {
    const declared = await load(FROM);
    for (const dir of Object.values(copies)) {
      const served = await load(dir);
      const item = (m: FixtureModule) => resolveSchema(m.FixtureItem) as z.ZodMiniObject;
      const shape = (m: FixtureModule) =>
        (item(m) as unknown as { shape: Record<string, z.ZodMiniType> }).shape;
      expect(globalRegistry.get(shape(served).id as never)).toEqual({ readOnly: true });
      const secret = (shape(served).secret as unknown as { _zod: { def: { innerType: never } } })
        ._zod.def.innerType;
      expect(globalRegistry.get(secret)).toEqual({ writeOnly: true });
      for (const value of [
        { id: "a" },
        { id: 1 },
        { id: "a", description: { description: "b" } },
        { id: "a", label: "" },
        { id: "a", label: "b", code: "c" },
        { id: "a", code: 1 },
      ])
        expect(z.safeParse(item(served), value)).toEqual(z.safeParse(item(declared), value));
      const ids = (m: FixtureModule) =>
        (m.operations.fixtureList.request.query() as unknown as { shape: { ids: never } }).shape
          .ids;
      expect(declaredSerialisation(ids(served))).toEqual(declaredSerialisation(ids(declared)));
      expect(declaredSerialisation(ids(served))).toEqual({
        style: "pipeDelimited",
        explode: false,
      });
      expect(z.safeParse(served.limits.fixturePage.parse, "12")).toEqual(
        z.safeParse(declared.limits.fixturePage.parse, "12"),
      );
      const operation = served.operations.fixtureList;
      expect([
        operation.summary,
        operation.description,
        operation.responses[200].description,
      ]).toEqual(["", "", ""]);
      expect(operation.externalDocs).toBeUndefined();
      expect(operation.tags).toBeUndefined();
    }
    const media = (m: FixtureModule) =>
      m.operations.fixtureList.responses[200].content["application/json"].examples;
    expect(media(await load(copies.withExamples))).toEqual(media(declared));
    expect(media(await load(copies.withoutExamples))).toBeUndefined();
  });

  it("makes a module again exactly when its source or the setting changed, never serving a stale one", async () => {
    const dir = join(ROOT, "served-again");
    const copy = join(dir, "index.js");
    await writeServedContract(true, FROM, dir);
    const first = statSync(copy).mtimeMs;
    await writeServedContract(true, FROM, dir);
    expect(statSync(copy).mtimeMs).toBe(first);
    await writeServedContract(false, FROM, dir);
    expect(readFileSync(copy, "utf8")).not.toContain(`${KEPT}-example`);
    writeFileSync(join(FROM, "index.ts"), `${MODULES["index.ts"]}export const fixtureAdded = 1;\n`);
    await writeServedContract(false, FROM, dir);
    expect(readFileSync(copy, "utf8")).toContain("fixtureAdded");
    writeFileSync(join(FROM, "index.ts"), MODULES["index.ts"] as string);
  });

  it("gives the copy the declared contract's types, and removes what an earlier build left", () => {
    expect(readFileSync(join(copies.withExamples, "index.d.ts"), "utf8")).toContain(
      'export * from "../declared";',
    );
    expect(existsSync(join(copies.withExamples, "removed.js"))).toBe(false);
  });
});
