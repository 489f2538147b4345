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
  type ErrorBody,
  type ErrorFact,
  type ErrorType,
  resolveSchema,
  type Schema,
  type SchemaDeclaration,
} from "../contract-language/contract";
import {
  filledMembers,
  PLATFORM_PROBLEMS,
  type PlatformProblem,
  PROBLEM_OWN_MEMBERS,
  REQUEST_ID_MEMBER,
  RESERVED_PROBLEM_SLUGS,
} from "../contract-language/problem-catalogue";
import { VIOLATION_KEYWORD, type Violation } from "../platform/error-body";
import { ERROR_BODY, type ProblemDetails, type ProblemType } from "../platform/problem";
import { AS_IS, errorTypeUri, type ProblemPresenter } from "../platform/problem-presenter";
import { objectShape } from "./zod/shape";

/** Which part 7 error type presents each platform failure, by its name, for every operation. */
function presentedBy(contract: Contract): ReadonlyMap<PlatformProblem, string> {
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

/**
 * Which error type presents each platform failure of one operation: its own `presents`,
 * then the error model's. The one place a failure is mapped to the spec's answer: serving
 * (the presenter), the document and the status report all read it.
 */
export function presentedFor(
  contract: Contract,
  operationId: string | undefined,
): ReadonlyMap<PlatformProblem, string> {
  const own = operationId ? contract.operations[operationId]?.presents : undefined;
  if (!own) return presentedBy(contract);
  const presented = new Map(presentedBy(contract));
  for (const [kind, name] of Object.entries(own) as [PlatformProblem, string][])
    presented.set(kind, name);
  return presented;
}

/** The facts only some failures have, by the failures that have them; every failure has the rest. */
const SOME_FAILURES: Partial<Record<ErrorFact, readonly PlatformProblem[]>> = {
  retryAfter: ["rate-limit-exceeded", "service-unavailable"],
  allowedMethods: ["method-not-allowed"],
  supportedVersions: ["unsupported-version", "version-gone"],
  errors: ["validation-failed"],
  fieldErrors: ["validation-failed"],
  fieldErrorLists: ["validation-failed"],
};

const escapeToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * The members an own body's schema requires that nothing fills when `kind` is presented in
 * it, as JSON Pointers: no fact of that failure, no fixed value, no violation list, and no
 * member of the platform's for it (`members`: the catalogue's at build time, the problem's
 * own in the Worker, which carries no catalogue page). Such a failure is answered as the
 * platform's own problem (RFC 9457), and documented so: the document and the wire agree.
 */
function unfilledMembers(
  error: ErrorType,
  kind: PlatformProblem,
  members: readonly string[],
): string[] {
  const body = error.body;
  if (!body || !error.schema) return [];
  const filled = new Set<string>([
    ...Object.keys(body.fixed ?? {}),
    ...(body.violations ? [body.violations.at] : []),
    ...members.map((member) => `/${escapeToken(member)}`),
  ]);
  for (const [fact, pointer] of Object.entries(body.carries) as [ErrorFact, string][])
    if (pointer && (SOME_FAILURES[fact]?.includes(kind) ?? true)) filled.add(pointer);
  const unfilled: string[] = [];
  const walk = (schema: Schema, prefix: string, depth: number) => {
    const shape = depth < 16 ? objectShape(schema) : undefined;
    for (const [member, inner] of Object.entries(shape ?? {})) {
      if (inner._zod.optout === "optional") continue;
      const at = `${prefix}/${escapeToken(member)}`;
      if (filled.has(at)) continue;
      if ([...filled].some((p) => p.startsWith(`${at}/`))) walk(inner, at, depth + 1);
      else unfilled.push(at);
    }
  };
  walk(resolveSchema(error.schema), "", 0);
  return unfilled;
}

/** Whether `kind` can be presented whole in error type `error`'s body, worked out once each. */
const WHOLE = new WeakMap<ErrorType, Map<PlatformProblem, boolean>>();
export function presentsWhole(
  error: ErrorType,
  kind: PlatformProblem,
  members: readonly string[],
): boolean {
  const known = WHOLE.get(error) ?? new Map<PlatformProblem, boolean>();
  WHOLE.set(error, known);
  let whole = known.get(kind);
  if (whole === undefined) {
    whole = unfilledMembers(error, kind, members).length === 0;
    known.set(kind, whole);
  }
  return whole;
}

/** The members of an error type's own body the platform fills: a fact's, a fixed value's, the violations'. */
function carried(error: ErrorType): readonly string[] {
  const body = error.body;
  const pointers = [
    ...Object.values(body?.carries ?? {}),
    ...Object.keys(body?.fixed ?? {}),
    ...(body?.violations ? [body.violations.at] : []),
  ];
  return pointers.flatMap((pointer) => {
    const top = pointer?.split("/")[1];
    return top === undefined ? [] : [top.replaceAll("~1", "/").replaceAll("~0", "~")];
  });
}

