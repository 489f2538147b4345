/**
 * A failure written as an error type's own body (part 7's `ErrorType.body`), not as RFC
 * 9457's document: the members it declares, its fixed values, and each fact the platform
 * knows where the type says it goes, at any depth (JSON Pointers, RFC 6901), the
 * violations in the API's own item shape included. What the body has no member for is
 * left out; nothing is guessed.
 */
import type { ErrorBody, ErrorFact, ViolationFact } from "../contract-language/contract";

/**
 * On a violation of the platform's list, which check failed, as the JSON Schema validation
 * keyword (2020-12) names it. A symbol, so the platform's own `{ in, pointer, detail }`
 * items never show it.
 */
export const VIOLATION_KEYWORD: unique symbol = Symbol("violation keyword");

/** One violation as the platform reports it. */
export interface Violation {
  readonly in?: unknown;
  readonly pointer?: unknown;
  readonly detail?: unknown;
  readonly [VIOLATION_KEYWORD]?: string;
}

/** The tokens of a JSON Pointer (RFC 6901), plain (`/a/0`) or in URI fragment form (`#/a/0`). */
function pointerTokens(pointer: string): string[] {
  const fragment = pointer.startsWith("#");
  return pointer
    .replace(/^#/, "")
    .split("/")
    .slice(1)
    .map((t) => {
      let token = t;
      if (fragment)
        try {
          token = decodeURIComponent(t);
        } catch {}
      return token.replaceAll("~1", "/").replaceAll("~0", "~");
    });
}

const escapeToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * Sets `value` at a JSON Pointer (RFC 6901) of `body`, making the objects on the way (an
 * array where the next token is an index: `/errorMessages/0` makes a list of one), and
 * copying those that are there, so a handler's own values are never changed in place.
 */
function setAt(body: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointerTokens(pointer);
  let node = body;
  for (const [i, token] of tokens.entries()) {
    if (token === "__proto__" || token === "constructor") return;
    if (i === tokens.length - 1) {
      node[token] = value;
      return;
    }
    const next = node[token];
    const made =
      next === null || typeof next !== "object"
        ? /^\d+$/.test(tokens[i + 1] ?? "")
          ? []
          : {}
        : Array.isArray(next)
          ? [...next]
          : { ...next };
    node[token] = made;
    node = made as Record<string, unknown>;
  }
}

/** The platform's violations (`{ in, pointer, detail }` each), if `errors` is a list of them. */
function violationsOf(errors: unknown): readonly Violation[] | undefined {
  return Array.isArray(errors) &&
    errors.every((v) => typeof v === "object" && v !== null && typeof v.detail === "string")
    ? errors
    : undefined;
}

/** A token as a dotted path writes it: `.name`, `[0]`, or `["a b"]` where it is no identifier. */
const pathStep = (token: string, first: boolean) =>
  /^\d+$/.test(token)
    ? `[${token}]`
    : /^[A-Za-z_$][\w$-]*$/.test(token)
      ? `${first ? "" : "."}${token}`
      : `[${JSON.stringify(token)}]`;

/** Each fact of one violation, as an item of the API's own list may hold it. */
function violationFacts(v: Violation): Record<ViolationFact, unknown> {
  // A failure of no one place (a 404, a 401) says where it is nowhere.
  if (v.in === undefined)
    return {
      message: v.detail,
      in: undefined,
      pointer: undefined,
      path: undefined,
      segments: undefined,
      stringSegments: undefined,
      member: undefined,
      keyword: v[VIOLATION_KEYWORD],
    };
  const tokens = pointerTokens(String(v.pointer ?? "#"));
  const part = String(v.in);
  return {
    message: v.detail,
    in: part,
    pointer: tokens.map((t) => `/${escapeToken(t)}`).join(""),
    path: tokens.map((t, i) => pathStep(t, i === 0)).join(""),
    segments: [part, ...tokens.map((t) => (/^\d+$/.test(t) ? Number(t) : t))],
    stringSegments: [part, ...tokens],
    member: tokens.findLast((t) => !/^\d+$/.test(t)),
    keyword: v[VIOLATION_KEYWORD],
  };
}

/**
 * Violations as an object by field: each one's pointer's tokens joined by `.` (the part it
 * is in where it points at the whole part), to its message, or to the list of its messages.
 */
function byField(violations: readonly Violation[], lists: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null);
  for (const { in: part, pointer, detail } of violations) {
    const tokens = pointerTokens(String(pointer ?? "#"));
    const field = tokens.length > 0 ? tokens.join(".") : String(part ?? "body");
    const before = fields[field];
    if (lists) fields[field] = [...((before as string[] | undefined) ?? []), detail];
    else fields[field] = before === undefined ? detail : `${before}; ${detail}`;
  }
  return { ...fields };
}

