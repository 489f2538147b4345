/**
 * What the build makes of a contract for the examples setting (src/build/generate.ts,
 * src/mocks/examples/make-book.ts): the example book, without the examples that do not
 * match their schemas, each of which the build reports at its pointer (RFC 6901) instead of
 * serving it; and without the operations a handler answers. And the engine feature that answers
 * from it (src/engine/features.ts), which the Worker is given only while an operation has no
 * handler. And what an isolate keeps of the book's chapters: those it answered from last.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { generatedModule, prepareBuild } from "../../src/build/generate";
import type { Contract } from "../../src/contract-language/contract";
import { defineContract } from "../../src/contract-language/define-contract";
import { writeOnly } from "../../src/contract-language/schema";
import { EMPTY_BOOK, type ExampleBook } from "../../src/engine/example-book";
import { FIXTURE_EXAMPLES_CONTRACT, FIXTURE_EXAMPLES_HANDLERS } from "../fixtures/examples";
import { assetsApp } from "../support/built-app";

// The build takes the project's handlers by id, as src/build/write.ts hands them over.
const handlers = FIXTURE_EXAMPLES_HANDLERS as unknown as Parameters<typeof prepareBuild>[1];
const build = await prepareBuild(FIXTURE_EXAMPLES_CONTRACT, handlers);
const book = JSON.parse(build.built.exampleBook.body) as ExampleBook;

describe("the example book, made by the build", () => {
  it("reports an example that does not match its schema, at its pointer, and leaves it out", () => {
    const broken = build.findings.filter((line) => line.includes("example broken"));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toContain(
      "#/paths/~1fixture-bad-example/get/responses/200/content/application~1json/examples/broken",
    );
    expect(broken[0]).toContain("/colour");
    const media = book.operations.fixtureBadExample?.[0]?.["200"]?.content["application/json"];
    expect(media?.examples).toEqual(["fine"]);
  });

  it("reports an answer no value can be made for, which is then answered 501", () => {
    const refined = build.findings.filter((line) => line.includes("~1fixture-refined"));
    expect(refined).toHaveLength(1);
    expect(refined[0]).toContain("answered 501");
    const media = book.operations.fixtureRefinedName?.[0]?.["200"]?.content["application/json"];
    expect(media?.unmade).toBe(true);
  });

  it("reports a binary answer with no example, which is then answered with bytes made for it", () => {
    const picture = build.findings.filter((line) => line.includes("picture"));
    expect(picture).toEqual([
      "#/paths/~1fixture-gadgets~1{id}~1picture/get/responses/200/content/image~1png: a binary answer with no example: answered with bytes made for it, not the API's own",
    ]);
    const media = book.operations.fixtureGadgetPicture?.[0]?.["200"]?.content["image/png"];
    expect(media?.madeBytes).toBe(true);
    expect(media?.unmade).toBeUndefined();
  });

  it("reports nothing else: every other example matches, every other answer can be made", () => {
    expect(build.findings).toHaveLength(3);
  });

  it("holds only the operations without a handler, with their error types' members", () => {
    expect(Object.keys(book.operations).sort()).toEqual(
      Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations)
        .filter((id) => id !== "fixtureHandledGadget")
        .sort(),
    );
    expect(book.errors.fixtureGadgetGone).toMatchObject({ required: ["gadgetId"] });
  });
});

/** The component names a chapter's values refer to. */
function refsOf(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(/"#\/components\/schemas\/([^"/]+)"/g)].map((m) => m[1] ?? "");
}

describe("the book cut by operation, one chapter each (what a deployment reads)", () => {
  const ids = Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations);
  const chapters = build.built.exampleChapters;

  it("has a chapter at each unhandled operation's place, holding that operation alone", () => {
    expect(chapters).toHaveLength(ids.length);
    for (const [i, id] of ids.entries()) {
      const text = chapters[i];
      if (id === "fixtureHandledGadget") {
        expect(text).toBeUndefined();
        continue;
      }
      const chapter = JSON.parse(text ?? "{}") as ExampleBook;
      expect(Object.keys(chapter.operations)).toEqual([id]);
      expect(chapter.operations[id]).toEqual(book.operations[id]);
    }
  });

  it("holds every component its answers reach, and no other, and the error types it names", () => {
    let smaller = 0;
    for (const [i, id] of ids.entries()) {
      const chapter = JSON.parse(chapters[i] ?? "null") as ExampleBook | null;
      if (!chapter) continue;
      const held = Object.keys(chapter.components.schemas);
      for (const name of refsOf(chapter)) expect(held).toContain(name);
      for (const name of held)
        expect(chapter.components.schemas[name]).toEqual(book.components.schemas[name]);
      // Reached: each one held is referred to from the answers or another held component.
      const referred = new Set(refsOf([chapter.operations, chapter.errors, chapter.components]));
      for (const name of held) expect(referred.has(name)).toBe(true);
      if (held.length < Object.keys(book.components.schemas).length) smaller += 1;
      const named =
        FIXTURE_EXAMPLES_CONTRACT.operations[
          id as keyof typeof FIXTURE_EXAMPLES_CONTRACT.operations
        ];
      expect(Object.keys(chapter.errors).sort()).toEqual(
        [...(("errors" in named && named.errors) || [])].sort(),
      );
    }
    expect(smaller).toBeGreaterThan(0);
  });
});

