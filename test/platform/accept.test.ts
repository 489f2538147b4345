/** Proactive negotiation of the report's two forms (RFC 9110 §12.5.1). */
import { describe, expect, it } from "vitest";
import { negotiate } from "../../src/platform/accept";

const FORMS = ["application/json", "text/html"] as const;

describe("negotiate", () => {
  it.each([
    [null, "application/json"],
    ["", "application/json"],
    ["*/*", "application/json"],
    ["text/html", "text/html"],
    ["TEXT/HTML", "text/html"],
    ["text/*", "text/html"],
    ["text/html;q=0.2, application/json", "application/json"],
    ["application/json;q=0.5, text/html;q=0.9", "text/html"],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html"],
    ["text/html;q=0, */*", "application/json"],
    ["*/*;q=0.1, text/html", "text/html"],
    ["text/*;q=0.9, text/html;q=0.1, application/json;q=0.5", "application/json"],
    ["text/html;q=abc", "application/json"],
    ["text/html;q=2", "application/json"],
    ["image/png", "application/json"],
  ])("%j → %s", (accept, expected) => {
    expect(negotiate(accept, FORMS)).toBe(expected);
  });
});
