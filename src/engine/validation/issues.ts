/**
 * Schema violations as the `errors` of a 422 problem: where (`in` the request part, and a
 * JSON Pointer in the URI-fragment form of RFC 9457 §3's example) and what, in words made
 * from the schema alone. The client's values are never quoted back.
 */
import type { $ZodIssue } from "zod/v4/core";

/** The request parts a schema can be declared for (OpenAPI's `in` vocabulary, plus body). */
export type RequestPart = "path" | "query" | "header" | "cookie" | "body";

export interface ValidationError {
  readonly in: RequestPart;
  readonly pointer: string;
  readonly detail: string;
}

/** RFC 6901 §3 escaping, then §6 URI fragment form. */
export function jsonPointer(path: readonly PropertyKey[]): string {
  const tokens = path.map((key) =>
    encodeURIComponent(String(key).replaceAll("~", "~0").replaceAll("/", "~1")),
  );
  return `#${tokens.map((t) => `/${t}`).join("")}`;
}

const bound = (value: number | bigint, inclusive: boolean | undefined, below: boolean): string =>
  `${below ? (inclusive === false ? "more than" : "at least") : inclusive === false ? "less than" : "at most"} ${value}`;

function sizeUnit(origin: string): string {
  if (origin === "string") return " characters";
  if (origin === "array" || origin === "set") return " items";
  if (origin === "file") return " bytes";
  return "";
}

/** A description of what the schema expected, from the issue's schema-side fields only. */
export function describeIssue(issue: $ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "nonoptional" || issue.expected === "undefined"
        ? "Is required."
        : `Must be of type ${issue.expected}.`;
    case "too_small":
      return `Must be ${issue.exact ? "exactly" : bound(issue.minimum, issue.inclusive, true)}${issue.exact ? ` ${issue.minimum}` : ""}${sizeUnit(issue.origin)}.`;
    case "too_big":
      return `Must be ${issue.exact ? "exactly" : bound(issue.maximum, issue.inclusive, false)}${issue.exact ? ` ${issue.maximum}` : ""}${sizeUnit(issue.origin)}.`;
    case "invalid_format":
      return issue.format === "regex"
        ? "Does not match the required pattern."
        : `Must be a valid ${issue.format}.`;
    case "not_multiple_of":
      return `Must be a multiple of ${issue.divisor}.`;
    case "unrecognized_keys":
      return `Has ${issue.keys.length} member${issue.keys.length === 1 ? "" : "s"} the schema does not allow.`;
    case "invalid_union":
      return "Does not match any of the allowed forms.";
    case "invalid_key":
      return "Has a key that is not allowed.";
    case "invalid_element":
      return "Has an element that is not allowed.";
    case "invalid_value":
      return issue.values.length === 1
        ? `Must be ${JSON.stringify(issue.values[0])}.`
        : `Must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}.`;
    case "custom":
      // A refinement's message is written by the contract's author, not by the client.
      return issue.message || "Is not valid.";
  }
}

export function validationErrors(
  part: RequestPart,
  issues: readonly $ZodIssue[],
): ValidationError[] {
  return issues.map((issue) => ({
    in: part,
    pointer: jsonPointer(issue.path),
    detail: describeIssue(issue),
  }));
}
