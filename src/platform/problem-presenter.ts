/**
 * The spec's own error model over the platform's failures (part 7): an error type that
 * `presents` a platform failure answers it, with its own status, type URI and title; the
 * platform's detail and members (the request id, a 422's violations, …) stay, and so do the
 * headers the failure carries (`Allow`, `WWW-Authenticate`, `Retry-After`). Without such a
 * type, the platform's own answer stands.
 */
import type { Contract, PlatformProblem } from "../domain/contract";
import { SERVICE_PATHS } from "./paths";
import type { ProblemDetails } from "./problem";

/** How the platform presents one of its failures. */
export type ProblemPresenter = (kind: PlatformProblem, problem: ProblemDetails) => ProblemDetails;

/** The platform's own answers, unchanged. */
export const AS_IS: ProblemPresenter = (_kind, problem) => problem;

/** The `type` URI of a part 7 error type: the one the spec gives, or the page hosted here. */
export function errorTypeUri(name: string, type: { readonly type?: string }): string {
  return type.type ?? `${SERVICE_PATHS.problems}/${name}`;
}

/** Which part 7 error type presents each platform failure, by its name. */
export function presentedBy(contract: Contract): ReadonlyMap<PlatformProblem, string> {
  const presented = new Map<PlatformProblem, string>();
  for (const [name, error] of Object.entries(contract.errors)) {
    for (const kind of error.presents ?? []) {
      const other = presented.get(kind);
      if (other !== undefined)
        throw new Error(`error type ${name}: ${other} already presents ${kind}`);
      presented.set(kind, name);
    }
  }
  return presented;
}

/** The members the platform fills in each failure it answers with (besides requestId). */
const FILLED: Readonly<Record<PlatformProblem, readonly string[]>> = {
  "malformed-request": [],
  "validation-failed": ["errors"],
  "authentication-required": ["security"],
  "insufficient-scope": ["requiredScopes"],
  "not-found": [],
  "method-not-allowed": [],
  "not-acceptable": ["availableMediaTypes"],
  "content-too-large": ["maxBytes"],
  "unsupported-media-type": ["acceptedMediaTypes"],
  "rate-limit-exceeded": ["limit", "maxRequests", "periodSeconds"],
  "internal-error": [],
};

export function problemPresenter(contract: Contract): ProblemPresenter {
  // An error type that presents a failure must not require a member the platform cannot fill.
  for (const [kind, name] of presentedBy(contract)) {
    for (const [member, schema] of Object.entries(contract.errors[name]?.members ?? {})) {
      if (schema._zod.optout !== "optional" && !FILLED[kind].includes(member))
        throw new Error(
          `error type ${name}: it presents ${kind}, whose answer has no member ${member}; declare it optional`,
        );
    }
  }
  const presented = new Map<PlatformProblem, Pick<ProblemDetails, "type" | "title" | "status">>();
  for (const [kind, name] of presentedBy(contract)) {
    const error = contract.errors[name];
    if (error)
      presented.set(kind, {
        type: errorTypeUri(name, error),
        title: error.title,
        status: error.status,
      });
  }
  if (presented.size === 0) return AS_IS;
  return (kind, problem) => {
    const as = presented.get(kind);
    return as ? { ...problem, ...as } : problem;
  };
}
