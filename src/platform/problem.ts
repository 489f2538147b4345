/**
 * RFC 9457 problem details: the one shape of every error answer.
 */
import type { ErrorBody } from "../contract-language/contract";
import { reasonPhrase } from "../contract-language/status";
import { ownBody } from "./error-body";
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
type ProblemIdentity = Pick<ProblemType, "slug" | "uri" | "title" | "status">;

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
    ? ownBody(problem, requestId, format, headers)
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
