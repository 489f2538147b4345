/**
 * Part 9 in front of an operation: the version a request resolves to (400 when unknown or
 * missing where required, 410 past its sunset, 404 when the operation is not in it), the
 * operation's own retirement (410 past its sunset), and the Deprecation, Sunset and Link
 * headers (RFC 9745, RFC 8594) on every answer of a deprecated version or operation. The
 * operation's model runs it as its first step, where part 9 or a retirement applies.
 */
import type { Context } from "hono";
import type { Operation } from "../../contract-language/contract";
import {
  NOT_IN_VERSION,
  OPERATION_GONE,
  UNSUPPORTED_VERSION,
  VERSION_GONE,
} from "../../contract-language/problem-catalogue";
import type { AppEnv } from "../../platform/env";
import { typedProblem } from "../../platform/problem";
import type { Refusal } from "../refusal";
import {
  deprecationHeaders,
  isSunset,
  planVersions,
  requestedVersion,
  retirementOf,
  shapeIndex,
  type VersionPlan,
  versionFields,
  versionsOf,
} from "./plan";

/** The version a request is served under, and the headers each of its answers carries. */
interface Negotiated {
  readonly version: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

/** Resolves a request's version, or refuses it. */
export type VersionGate = (c: Context<AppEnv>) => Negotiated | Refusal;

/**
 * The gate of operation `id`; `undefined` when there is nothing to negotiate (no part 9)
 * and no retirement, so such an operation has no version step at all.
 */
function versionGate(
  id: string,
  operation: Operation,
  plan: VersionPlan | undefined,
): VersionGate | undefined {
  const retirement = retirementOf(operation);
  if (!plan && !retirement) return undefined;
  const available = plan ? versionsOf(plan, operation.versions) : [];
  // Read at each request: a version's sunset may pass while the isolate lives.
  const supported = () => plan?.order.filter((v) => !isSunset(plan.versions[v], Date.now())) ?? [];
  const refuse = (detail: string): Refusal => ({
    kind: "unsupported-version",
    problem: typedProblem(UNSUPPORTED_VERSION, detail, { supportedVersions: supported() }),
  });

  /** The version a request resolves to, or the refusal. */
  const resolve = (c: Context<AppEnv>, vp: VersionPlan) => {
    const asked = requestedVersion(vp.placement, c.req.raw);
    // The value asked for is never echoed: only a declared identifier is named back.
    if (asked === undefined && vp.required)
      return refuse("This service requires the request to state a version of the interface.");
    const version = asked ?? vp.current;
    const declared = vp.versions[version];
    if (!declared || !Object.hasOwn(vp.versions, version))
      return refuse("The request asks for a version of the interface this service does not have.");
    if (isSunset(declared, Date.now()))
      return {
        kind: "version-gone",
        problem: typedProblem(VERSION_GONE, `Version ${version} is past its sunset.`, {
          version,
          sunset: declared.sunset,
          supportedVersions: supported(),
        }),
        headers: deprecationHeaders(declared),
      } satisfies Refusal;
    if (!available.includes(version))
      return {
        kind: "not-in-version",
        problem: typedProblem(NOT_IN_VERSION, `Operation ${id} is not in version ${version}.`, {
          operationId: id,
          availableIn: available,
        }),
      } satisfies Refusal;
    return { version, declared };
  };

  // The headers of each version's answers, worked out on its first request.
  const headersOf = new Map<string | undefined, Record<string, string>>();
  return (c) => {
    const resolved = plan ? resolve(c, plan) : undefined;
    if (resolved && "problem" in resolved) return resolved;
    let headers = headersOf.get(resolved?.version);
    if (!headers) {
      headers = deprecationHeaders(resolved?.declared, retirement);
      headersOf.set(resolved?.version, headers);
    }
    if (isSunset(retirement, Date.now()))
      return {
        kind: "operation-gone",
        problem: typedProblem(OPERATION_GONE, `Operation ${id} is past its sunset.`, {
          operationId: id,
          sunset: retirement?.sunset,
        }),
        headers,
      };
    return { version: resolved?.version, headers };
  };
}

/**
 * Part 9 and dated deprecations as the serving engine uses them (src/engine/features.ts): in a
 * Worker only when the contract negotiates versions or dates a deprecation.
 */
export const VERSIONS_FEATURE = {
  plan: planVersions,
  gate: versionGate,
  shapeIndex,
  fields: versionFields,
} as const;

export type VersionsFeature = typeof VERSIONS_FEATURE;