describe("what the book says the Worker need not check again", () => {
  const contractWith = (examples: Record<string, { value: unknown }>) =>
    defineContract({
      operations: {
        fixtureGetCard: {
          method: "GET",
          path: "/fixture-card",
          responses: {
            200: {
              description: "FIXTURE: a card",
              content: {
                "application/json": {
                  schema: z.object({ last4: z.string(), pin: writeOnly(z.optional(z.string())) }),
                  examples,
                },
              },
            },
          },
        },
      },
    });
  const mediaOf = async (contract: Contract) => {
    const built = await prepareBuild(contract, {});
    const made = JSON.parse(built.built.exampleBook.body) as ExampleBook;
    return made.operations.fixtureGetCard?.[0]?.["200"]?.content["application/json"];
  };

  it("marks an answer whose served example holds a write-only member, so the Worker leaves it out", async () => {
    const media = await mediaOf(
      contractWith({ held: { value: { last4: "4242", pin: "FIXTURE" } } }),
    );
    expect(media?.unvetted).toBe(true);
  });

  it("does not mark one for an example it leaves out, nor for examples without one", async () => {
    const media = await mediaOf(
      contractWith({
        plain: { value: { last4: "4242" } },
        // Not served (last4 is missing), so its secret is never answered.
        broken: { value: { pin: "FIXTURE" } },
      }),
    );
    expect(media?.examples).toEqual(["plain"]);
    expect(media?.unvetted).toBeUndefined();
  });
});

describe("the chapters an isolate keeps", () => {
  it("reads an operation's chapter once while it is among the 64 answered last, then again", async () => {
    const ids = Array.from({ length: 128 }, (_, i) => `fixtureThing${i}`);
    const contract = defineContract({
      operations: Object.fromEntries(
        ids.map((id, i) => [
          id,
          {
            method: "GET",
            path: `/fixture-things-${i}`,
            responses: {
              200: {
                description: "FIXTURE: a thing",
                content: {
                  "application/json": {
                    schema: z.object({ n: z.number() }),
                    examples: { fixtureThing: { value: { n: i } } },
                  },
                },
              },
            },
          },
        ]),
      ),
    });
    const assets = await assetsApp(contract);
    const { env: counted, read } = assets.counted({ UNHANDLED_OPERATIONS: "examples" });
    const answer = async (i: number) =>
      (await assets.app.request(`https://fixture.test/fixture-things-${i}`, {}, counted)).json();
    const reads = (i: number) =>
      read.filter((path) => path === `/examples/operation-${i + 1}.json`);
    const answered = async (from: number, to: number) => {
      for (let i = from; i <= to; i++) expect(await answer(i)).toEqual({ n: i });
    };
    await answered(0, 0);
    await answered(0, 0);
    expect(reads(0)).toHaveLength(1);
    // 63 others read since: the 64 answered last are kept, the first among them.
    await answered(1, 63);
    await answered(0, 0);
    expect(reads(0)).toHaveLength(1);
    // 63 more read: the oldest go (1 to 63), not the one answered last (0).
    await answered(64, 126);
    await answered(0, 0);
    expect(reads(0)).toHaveLength(1);
    // 64 others answered since its last answer: no longer kept, read again.
    await answered(64, 127);
    await answered(0, 0);
    expect(reads(0)).toHaveLength(2);
    expect(reads(1)).toHaveLength(1);
  });
});

describe("the engine the Worker is given", () => {
  it("has the examples feature while an operation has no handler", () => {
    expect(build.needed.engine).toContain("examples");
    const module = generatedModule(build);
    expect(module).toMatch(
      /^import \{ servingEngine, [^}]*\bEXAMPLES_FEATURE\b[^}]*\} from "\.\.\/features";$/m,
    );
    expect(module).toMatch(/servingEngine\(\{[^}]*examples: EXAMPLES_FEATURE/);
  });

  it("has none once every operation has a handler", async () => {
    const answer = () => ({ status: 200 });
    const every = Object.fromEntries(
      Object.keys(FIXTURE_EXAMPLES_CONTRACT.operations).map((id) => [id, answer]),
    ) as unknown as Parameters<typeof prepareBuild>[1];
    const built = await prepareBuild(FIXTURE_EXAMPLES_CONTRACT, every);
    expect(built.needed.engine).not.toContain("examples");
    // Nor the book's schemas, which nothing would read: the script carries an empty book.
    expect(JSON.parse(built.built.exampleBook.body)).toEqual(EMPTY_BOOK);
    const module = generatedModule(built);
    expect(module).toMatch(/^import \{ servingEngine\b[^}]*\} from "\.\.\/features";$/m);
    expect(module).not.toContain("EXAMPLES_FEATURE");
  });
});