/** Refuses a failure presented by an error type part 7 does not declare. */
function declaredError(name: string, error: ErrorType | undefined, kind: PlatformProblem) {
  if (!error)
    throw new Error(`a failure ${kind} is presented by ${name}, which part 7 does not declare`);
  return error;
}

/** Refuses a failure presented by an error type part 7 does not declare, or that is no failure. */
function checkPresented(name: string, declared: ErrorType | undefined, kind: PlatformProblem) {
  const error = declaredError(name, declared, kind);
  if (!(PLATFORM_PROBLEMS as readonly string[]).includes(kind))
    throw new Error(`error type ${name}: ${String(kind)} is not one of the platform's failures`);
  return error;
}

/**
 * Refuses an error type that presents a failure it could not be answered with: one it does
 * not declare, or one whose answer lacks a member the type requires. Its member schemas are
 * built for it, so this runs with the start-up checks (at build time), never in the Worker.
 */
function checkPresentable(name: string, declared: ErrorType | undefined, kind: PlatformProblem) {
  const error = checkPresented(name, declared, kind);
  const filled = new Set([...filledMembers(kind), ...carried(error)]);
  for (const [member, schema] of Object.entries(error.members ?? {})) {
    if (resolveSchema(schema)._zod.optout !== "optional" && !filled.has(member))
      throw new Error(
        `error type ${name}: it presents ${kind}, whose answer has no member ${member}; declare it optional`,
      );
  }
}

/** A JSON Pointer (RFC 6901) to a member: one token or more, none of them empty. */
const MEMBER_POINTER = /^(?:\/[^/]+)+$/;

/**
 * Refuses an own body whose facts, fixed values or violation list point nowhere, or where
 * two of them would be written at one place (or one inside the other), so that what an
 * answer holds never depends on the order they are written in.
 */
function checkBodyPointers(name: string, format: ErrorBody): void {
  const fail = (why: string) => new Error(`error type ${name}: ${why}`);
  const placed = (field: string, entries: [string, unknown][], list = false) => {
    const at: [string, string][] = [];
    for (const [key, pointer] of entries) {
      if (typeof pointer !== "string" || !MEMBER_POINTER.test(pointer))
        throw fail(`${field}.${key} must be a JSON Pointer into the ${list ? "item" : "body"}`);
      at.push([`${field}.${key}`, pointer]);
    }
    return at;
  };
  const one = (field: string, pointers: [string, string][]) => {
    for (const [i, [a, p]] of pointers.entries())
      for (const [b, q] of pointers.slice(i + 1))
        if (p === q || p.startsWith(`${q}/`) || q.startsWith(`${p}/`))
          throw fail(`${a} (${p}) and ${b} (${q}) are written at one place of the ${field}`);
  };
  const list = format.violations;
  const fixed = Object.keys(format.fixed ?? {}).map((p): [string, unknown] => [p, p]);
  one("body", [
    ...placed("body.carries", Object.entries(format.carries)),
    ...placed("body.fixed", fixed),
    ...(list ? placed("body.violations", [["at", list.at]]) : []),
  ]);
  if (!list) return;
  if (Object.keys(list.item).length === 0)
    throw fail("body.violations.item says where no fact of a violation goes");
  const itemFixed = Object.keys(list.fixed ?? {}).map((p): [string, unknown] => [p, p]);
  one("item", [
    ...placed("body.violations.item", Object.entries(list.item), true),
    ...placed("body.violations.fixed", itemFixed, true),
  ]);
}

/**
 * Refuses, when the app starts, an error model that could not be served: an operation that
 * presents a failure as an error type that could not answer it, or an error type's own body
 * that is not JSON or points nowhere.
 */
export function checkErrorModel(contract: Contract): void {
  for (const [name, error] of Object.entries(contract.errors)) {
    const format = error.body;
    if (!format) continue;
    if (!/^application\/(?:[\w.+-]+\+)?json$/i.test(format.mediaType))
      throw new Error(`error type ${name}: body.mediaType must be a JSON media type`);
    checkBodyPointers(name, format);
  }
  const told = new Set<string>();
  for (const id of [undefined, ...Object.keys(contract.operations)])
    for (const [kind, name] of presentedFor(contract, id)) {
      const error = contract.errors[name];
      checkPresentable(name, error, kind);
      const unfilled = error ? unfilledMembers(error, kind, filledMembers(kind)) : [];
      if (unfilled.length > 0 && !told.has(`${name}\n${kind}`)) {
        told.add(`${name}\n${kind}`);
        console.warn(
          `error type ${name}: its body requires ${unfilled.join(", ")}, which no fact of ${kind} fills (carries, fixed); that failure is answered as the platform's problem (RFC 9457)`,
        );
      }
    }
}

