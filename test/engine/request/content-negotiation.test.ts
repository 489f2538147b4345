import { describe, expect, it } from "vitest";
import {
  bodyKind,
  isJsonMediaType,
  parseMediaType,
} from "../../../src/contract-language/media-types";
import { matchMediaType } from "../../../src/engine/request/content-negotiation";

describe("media types (RFC 9110 §8.3.1)", () => {
  it("parses type, subtype and parameters, case-insensitively", () => {
    const parsed = parseMediaType('Application/Merge-Patch+JSON; Charset="UTF-8"');
    expect(parsed?.essence).toBe("application/merge-patch+json");
    expect(parsed?.parameters.get("charset")).toBe("UTF-8");
  });

  it.each([
    "",
    "application",
    "application/",
    "/json",
    "a/b/c",
    "a/b; c",
    "a/b; =c",
    "a b/c",
    "a/b, c/d",
  ])("refuses %j", (value) => {
    expect(parseMediaType(value)).toBeUndefined();
  });

  it("matches only declared types, and only UTF-8 for a charset", () => {
    expect(matchMediaType("application/json; charset=utf-8", ["application/json"])).toBe(
      "application/json",
    );
    expect(
      matchMediaType("application/json; charset=latin1", ["application/json"]),
    ).toBeUndefined();
    expect(matchMediaType("application/jsonx", ["application/json"])).toBeUndefined();
  });

  it("knows JSON by its type or its +json suffix (RFC 6839 §3.1)", () => {
    expect(isJsonMediaType("application/problem+json")).toBe(true);
    expect(isJsonMediaType("application/json")).toBe(true);
    expect(isJsonMediaType("text/json-ish")).toBe(false);
  });

  it("knows text/json as JSON (WHATWG MIME Sniffing §4.6), so its schema is applied", () => {
    expect(isJsonMediaType("text/json")).toBe(true);
    expect(bodyKind("Text/JSON")).toBe("json");
    expect(bodyKind("text/plain")).toBe("text");
  });
});
