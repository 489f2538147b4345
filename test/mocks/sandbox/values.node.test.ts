/**
 * What the sandbox reads of a member (src/mocks/sandbox/values.ts) is read through a
 * reference to a named schema as through the schema itself: the served contract writes one
 * wherever a schema holds a named one (src/build/share-schemas.ts).
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { component } from "../../../src/contract-language/lazy";
import { reference } from "../../../src/contract-language/reference";
import { readOnly } from "../../../src/contract-language/schema";
import { defaultOf, idKindOf, isMarked, patternIdOf } from "../../../src/mocks/sandbox/values";

describe("the sandbox's reading of a member through a reference", () => {
  it("finds a read-only mark (OpenAPI 3.1 §4.8.24.1) and a default the named schema carries", () => {
    const FixtureId = component(() => readOnly(z.string()));
    const FixtureSize = component(() => z._default(z.int(), 3));
    expect(isMarked(z.optional(FixtureId()), "readOnly")).toBe(true);
    expect(isMarked(z.optional(reference(FixtureId)), "readOnly")).toBe(true);
    expect(isMarked(z.optional(reference(FixtureSize)), "readOnly")).toBe(false);
    expect(defaultOf(z.optional(reference(FixtureSize)))).toEqual({ value: 3 });
    expect(defaultOf(reference(FixtureId))).toBeUndefined();
  });
});

describe("the id the sandbox makes for an item", () => {
  const free = z.string();
  const widgetParam = z.string().check(z.regex(/^w[0-9]{1,6}$/));

  it("is one the path parameter naming the item takes too, not only the member", () => {
    expect(idKindOf(free)).toBe("uuid");
    // FIXTURE: `{id}` must be `w` and digits, though the member is any string.
    expect(idKindOf(free, [widgetParam])).toBe("pattern");
    const made = patternIdOf(free, [widgetParam], "fixture seed");
    expect(made).toMatch(/^w[0-9]{1,6}$/);
    expect(patternIdOf(free, [widgetParam], "fixture seed")).toBe(made);
  });

  it("is a counter only where the path takes its digits, and none where nothing fits both", () => {
    expect(idKindOf(z.int(), [z.string().check(z.regex(/^[0-9]+$/))])).toBe("counter");
    expect(idKindOf(z.int(), [z.string().check(z.regex(/^x[0-9]+$/))])).toBeUndefined();
    expect(
      idKindOf(z.string().check(z.regex(/^a[0-9]{3}$/)), [z.string().check(z.regex(/^b/))]),
    ).toBeUndefined();
  });
});
