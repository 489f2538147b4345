/**
 * The platform's own problem types: those whose meaning goes beyond the status code.
 * Each has a page under `/_service/problems/` (RFC 9457 §3.1.1: the type URI should
 * resolve to human-readable documentation).
 */
import { globalRegistry } from "zod/v4/core";
import { type Contract, type ErrorType, PLATFORM_PROBLEMS, type Schema } from "../domain/contract";
import type { ProblemType } from "./problem";

/** The member every platform problem carries. */
export const REQUEST_ID_MEMBER = {
  requestId: "The id of the request, also sent as the X-Request-Id header.",
};

export const INTERFACE_NOT_SPECIFIED: ProblemType = {
  slug: "interface-not-specified",
  title: "Interface not specified",
  status: 501,
  description:
    "The request falls outside the operational namespace /_service, where only the " +
    "service's own interface can answer, and the part of the interface specification " +
    "that would define the answer is not specified yet. Nothing was done and the request " +
    "body, if any, was not read. The request may succeed once a revision of the " +
    "specification declares that part; /_service/interface shows which parts are declared.",
  members: {
    missingPart:
      "The specification part that is missing, as { number, name }, e.g. 4 and endpoints.",
    statusReport: "Where the interface status report can be read.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: {
    missingPart: {
      type: "object",
      properties: { number: { type: "integer", minimum: 1, maximum: 9 }, name: { type: "string" } },
      required: ["number", "name"],
    },
    statusReport: { type: "string", format: "uri-reference" },
  },
};

/**
 * The names of the problem types the operation engine brings for parts 4, 5 and 8
 * (src/engine/problem-types.ts, typed by this list). They are reserved even where nothing
 * declares them, so part 7 cannot take them.
 */
export const ENGINE_PROBLEM_SLUGS = [
  "operation-not-implemented",
  "unsupported-media-type",
  "content-too-large",
  "malformed-request",
  "validation-failed",
  "not-acceptable",
  "authentication-required",
  "insufficient-scope",
  "rate-limit-exceeded",
] as const;
export type EngineProblemSlug = (typeof ENGINE_PROBLEM_SLUGS)[number];

/** What a member of a part 7 error type means: its schema's description, when it has one. */
function describe(schema: Schema): string {
  const description = globalRegistry.get(schema)?.description;
  return description
    ? description
    : "Declared by the specification; its schema is in the OpenAPI document.";
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

/**
 * The problem types an app can answer with: the platform's own, those the operation
 * engine brings for what the contract declares, and part 7's error types. Part 7 may not
 * take a name the platform or the engine uses.
 */
export function problemTypesOf(
  contract: Contract,
  engineTypes: readonly ProblemType[],
): ProblemType[] {
  const types: ProblemType[] = [INTERFACE_NOT_SPECIFIED, ...engineTypes];
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
