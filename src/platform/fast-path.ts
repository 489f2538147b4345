/**
 * The two hottest answers of a Worker whose part 4 declares nothing, given before Hono
 * routes the request: the 501 every request outside /_service gets, and health. Each is
 * static apart from the request id, so its body is serialised once at load and the request
 * path only fills in the id. They are the same status, headers and bytes the routes give
 * (a test compares both), so this is a shortcut, never a second behaviour.
 */
import { getPath } from "hono/utils/url";
import type { CorsEnv } from "./cors";
import { SERVICE_PATHS, SERVICE_PREFIX } from "./paths";
import { PROBLEM_MEDIA_TYPE, type ProblemDetails } from "./problem";
import { requestIdFor } from "./request-id";
import { type AnswerKind, apiHeaders, platformAnswer } from "./security-headers";

/** The shortcut: an answer, or undefined for the router to give one. */
type FastPath = (request: Request, env?: CorsEnv) => Response | undefined;

/** `notSpecified`: the problem for every request outside /_service (part 4 declares nothing). */
export function fastPath(options: {
  readonly notSpecified: ProblemDetails;
  readonly health: { readonly body: string; readonly headers: Readonly<Record<string, string>> };
}): FastPath {
  const { notSpecified, health } = options;
  // `{...problem, requestId}` serialised, with the id spliced in last.
  const problemHead = `${JSON.stringify(notSpecified).slice(0, -1)},"requestId":`;
  const status = notSpecified.status;
  const problemKind: AnswerKind = { contentType: PROBLEM_MEDIA_TYPE, cacheControl: "no-store" };
  // Health's headers as an answer kind, when they are only its media type and caching.
  const { "content-type": contentType, "cache-control": cacheControl, ...other } = health.headers;
  const healthKind: AnswerKind | undefined =
    Object.keys(other).length === 0 ? { contentType, cacheControl } : undefined;
  return function fastPath(request, env) {
    // While CORS is on, the routes answer: the platform middleware adds its headers.
    if (env?.CORS_ALLOWED_ORIGINS) return undefined;
    const method = request.method;
    // The path as the router sees it (percent-decoded where RFC 3986 §6.2.2.2 allows).
    const path = getPath(request);
    if (path === SERVICE_PATHS.health && (method === "GET" || method === "HEAD")) {
      const body = method === "HEAD" ? null : health.body;
      if (healthKind) return platformAnswer(body, 200, requestIdFor(request), healthKind);
      const headers = apiHeaders(requestIdFor(request));
      Object.assign(headers, health.headers);
      return new Response(body, { headers });
    }
    if (path === SERVICE_PREFIX || path.startsWith(`${SERVICE_PREFIX}/`)) {
      return undefined;
    }
    const requestId = requestIdFor(request);
    const body = method === "HEAD" ? null : `${problemHead}${JSON.stringify(requestId)}}`;
    return platformAnswer(body, status, requestId, problemKind);
  };
}
