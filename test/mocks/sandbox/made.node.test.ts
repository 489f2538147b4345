/**
 * The values the sandbox makes for a member (src/mocks/sandbox/made.ts), in its order:
 * default, enum (its example first), the member's examples, format, pattern, bounds.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { dateTimeFormat } from "../../../src/contract-language/formats";
import { madeValue } from "../../../src/mocks/sandbox/made";

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

  it("takes the enum value the document's example names, else the first", () => {
    const state = z.enum(["open", "closed"]);
    expect(madeValue(state.check(z.meta({ examples: ["closed"] })))).toBe("closed");
    expect(madeValue(z.enum(["open", "closed"]))).toBe("open");
  });

  it("takes an example that satisfies the schema, skipping one that does not", () => {
    const code = z.string().check(z.minLength(4), z.meta({ examples: ["no", "not_found"] }));
    expect(madeValue(code)).toBe("not_found");
  });

  it("makes a date-time only where the schema says date-time (RFC 3339 §5.6)", () => {
    const now = "2026-01-02T03:04:05.000Z";
    expect(madeValue(dateTimeFormat(), { now })).toBe(now);
    expect(madeValue(z.string(), { now })).not.toMatch(/^\d{4}-/);
  });

  it("keeps an integer within its bounds and step", () => {
    expect(madeValue(z.int().check(z.minimum(7), z.multipleOf(5)))).toBe(10);
  });

  it("draws the same value from the same seed", () => {
    const word = z.string();
    expect(madeValue(word, { seed: "a" }, "name")).toBe(madeValue(word, { seed: "a" }, "name"));
  });
});
