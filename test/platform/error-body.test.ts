/**
 * An error type's own body (part 7's `ErrorType.body`), written by the platform: fixed
 * values and facts at any depth, and the violations in the API's own item shape, their
 * location as a JSON Pointer (RFC 6901), a dotted path or segments. FIXTURE bodies only.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/contract-language/contract";
import { ownBody, VIOLATION_KEYWORD } from "../../src/platform/error-body";

const VIOLATIONS = [
  {
    in: "body",
    pointer: "#/lines/0/quantity",
    detail: "Must be at least 1.",
    [VIOLATION_KEYWORD]: "minimum",
  },
  { in: "body", pointer: "#/a~1b/%20c", detail: "Is required.", [VIOLATION_KEYWORD]: "required" },
  { in: "query", pointer: "#/limit", detail: "Must be of type integer." },
];
const PROBLEM = { type: "about:blank", title: "Fixture", status: 422, detail: "FIXTURE: bad" };
const written = (format: ErrorBody, problem: object = PROBLEM, headers = {}) =>
  JSON.parse(ownBody(problem as Record<string, unknown>, "fixture-id", format, headers));

describe("an error type's own body", () => {
  it("writes each location form of a violation, and the member at fault", () => {
    const body = written(
      {
        mediaType: "application/json",
        carries: {},
        violations: {
          at: "/problems",
          item: {
            pointer: "/p",
            path: "/f",
            segments: "/loc",
            member: "/m",
            in: "/where",
            keyword: "/k",
            message: "/text",
          },
        },
      },
      { ...PROBLEM, errors: VIOLATIONS },
    );
    expect(body.problems).toEqual([
      {
        p: "/lines/0/quantity",
        f: "lines[0].quantity",
        loc: ["body", "lines", 0, "quantity"],
        m: "quantity",
        where: "body",
        k: "minimum",
        text: "Must be at least 1.",
      },
      {
        p: "/a~1b/ c",
        f: '["a/b"][" c"]',
        loc: ["body", "a/b", " c"],
        m: " c",
        where: "body",
        k: "required",
        text: "Is required.",
      },
      {
        p: "/limit",
        f: "limit",
        loc: ["query", "limit"],
        m: "limit",
        where: "query",
        text: "Must be of type integer.",
      },
    ]);
  });

  it("puts fixed values and facts at any depth, a fact never over a fixed value", () => {
    const body = written({
      mediaType: "application/json",
      carries: { detail: "/error/message", statusString: "/error/status", requestId: "/meta/id" },
      fixed: { "/error/code": "invalid_transition", "/error/retryable": false },
    });
    expect(body).toEqual({
      error: {
        code: "invalid_transition",
        retryable: false,
        message: "FIXTURE: bad",
        status: "422",
      },
      meta: { id: "fixture-id" },
    });
  });

  it("takes the seconds of Retry-After and the methods of Allow from the answer's headers (RFC 9110 §10.2.3, §10.2.1)", () => {
    const body = written(
      {
        mediaType: "application/json",
        carries: { retryAfter: "/retry", allowedMethods: "/allowed" },
      },
      PROBLEM,
      { "Retry-After": "30", allow: "GET, HEAD, OPTIONS" },
    );
    expect(body).toEqual({ retry: 30, allowed: ["GET", "HEAD", "OPTIONS"] });
    // An HTTP-date Retry-After is no count of seconds: the member is left out.
    expect(
      written({ mediaType: "application/json", carries: { retryAfter: "/retry" } }, PROBLEM, {
        "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT",
      }),
    ).toEqual({});
  });

  it("repeats the failure's facts in every item, and gives each its fixed values", () => {
    const body = written(
      {
        mediaType: "application/json",
        carries: {},
        violations: {
          at: "/errors",
          item: { statusString: "/status", message: "/detail" },
          fixed: { "/code": "invalid" },
        },
      },
      { ...PROBLEM, errors: VIOLATIONS.slice(2) },
    );
    expect(body).toEqual({
      errors: [{ code: "invalid", status: "422", detail: "Must be of type integer." }],
    });
  });
});
