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
import { apiHeaders } from "./security-headers";

/** The shortcut: an answer, or undefined for the router to give one. */
export type FastPath = (request: Request, env?: CorsEnv) => Response | undefined;

/** `notSpecified`: the problem for every request outside /_service (part 4 declares nothing). */
export function fastPath(options: {
  readonly notSpecified: ProblemDetails;
  readonly health: { readonly body: string; readonly headers: Readonly<Record<string, string>> };
}): FastPath {
  const { notSpecified, health } = options;
  // `{...problem, requestId}` serialised, with the id spliced in last.
  const problemHead = `${JSON.stringify(notSpecified).slice(0, -1)},"requestId":`;
  const status = notSpecified.status;
  return function fastPath(request, env) {
    // While CORS is on, the routes answer: the platform middleware adds its headers.
    if (env?.CORS_ALLOWED_ORIGINS) return undefined;
    const method = request.method;
    // The path as the router sees it (percent-decoded where RFC 3986 §6.2.2.2 allows).
    const path = getPath(request);
    if (path === SERVICE_PATHS.health && (method === "GET" || method === "HEAD")) {
      const headers = apiHeaders(requestIdFor(request));
      Object.assign(headers, health.headers);
      return new Response(method === "HEAD" ? null : health.body, { headers });
    }
    if (path === SERVICE_PREFIX || path.startsWith(`${SERVICE_PREFIX}/`)) {
      return undefined;
    }
    const requestId = requestIdFor(request);
    const headers = apiHeaders(requestId);
    headers["content-type"] = PROBLEM_MEDIA_TYPE;
    headers["cache-control"] = "no-store";
    const body = method === "HEAD" ? null : `${problemHead}${JSON.stringify(requestId)}}`;
    return new Response(body, { status, headers });
  };
}