/** The failures that are of the request's body as a whole (RFC 9110 §15.5.1, §15.5.14, §15.5.16). */
const OF_THE_BODY: ReadonlySet<PlatformProblem> = new Set<PlatformProblem>([
  "malformed-request",
  "content-too-large",
  "unsupported-media-type",
]);

/**
 * A failure without violations as the one item of a type's violation list (JSON:API and
 * FastAPI answer every error as a list): its sentence, its kind as the check that failed,
 * and, where it is of the body as a whole, the body as where.
 */
function oneViolation(kind: PlatformProblem, detail: string | undefined): Violation {
  return {
    ...(OF_THE_BODY.has(kind) ? { in: "body", pointer: "#" } : {}),
    detail: detail ?? "",
    [VIOLATION_KEYWORD]: kind,
  };
}

/**
 * How one operation's platform failures are answered (the contract's error model where no
 * operation is named): as the error type that presents each, in its status, type URI and
 * title; in its own body where it has one, with only the members it declares.
 */
function problemPresenter(contract: Contract, operationId?: string): ProblemPresenter {
  const byKind = presentedFor(contract, operationId);
  // The rest was checked with the start-up checks at build time (`checkErrorModel`: each is
  // a platform failure, presented by a type whose members it fills): the Worker builds no
  // schema when its app is created, and reads no problem type's page.
  for (const [kind, name] of byKind) declaredError(name, contract.errors[name], kind);
  if (byKind.size === 0) return AS_IS;
  const as = new Map<PlatformProblem, (problem: ProblemDetails) => ProblemDetails>();
  for (const [kind, name] of byKind) {
    const error = contract.errors[name] as ErrorType;
    const facts = { type: errorTypeUri(name, error), title: error.title, status: error.status };
    const format = error.body;
    if (!format) {
      as.set(kind, (problem) => ({ ...problem, ...facts }));
      continue;
    }
    // Its own body: the members it declares, the platform's facts where it carries them.
    const declared = new Set([
      // A member of the type's own that is named `errors` is the handler's to give (Jira's
      // object of messages by field): the platform's violations are no value of it.
      ...Object.keys(error.members ?? {}).filter((member) => member !== "errors"),
      // The violations go where the body carries them, and nowhere else.
      ...(format.carries.errors ||
      format.carries.fieldErrors ||
      format.carries.fieldErrorLists ||
      format.violations
        ? ["errors"]
        : []),
    ]);
    as.set(kind, (problem) => {
      const kept: Record<string, unknown> = {};
      for (const [member, value] of Object.entries(problem))
        if (
          declared.has(member) ||
          ["type", "title", "status", "detail"].includes(member) ||
          // A failure's member the body carries as a fact (part 9's supported versions).
          member in format.carries
        )
          kept[member] = value;
      if (format.violations && !Array.isArray(kept.errors))
        kept.errors = [oneViolation(kind, problem.detail)];
      return { ...(kept as unknown as ProblemDetails), ...facts, [ERROR_BODY]: format };
    });
  }
  // A failure its type's body cannot hold whole stays the platform's problem (`unfilledMembers`).
  return (kind, problem) => {
    const present = as.get(kind);
    const name = byKind.get(kind);
    const error = name === undefined ? undefined : contract.errors[name];
    // The failure's own extension members, not RFC 9457's (`type` is the problem's, not an API's).
    const members = Object.keys(problem).filter(
      (member) => !PROBLEM_OWN_MEMBERS.includes(member) && member !== "errors",
    );
    return present && error && presentsWhole(error, kind, members) ? present(problem) : problem;
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
    if (PROBLEM_OWN_MEMBERS.includes(member))
      throw fail(`member ${member} is one RFC 9457 or the platform defines`);
}

/** What a member of an error type means: its schema's description, where it has one. */
function describe(schema: SchemaDeclaration): string {
  return (
    globalRegistry.get(resolveSchema(schema))?.description ??
    "Declared by the specification; its schema is in the OpenAPI document."
  );
}

/**
 * Part 7's error types, as problem types with their pages (hosted here unless the spec
 * gives an absolute URI). Part 7 may not take a name the platform or the engine uses.
 */
export function errorProblemTypes(contract: Contract): ProblemType[] {
  const types: ProblemType[] = [];
  const reserved = new Set<string>(RESERVED_PROBLEM_SLUGS);
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

/** Part 7 as the serving engine uses it: in a Worker only when part 7 declares an error type. */
export const ERROR_MODEL_FEATURE = { presenter: problemPresenter } as const;

export type ErrorModelFeature = typeof ERROR_MODEL_FEATURE;
