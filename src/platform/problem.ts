/**
 * RFC 9457 problem details: the one shape of every error answer.
 */
import type { ErrorBody } from "../contract-language/contract";
import { reasonPhrase } from "../contract-language/status";
import { SERVICE_PATHS } from "./paths";
import { apiHeaders, complete, platformAnswer } from "./security-headers";

export const PROBLEM_MEDIA_TYPE = "application/problem+json";

/**
 * On a problem part 7 answers with an error type of its own body (`ErrorType.body`): how it
 * is written instead of RFC 9457's document. A symbol, so it never reaches the JSON.
 */
export const ERROR_BODY: unique symbol = Symbol("error body");

/** The members RFC 9457 §3.1 defines, plus extension members (§3.2). */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly [extension: string]: unknown;
  readonly [ERROR_BODY]?: ErrorBody;
}

/**
 * Sets `value` at a JSON Pointer (RFC 6901) of `body`, making the objects on the way (an
 * array where the next token is an index: `/errorMessages/0` makes a list of one), and
 * copying those that are there, so a handler's own values are never changed in place.
 */
function setAt(body: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer
    .split("/")
    .slice(1)
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
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

interface Violation {
  readonly in?: unknown;
  readonly pointer?: unknown;
  readonly detail?: unknown;
}

/** The platform's violations (`{ in, pointer, detail }` each), if `errors` is a list of them. */
function violationsOf(errors: unknown): readonly Violation[] | undefined {
  return Array.isArray(errors) &&
    errors.every((v) => typeof v === "object" && v !== null && typeof v.detail === "string")
    ? errors
    : undefined;
}

/**
 * Violations as an object by field: each one's pointer's tokens joined by `.` (the part it
 * is in where it points at the whole part), to its message, or to the list of its messages.
 */
function byField(violations: readonly Violation[], lists: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null);
  for (const { in: part, pointer, detail } of violations) {
    const tokens = String(pointer ?? "")
      .replace(/^#/, "")
      .split("/")
      .slice(1)
      .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
    const field = tokens.length > 0 ? tokens.join(".") : String(part ?? "body");
    const before = fields[field];
    if (lists) fields[field] = [...((before as string[] | undefined) ?? []), detail];
    else fields[field] = before === undefined ? detail : `${before}; ${detail}`;
  }
  return { ...fields };
}

/**
 * A failure as an error type's own body: its members as given, and each fact the platform
 * knows where the type's `carries` puts it; what it has no member for is left out. A
 * handler's own value of a member the violations go to by field is kept.
 */
function ownBody(problem: ProblemDetails, requestId: string, format: ErrorBody): string {
  const { type, title, status, detail, instance: _instance, requestId: _id, ...members } = problem;
  const facts: Record<string, unknown> = { type, title, status, detail, requestId };
  const { carries } = format;
  const { errors, ...rest } = members;
  const violations =
    carries.fieldErrors || carries.fieldErrorLists ? violationsOf(errors) : undefined;
  const carriesErrors = carries.errors !== undefined || violations !== undefined;
  const body: Record<string, unknown> = { ...rest, ...(carriesErrors ? {} : { errors }) };
  if (body.errors === undefined) delete body.errors;
  if (carries.errors) facts.errors = errors;
  if (violations && carries.fieldErrors) facts.fieldErrors = byField(violations, false);
  if (violations && carries.fieldErrorLists) facts.fieldErrorLists = byField(violations, true);
  for (const [fact, pointer] of Object.entries(carries))
    if (pointer !== undefined && facts[fact] !== undefined) setAt(body, pointer, facts[fact]);
  return JSON.stringify(body);
}

/**
 * A problem type of the platform that carries more meaning than its status code, so it has
 * its own `type` URI and a page that documents it (RFC 9457 §4).
 */
export interface ProblemType {
  readonly slug: string;
  /**
   * An absolute `type` URI whose documentation lives elsewhere (a spec's own error type);
   * absent, the type is hosted here, at `/_service/problems/<slug>`.
   */
  readonly uri?: string;
  readonly title: string;
  readonly status: number;
  /** Plain text for the documentation page: when this problem occurs and what to do. */
  readonly description: string;
  /** Extension members this type adds, with what each means. */
  readonly members: Readonly<Record<string, string>>;
  /** The JSON Schema of each extension member, for the OpenAPI document (requestId aside). */
  readonly schemas?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * The `type` URI of a platform problem type. It is a relative reference, resolved against
 * the request URL (RFC 9457 §3.1.1), so the identifier is the same on every deployment and
 * still leads a person to the page that documents it.
 */
export function problemTypeUri(type: ProblemIdentity): string {
  return type.uri ?? `${SERVICE_PATHS.problems}/${type.slug}`;
}

/** Whether this service hosts the type's page (RFC 9457 §3.1.1: a type URI should resolve). */
export function isHosted(type: ProblemType): boolean {
  return type.uri === undefined;
}

/**
 * A problem with no meaning beyond its status code: RFC 9457 §4.2.1 says its type is
 * `about:blank` and its title the status code's reason phrase.
 */
export function statusProblem(status: number, detail: string): ProblemDetails {
  return { type: "about:blank", title: reasonPhrase(status), status, detail };
}

/** What an answer says of its type: no page text, so a Worker need not carry it. */
export type ProblemIdentity = Pick<ProblemType, "slug" | "uri" | "title" | "status">;

/** A problem of one of the platform's own documented types. */
export function typedProblem(
  type: ProblemIdentity,
  detail: string,
  extensions: Readonly<Record<string, unknown>> = {},
): ProblemDetails {
  return {
    type: problemTypeUri(type),
    title: type.title,
    status: type.status,
    detail,
    ...extensions,
  };
}

/**
 * The response for a problem: RFC 9457's document, or the error type's own body where part
 * 7 gives one. `no-store`, because an error answer must not be reused for a later request
 * (RFC 9111 §5.2.2.5; 501 is heuristically cacheable, RFC 9110 §15.1).
 */
export function problemResponse(
  requestId: string,
  problem: ProblemDetails,
  headers?: Readonly<Record<string, string>>,
): Response {
  const format = problem[ERROR_BODY];
  const contentType = format?.mediaType ?? PROBLEM_MEDIA_TYPE;
  const body = format
    ? ownBody(problem, requestId, format)
    : JSON.stringify({ ...problem, requestId });
  if (!headers)
    return platformAnswer(body, problem.status, requestId, {
      contentType,
      cacheControl: "no-store",
    });
  const all = apiHeaders(requestId);
  all["content-type"] = contentType;
  all["cache-control"] = "no-store";
  Object.assign(all, headers);
  return complete(new Response(body, { status: problem.status, headers: all }));
}