/** The facts of a failure every answer may carry, from the problem and the answer's headers. */
interface Failure {
  readonly type: unknown;
  readonly title: unknown;
  readonly status: unknown;
  readonly detail: unknown;
  readonly requestId: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

function failureFacts(f: Failure): Partial<Record<ErrorFact, unknown>> {
  const header = (name: string) =>
    Object.entries(f.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  const retry = header("retry-after");
  const allow = header("allow");
  return {
    type: f.type,
    title: f.title,
    status: f.status,
    statusString: typeof f.status === "number" ? String(f.status) : undefined,
    detail: f.detail,
    requestId: f.requestId,
    timestamp: new Date().toISOString(),
    retryAfter: retry !== undefined && /^\d+$/.test(retry) ? Number(retry) : undefined,
    allowedMethods:
      allow === undefined
        ? undefined
        : allow
            .split(",")
            .map((m) => m.trim())
            .filter((m) => m !== ""),
  };
}

/** A violation as one item of the API's own list: its fixed values, then its facts. */
function violationItem(
  v: Violation,
  list: NonNullable<ErrorBody["violations"]>,
  failure: Partial<Record<ErrorFact, unknown>>,
): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [pointer, value] of Object.entries(list.fixed ?? {})) setAt(item, pointer, value);
  const facts: Record<string, unknown> = { ...failure, ...violationFacts(v) };
  for (const [fact, pointer] of Object.entries(list.item))
    if (pointer !== undefined && facts[fact] !== undefined) setAt(item, pointer, facts[fact]);
  return item;
}

/**
 * A failure as an error type's own body: its members as given, its fixed values, and each
 * fact the platform knows where the type's `carries` puts it; its violations where its
 * list goes, in its item shape. What it has no member for is left out. A handler's own
 * value of a member the violations go to by field is kept.
 */
export function ownBody(
  problem: Readonly<Record<string, unknown>>,
  requestId: string,
  format: ErrorBody,
  headers?: Readonly<Record<string, string>>,
): string {
  const {
    type,
    title,
    status,
    detail,
    instance: _instance,
    requestId: _id,
    supportedVersions,
    ...members
  } = problem;
  const facts: Record<string, unknown> = failureFacts({
    type,
    title,
    status,
    detail,
    requestId,
    headers,
  });
  facts.supportedVersions = supportedVersions;
  const { carries } = format;
  const { errors, ...rest } = members;
  const violations =
    carries.fieldErrors || carries.fieldErrorLists || format.violations
      ? violationsOf(errors)
      : undefined;
  const carriesErrors = carries.errors !== undefined || violations !== undefined;
  const body: Record<string, unknown> = { ...rest, ...(carriesErrors ? {} : { errors }) };
  if (body.errors === undefined) delete body.errors;
  for (const [pointer, value] of Object.entries(format.fixed ?? {})) setAt(body, pointer, value);
  if (carries.errors) facts.errors = errors;
  if (violations && carries.fieldErrors) facts.fieldErrors = byField(violations, false);
  if (violations && carries.fieldErrorLists) facts.fieldErrorLists = byField(violations, true);
  for (const [fact, pointer] of Object.entries(carries))
    if (pointer !== undefined && facts[fact] !== undefined) setAt(body, pointer, facts[fact]);
  const list = format.violations;
  if (list && violations)
    setAt(
      body,
      list.at,
      violations.map((v) => violationItem(v, list, facts)),
    );
  return JSON.stringify(body);
}
