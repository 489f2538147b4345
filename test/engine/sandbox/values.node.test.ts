/**
 * What the sandbox reads of a member (src/engine/sandbox/values.ts) is read through a
 * reference to a named schema as through the schema itself: the served contract writes one
 * wherever a schema holds a named one (src/build/share-schemas.ts).
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { component } from "../../../src/contract-language/lazy";
import { reference } from "../../../src/contract-language/reference";
import { readOnly } from "../../../src/contract-language/schema";
import { defaultOf, isMarked, madeValue } from "../../../src/engine/sandbox/values";

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

describe("the sandbox's made values", () => {
  it("makes a string its length bounds or its pattern allow, where no plain value does (an ISO currency code)", () => {
    const currency = z.string().check(z.minLength(3), z.maxLength(3));
    expect(madeValue(currency)).toHaveLength(3);
    const code = z.string().check(z.regex(/^[A-Z]{2}-[0-9]{4}$/));
    expect(String(madeValue(code))).toMatch(/^[A-Z]{2}-[0-9]{4}$/);
    const amount = z.object({ currency, value: z.int() });
    expect(madeValue(amount)).toMatchObject({ value: 0 });
    expect((madeValue(amount) as { currency: string }).currency).toHaveLength(3);
  });
});
