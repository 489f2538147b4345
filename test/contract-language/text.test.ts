/**
 * Values that arrive as text (src/contract-language/text.ts): a number or boolean the spec types is
 * read from the text a parameter or form field carries, as JSON writes it (RFC 8259 §6),
 * and nothing else is read into one; the JSON Schema zod writes is the wrapped schema's.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { booleanFromText, numberFromText } from "../../src/contract-language/text";

const page = numberFromText(z.int().check(z.minimum(1), z.maximum(50)));
const ratio = numberFromText(z.number());
const flag = booleanFromText(z.boolean());

describe("numberFromText", () => {
  it.each([
    ["1", 1],
    ["50", 50],
    ["-0", -0],
    ["2.5", 2.5],
    ["1e2", 100],
    ["1E-1", 0.1],
  ])("reads %j as the number %d", (text, value) => {
    expect(z.safeParse(ratio, text)).toEqual({ success: true, data: value });
  });

  it.each(["", " 1", "1 ", "0x10", "1_000", "+1", ".5", "5.", "01", "NaN", "Infinity", "1,5"])(
    "does not read %j as a number: the schema refuses it as the text it is",
    (text) => {
      const result = z.safeParse(ratio, text);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.code).toBe("invalid_type");
    },
  );

  it("keeps the schema's own bounds and integer check", () => {
    expect(z.safeParse(page, "50").success).toBe(true);
    expect(z.safeParse(page, "51").success).toBe(false);
    expect(z.safeParse(page, "0").success).toBe(false);
    expect(z.safeParse(page, "1.5").success).toBe(false);
  });

  it("leaves a value that is not text to the schema (a list item, a default)", () => {
    expect(z.safeParse(page, 7)).toEqual({ success: true, data: 7 });
    const defaulted = numberFromText(z._default(z.int(), 10));
    expect(z.safeParse(defaulted, undefined)).toEqual({ success: true, data: 10 });
  });

  it("is documented as the schema it wraps", () => {
    const json = z.toJSONSchema(page, { io: "input", target: "draft-2020-12" });
    expect(json).toMatchObject({ type: "integer", minimum: 1, maximum: 50 });
  });
});

describe("booleanFromText", () => {
  it("reads true and false, and nothing else", () => {
    expect(z.safeParse(flag, "true")).toEqual({ success: true, data: true });
    expect(z.safeParse(flag, "false")).toEqual({ success: true, data: false });
    for (const text of ["TRUE", "1", "yes", "on", ""])
      expect(z.safeParse(flag, text).success).toBe(false);
  });

  it("is documented as the schema it wraps", () => {
    expect(z.toJSONSchema(flag, { io: "input", target: "draft-2020-12" })).toMatchObject({
      type: "boolean",
    });
  });
});
