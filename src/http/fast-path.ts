/**
 * The two hottest answers, given before Hono routes the request: part 4's 501 while it
 * declares nothing, and health. Each is static apart from the request id, so its body and
 * headers are built once at load and the request path only fills in the id. They are the
 * same status, headers and bytes the routes give (a test compares both), so this is a
 * shortcut, never a second behaviour.
 */
import { getPath } from "hono/utils/url";
import { SERVICE_PATHS, SERVICE_PREFIX } from "./paths";
import { PROBLEM_MEDIA_TYPE, type ProblemDetails } from "./problem";
import { requestIdFor } from "./request-id";
import { apiHeaders } from "./security-headers";

export type FastPath = (request: Request) => Response | undefined;

/** `notSpecified`: the problem for every request outside /_service, when part 4 declares nothing. */
export function fastPath(options: {
  readonly notSpecified: ProblemDetails | undefined;
  readonly health: { readonly body: string; readonly headers: Readonly<Record<string, string>> };
}): FastPath {
  const { notSpecified, health } = options;
  // `{...problem, requestId}` serialised, with the id spliced in last.
  const problemHead = notSpecified
    ? `${JSON.stringify(notSpecified).slice(0, -1)},"requestId":`
    : "";
  const problemHeaders: [string, string][] = [
    ["content-type", PROBLEM_MEDIA_TYPE],
    ["cache-control", "no-store"],
  ];
  const status = notSpecified?.status ?? 501;
  const healthHeaders = Object.entries(health.headers);
  return function fastPath(request) {
    const method = request.method;
    // The path as the router sees it (percent-decoded where RFC 3986 §6.2.2.2 allows).
    const path = getPath(request);
    if (path === SERVICE_PATHS.health && (method === "GET" || method === "HEAD")) {
      const headers = apiHeaders(requestIdFor(request), healthHeaders);
      return new Response(method === "HEAD" ? null : health.body, { headers });
    }
    if (!notSpecified || path === SERVICE_PREFIX || path.startsWith(`${SERVICE_PREFIX}/`)) {
      return undefined;
    }
    const requestId = requestIdFor(request);
    const headers = apiHeaders(requestId, problemHeaders);
    const body = method === "HEAD" ? null : `${problemHead}${JSON.stringify(requestId)}}`;
    return new Response(body, { status, headers });
  };
}
