/**
 * The spec's own error model over the platform's failures (part 7): an error type that
 * `presents` a platform failure answers it, with its own status, type URI and title; the
 * platform's detail and members (the request id, a 422's violations, …) stay, and so do the
 * headers the failure carries (`Allow`, `WWW-Authenticate`, `Retry-After`). Without such a
 * type, the platform's own answer stands.
 */
import { globalRegistry } from "zod/v4/core";
import {
  type Contract,
  type ErrorType,
  PLATFORM_PROBLEMS,
  type PlatformProblem,
  type Schema,
} from "../domain/contract";
import type { ProblemDetails, ProblemType } from "../platform/problem";
import { AS_IS, errorTypeUri, type ProblemPresenter } from "../platform/problem-presenter";
import {
  ENGINE_PROBLEM_SLUGS,
  INTERFACE_NOT_SPECIFIED,
  REQUEST_ID_MEMBER,
} from "../platform/problem-types";

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

function checkErrorType(name: string, error: ErrorType): void {
  const fail = (why: string) => new Error(`error type ${name}: ${why}`);
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw fail("the name must match [A-Za-z0-9._-]+");
  if (!Number.isInteger(error.status) || error.status < 400 || error.status > 599)
    throw fail("status must be a client or server error (400 to 599)");
  if (error.title.trim() === "") throw fail("title is empty");
  if (error.type !== undefined) {
    let absolute = false;
    try {
      absolute = new URL(error.type).protocol !== "";
    } catch {}
    if (!absolute) throw fail("type must be an absolute URI (RFC 9457 §3.1.1)");
  }
  for (const kind of error.presents ?? [])
    if (!(PLATFORM_PROBLEMS as readonly string[]).includes(kind))
      throw fail(`${String(kind)} is not one of the platform's failures`);
  for (const member of Object.keys(error.members ?? {}))
    if (["type", "title", "status", "detail", "instance", "requestId"].includes(member))
      throw fail(`member ${member} is one RFC 9457 or the platform defines`);
}

/** What a member of an error type means: its schema's description, where it has one. */
function describe(schema: Schema): string {
  return (
    globalRegistry.get(schema)?.description ??
    "Declared by the specification; its schema is in the OpenAPI document."
  );
}

/**
 * Part 7's error types, as problem types with their pages (hosted here unless the spec
 * gives an absolute URI). Part 7 may not take a name the platform or the engine uses.
 */
export function errorProblemTypes(contract: Contract): ProblemType[] {
  const types: ProblemType[] = [];
  const reserved = new Set<string>([INTERFACE_NOT_SPECIFIED.slug, ...ENGINE_PROBLEM_SLUGS]);
  for (const [slug, error] of Object.entries(contract.errors)) {
    if (reserved.has(slug)) throw new Error(`error type ${slug}: the platform uses that name`);
    checkErrorType(slug, error);
    const members: Record<string, string> = {};
    for (const [member, schema] of Object.entries(error.members ?? {}))
      members[member] = describe(schema);
    types.push({
      slug,
      ...(error.type ? { uri: error.type } : {}),
      title: error.title,
      status: error.status,
      description: error.description ?? "",
      members: { ...members, ...REQUEST_ID_MEMBER },
    });
  }
  return types;
}
