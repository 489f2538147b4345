/**
 * Schema violations as the `errors` of a 422 problem: where (`in` the request location, and a
 * JSON Pointer in the URI-fragment form of RFC 9457 §3's example) and what, in words made
 * from the schema alone. The client's values are never quoted back.
 */
import type { $ZodIssue } from "zod/v4/core";
import { VIOLATION_KEYWORD } from "../../platform/error-body";

/** The request locations a schema can be declared for (OpenAPI's `in` vocabulary, plus body). */
export type RequestLocation = "path" | "query" | "header" | "cookie" | "body";

export interface ValidationError {
  readonly in: RequestLocation;
  readonly pointer: string;
  readonly detail: string;
  readonly [VIOLATION_KEYWORD]?: string;
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

/** zod's names for types, in JSON Schema's words where they differ ("int" is "integer"). */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  int: "integer",
  number: "number",
  nan: "number",
  bigint: "integer",
  date: "date",
  file: "file",
  array: "array",
  object: "object",
  string: "string",
  boolean: "boolean",
  null: "null",
};

/**
 * zod's names for string formats, in JSON Schema's words where they differ (2020-12 §7.3):
 * `z.guid()` checks what JSON Schema calls a `uuid`, `z.url()` a `uri`.
 */
const FORMAT_WORDS: Readonly<Record<string, string>> = {
  guid: "uuid",
  url: "uri",
  datetime: "date-time",
};

/** Sentinel for "the issue's path leads nowhere in the input": the member was absent. */
const ABSENT = Symbol("absent");

/** The value at an issue's path, or ABSENT when a member on the way is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return ABSENT;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node === undefined ? ABSENT : node;
}

/**
 * A description of what the schema expected, from the issue's schema-side fields, and
 * from the input only whether the member was there and whether it was null: a client can
 * act on "required", "must not be null" and "must be of type integer" differently. The
 * value itself is never quoted.
 */
export function describeIssue(issue: $ZodIssue, input?: unknown): string {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.expected === "nonoptional" || issue.expected === "undefined") return "Is required.";
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      if (input !== undefined) {
        const value = valueAt(input, issue.path);
        if (value === ABSENT) return "Is required.";
        if (value === null) return `Must not be null: must be of type ${expected}.`;
      }
      return `Must be of type ${expected}.`;
    }
    case "too_small":
      return `Must be ${issue.exact ? "exactly" : bound(issue.minimum, issue.inclusive, true)}${issue.exact ? ` ${issue.minimum}` : ""}${sizeUnit(issue.origin)}.`;
    case "too_big":
      return `Must be ${issue.exact ? "exactly" : bound(issue.maximum, issue.inclusive, false)}${issue.exact ? ` ${issue.maximum}` : ""}${sizeUnit(issue.origin)}.`;
    case "invalid_format":
      return issue.format === "regex"
        ? "Does not match the required pattern."
        : `Must be a valid ${FORMAT_WORDS[issue.format] ?? issue.format}.`;
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

/** What an issue's size bound is of: a string's length, a list's items, an object's members, a number. */
function sized(origin: string, min: boolean): string {
  const end = min ? "min" : "max";
  if (origin === "string") return `${end}Length`;
  if (origin === "array" || origin === "set") return `${end}Items`;
  if (origin === "object" || origin === "map") return `${end}Properties`;
  return min ? "minimum" : "maximum";
}

/**
 * Which check an issue failed, as the JSON Schema validation keyword (2020-12, §6 and
 * Core §10) that states it: what an API's own violation item carries as its `type` or
 * `code` (FastAPI's `loc`, `msg`, `type`).
 */
function issueKeyword(issue: $ZodIssue, input?: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "nonoptional" ||
        issue.expected === "undefined" ||
        (input !== undefined && valueAt(input, issue.path) === ABSENT)
        ? "required"
        : "type";
    case "too_small":
      return issue.inclusive === false && issue.origin === "number"
        ? "exclusiveMinimum"
        : sized(issue.origin, true);
    case "too_big":
      return issue.inclusive === false && issue.origin === "number"
        ? "exclusiveMaximum"
        : sized(issue.origin, false);
    case "invalid_format":
      return issue.format === "regex" ? "pattern" : "format";
    case "not_multiple_of":
      return "multipleOf";
    case "unrecognized_keys":
      return "additionalProperties";
    case "invalid_union":
      return "anyOf";
    case "invalid_key":
      return "propertyNames";
    case "invalid_element":
      return "items";
    case "invalid_value":
      return issue.values.length === 1 ? "const" : "enum";
    case "custom":
      return "custom";
  }
}

/**
 * A member name a violation may name (the member at fault: one the schema does not allow):
 * a plain identifier of at most 64 characters, so an answer never carries markup, control
 * characters or a long string a client chose (OWASP: never reflect input). Any other name
 * is counted at its object's pointer instead.
 */
const NAMEABLE = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** One violation per member the schema does not allow, each at its own pointer, where named. */
function unrecognised(
  location: RequestLocation,
  issue: Extract<$ZodIssue, { code: "unrecognized_keys" }>,
): ValidationError[] {
  const named = issue.keys.filter((key) => NAMEABLE.test(key));
  const others = issue.keys.length - named.length;
  return [
    ...named.map((key) => ({
      in: location,
      pointer: jsonPointer([...issue.path, key]),
      detail: "Is not a member the schema allows.",
      [VIOLATION_KEYWORD]: "additionalProperties",
    })),
    ...(others > 0
      ? [
          {
            in: location,
            pointer: jsonPointer(issue.path),
            detail: `Has ${others} member${others === 1 ? "" : "s"} the schema does not allow.`,
            [VIOLATION_KEYWORD]: "additionalProperties",
          },
        ]
      : []),
  ];
}

export function validationErrors(
  location: RequestLocation,
  issues: readonly $ZodIssue[],
  input: unknown,
): ValidationError[] {
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? unrecognised(location, issue)
      : [
          {
            in: location,
            pointer: jsonPointer(issue.path),
            detail: describeIssue(issue, input),
            [VIOLATION_KEYWORD]: issueKeyword(issue, input),
          },
        ],
  );
}
