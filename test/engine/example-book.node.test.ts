/**
 * An operation's chapter of the example book (src/engine/example-book.ts, `chapterOf`):
 * what a deployment reads on that operation's first answer from examples, so it must hold
 * every component the answers reach (through `$ref`s of `$ref`s, cycles, discriminator
 * mappings and names escaped as RFC 6901 writes them) and nothing the operation never reads.
 */
import { describe, expect, it } from "vitest";
import { chapterOf, type ExampleBook } from "../../src/engine/example-book";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const media = (schema: Readonly<Record<string, unknown>>) => ({
  content: { "application/json": { schema, examples: [] } },
});

const FIXTURE_BOOK: ExampleBook = {
  components: {
    schemas: {
      FixtureOrder: {
        type: "object",
        properties: { lines: { type: "array", items: ref("FixtureLine") } },
      },
      FixtureLine: {
        type: "object",
        properties: { order: ref("FixtureOrder"), sku: ref("Fixture~1Sku") },
      },
      "Fixture/Sku": { type: "string" },
      FixturePet: {
        oneOf: [ref("FixtureCat")],
        discriminator: {
          propertyName: "kind",
          mapping: { dog: "#/components/schemas/FixtureDog" },
        },
      },
      FixtureCat: { type: "object" },
      FixtureDog: { type: "object" },
      FixtureUnread: { type: "object", properties: { a: ref("FixtureOrder") } },
      FixtureProblem: { type: "object", properties: { detail: ref("FixtureDetail") } },
      FixtureDetail: { type: "string" },
      // A name that is one of Object's own members is held as any other.
      ["__proto__"]: { type: "integer" },
    },
  },
  operations: {
    fixtureGetOrder: [{ "200": media(ref("FixtureOrder")) }],
    fixtureGetPet: [
      { "200": media({ allOf: [ref("FixturePet")] }), "201": media(ref("__proto__")) },
    ],
  },
  errors: {
    fixtureGone: { type: "object", properties: { p: ref("FixtureProblem") } },
    fixtureOther: {},
  },
};

describe("an operation's chapter of the example book", () => {
  it("holds the components its answers reach through references of references, cycles included", () => {
    const chapter = chapterOf(FIXTURE_BOOK, "fixtureGetOrder", []);
    expect(Object.keys(chapter.components.schemas).sort()).toEqual(
      ["Fixture/Sku", "FixtureLine", "FixtureOrder"].sort(),
    );
    expect(chapter.operations).toEqual({
      fixtureGetOrder: FIXTURE_BOOK.operations.fixtureGetOrder,
    });
    expect(chapter.errors).toEqual({});
  });

  it("follows discriminator mappings and a component named like Object's own member", () => {
    const chapter = chapterOf(FIXTURE_BOOK, "fixtureGetPet", []);
    expect(Object.keys(chapter.components.schemas).sort()).toEqual(
      ["FixtureCat", "FixtureDog", "FixturePet", "__proto__"].sort(),
    );
    expect(Object.hasOwn(chapter.components.schemas, "__proto__")).toBe(true);
    const written = JSON.parse(JSON.stringify(chapter)) as ExampleBook;
    expect(Object.getOwnPropertyDescriptor(written.components.schemas, "__proto__")?.value).toEqual(
      {
        type: "integer",
      },
    );
  });

  it("holds only the error types the operation names, and what they reach", () => {
    const chapter = chapterOf(FIXTURE_BOOK, "fixtureGetOrder", ["fixtureGone", "fixtureNotInBook"]);
    expect(Object.keys(chapter.errors)).toEqual(["fixtureGone"]);
    expect(chapter.components.schemas).toHaveProperty("FixtureDetail");
    expect(chapter.components.schemas).not.toHaveProperty("FixtureUnread");
  });
});
