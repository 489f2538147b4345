/**
 * Part 9 in front of an operation: the version a request resolves to (400 when unknown or
 * missing where required, 410 past its sunset, 404 when the operation is not in it), the
 * operation's own retirement (410 past its sunset), and the Deprecation, Sunset and Link
 * headers (RFC 9745, RFC 8594) on every answer of a deprecated version or operation.
 */
import type { Context, Handler } from "hono";
import type { Operation } from "../../contract-language/contract";
import {
  NOT_IN_VERSION,
  OPERATION_GONE,
  UNSUPPORTED_VERSION,
  VERSION_GONE,
} from "../../contract-language/problem-catalogue";
import type { AppEnv } from "../../platform/env";
import { problemResponse, typedProblem } from "../../platform/problem";
import {
  deprecationHeaders,
  isSunset,
  requestedVersion,
  retirementOf,
  type VersionPlan,
  versionsOf,
} from "./plan";

/** Serves one request for an operation, under the version part 9 resolved it to. */
export type ServeOperation = (c: Context<AppEnv>, version: string | undefined) => Promise<Response>;

/**
 * The route of operation `id`: `serveFor(version)` gives what serves it in a version (its
 * variant's plan); without negotiated versions or a retirement, that is the route itself.
 */
export function negotiatedRoute(
  id: string,
  operation: Operation,
  plan: VersionPlan | undefined,
  serveFor: (version: string | undefined) => ServeOperation,
): Handler<AppEnv> {
  const retirement = retirementOf(operation);
  // `serveFor` plans on first use: calling it here would plan every operation at start-up.
  if (!plan && !retirement) return (c) => serveFor(undefined)(c, undefined);
  const available = plan ? versionsOf(plan, operation.versions) : [];
  // Read at each request: a version's sunset may pass while the isolate lives.
  const supported = () => plan?.order.filter((v) => !isSunset(plan.versions[v], Date.now())) ?? [];

  /** The version a request resolves to, or the problem that refuses it. */
  const resolve = (c: Context<AppEnv>, requestId: string, vp: VersionPlan) => {
    const asked = requestedVersion(vp.placement, c.req.raw);
    const refuse = (detail: string) =>
      problemResponse(
        requestId,
        typedProblem(UNSUPPORTED_VERSION, detail, { supportedVersions: supported() }),
      );
    // The value asked for is never echoed: only a declared identifier is named back.
    if (asked === undefined && vp.required)
      return refuse("This service requires the request to state a version of the interface.");
    const version = asked ?? vp.current;
    const declared = vp.versions[version];
    if (!declared || !Object.hasOwn(vp.versions, version))
      return refuse("The request asks for a version of the interface this service does not have.");
    if (isSunset(declared, Date.now()))
      return problemResponse(
        requestId,
        typedProblem(VERSION_GONE, `Version ${version} is past its sunset.`, {
          version,
          sunset: declared.sunset,
          supportedVersions: supported(),
        }),
        deprecationHeaders(declared),
      );
    if (!available.includes(version))
      return problemResponse(
        requestId,
        typedProblem(NOT_IN_VERSION, `Operation ${id} is not in version ${version}.`, {
          operationId: id,
          availableIn: available,
        }),
      );
    return { version, declared };
  };

  // The headers of each version's answers, worked out on its first request.
  const headersOf = new Map<string | undefined, Record<string, string>>();
  return async function versionedRoute(c: Context<AppEnv>) {
    const requestId = c.get("requestId");
    const resolved = plan ? resolve(c, requestId, plan) : undefined;
    if (resolved instanceof Response) return resolved;
    let headers = headersOf.get(resolved?.version);
    if (!headers) {
      headers = deprecationHeaders(resolved?.declared, retirement);
      headersOf.set(resolved?.version, headers);
    }
    if (isSunset(retirement, Date.now()))
      return problemResponse(
        requestId,
        typedProblem(OPERATION_GONE, `Operation ${id} is past its sunset.`, {
          operationId: id,
          sunset: retirement?.sunset,
        }),
        headers,
      );
    const response = await serveFor(resolved?.version)(c, resolved?.version);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
}
