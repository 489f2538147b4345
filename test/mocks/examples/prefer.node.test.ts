/**
 * The `Prefer` header as RFC 7240 §2 reads it, and `Preference-Applied` as §3 writes it.
 */
import { describe, expect, it } from "vitest";
import { preferenceApplied, readPreferences } from "../../../src/mocks/examples/prefer";

const read = (header: string | null) => Object.fromEntries(readPreferences(header));

describe("Prefer (RFC 7240 §2)", () => {
  it("reads each preference with its value, names case-insensitively", () => {
    expect(read("Code=404, EXAMPLE=two, dynamic=true")).toEqual({
      code: "404",
      example: "two",
      dynamic: "true",
    });
  });

  it("keeps only the first instance of a preference", () => {
    expect(read("code=404, code=500")).toEqual({ code: "404" });
  });

  it("reads a quoted value without its quotes and escapes, commas inside included", () => {
    expect(read('example="a, \\"b\\"", code=201')).toEqual({ example: 'a, "b"', code: "201" });
  });

  it("ignores parameters after ';' and reads an empty value as none", () => {
    expect(read("example=two; lang=en, respond-async, code=")).toEqual({
      example: "two",
      "respond-async": "",
      code: "",
    });
  });

  it("reads nothing from no header, or from separators alone", () => {
    expect(read(null)).toEqual({});
    expect(read(" , ,")).toEqual({});
  });
});

describe("Preference-Applied (RFC 7240 §3)", () => {
  it("writes tokens as they are and quotes any other value", () => {
    expect(
      preferenceApplied([
        ["code", "404"],
        ["example", 'two "words"'],
      ]),
    ).toBe('code=404, example="two \\"words\\""');
  });
});
