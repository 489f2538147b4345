/**
 * Part 5 enforced: which credentials an operation requires, decided once when the app is
 * built, and checked on each request before its body is read. A secret the contract names
 * but the deployment lacks fails closed: the request is refused with a 500, never let in.
 */
import type { Contract, Operation, SecurityScheme } from "../domain/contract";
import { DECLARED_PROBLEM_TYPES } from "../http/declared-problem-types";
import { INTERNAL_ERROR } from "../http/errors";
import { log } from "../http/log";
import { type ProblemDetails, problemResponse, typedProblem } from "../http/problem";
import { sameCredential } from "./compare";
import { presentedCredential } from "./credentials";

/** Request fields that carry credentials; request schemas and handlers never see them. */
export interface CredentialFields {
  readonly header: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  readonly cookie: ReadonlySet<string>;
}

export interface SecurityPlan {
  readonly operationId: string;
  /** Any one alternative suffices; every scheme it names must be satisfied. */
  readonly alternatives: readonly (readonly string[])[];
  /** Every scheme any alternative names. */
  readonly schemes: ReadonlyMap<string, SecurityScheme>;
  /** RFC 9110 §11.6.1: a 401 carries a challenge for each scheme the operation accepts. */
  readonly challenge: string;
  readonly problem: ProblemDetails;
  readonly fields: CredentialFields;
}

const SCHEME_NAME = /^[A-Za-z0-9._-]+$/; // OpenAPI 3.1 §4.8.7: component keys
const BINDING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/; // RFC 9110 §5.1: token
const QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/; // qdtext without '"' and '\'

/** Checks part 5's declarations, so a scheme that could not be enforced stops the app from starting. */
export function checkSecuritySchemes(contract: Contract): void {
  for (const [name, scheme] of Object.entries(contract.securitySchemes)) {
    const fail = (why: string) => new Error(`security scheme ${name}: ${why}`);
    if (!SCHEME_NAME.test(name)) throw fail("the name must match [A-Za-z0-9._-]+");
    if (!BINDING_NAME.test(scheme.secret))
      throw fail(`secret ${JSON.stringify(scheme.secret)} is not a valid binding name`);
    if (scheme.type === "apiKey") {
      if (!["header", "query", "cookie"].includes(scheme.in))
        throw fail("in must be header, query or cookie");
      if (!FIELD_NAME.test(scheme.name)) throw fail("the key's name must be an HTTP token");
      if (scheme.in === "header" && scheme.name.toLowerCase() === "authorization")
        throw fail("an Authorization credential is declared as an http scheme");
    } else if (scheme.scheme === "basic") {
      if (!QUOTABLE.test(scheme.realm) || scheme.realm === "")
        throw fail("the realm must be printable ASCII without quotes or backslashes");
    } else if (scheme.scheme !== "bearer") {
      throw fail("an http scheme must be bearer or basic");
    }
  }
}

function challengeOf(scheme: SecurityScheme): string {
  if (scheme.type === "apiKey") return `ApiKey in="${scheme.in}", name="${scheme.name}"`;
  if (scheme.scheme === "basic") return `Basic realm="${scheme.realm}", charset="UTF-8"`; // RFC 7617 §2.1
  return "Bearer"; // RFC 6750 §3; no error code, so missing and wrong answer alike
}

/** What an operation requires; undefined when it requires no credential. */
export function planSecurity(
  contract: Contract,
  id: string,
  operation: Operation,
): SecurityPlan | undefined {
  const fail = (why: string) => new Error(`operation ${id}: ${why}`);
  const declared = Object.keys(contract.securitySchemes).length > 0;
  if (operation.security === undefined) {
    if (declared) throw fail("part 5 declares security schemes, so security must be declared");
    return undefined;
  }
  if (operation.security.length === 0) return undefined;
  const schemes = new Map<string, SecurityScheme>();
  for (const alternative of operation.security) {
    if (alternative.length === 0) throw fail("a security alternative names no scheme");
    let authorizationUsers = 0;
    for (const name of alternative) {
      const scheme = contract.securitySchemes[name];
      if (!scheme) throw fail(`security names ${name}, which part 5 does not declare`);
      if (scheme.type === "http") authorizationUsers += 1;
      schemes.set(name, scheme);
    }
    if (authorizationUsers > 1)
      throw fail("one alternative needs two Authorization credentials, which cannot both be sent");
  }
  const header = new Set<string>();
  const query = new Set<string>();
  const cookie = new Set<string>();
  for (const scheme of schemes.values()) {
    if (scheme.type === "http") header.add("authorization");
    else if (scheme.in === "header") header.add(scheme.name.toLowerCase());
    else (scheme.in === "query" ? query : cookie).add(scheme.name);
  }
  return {
    operationId: id,
    alternatives: operation.security,
    schemes,
    challenge: [...schemes.values()].map(challengeOf).join(", "),
    problem: typedProblem(
      DECLARED_PROBLEM_TYPES.authentication,
      "This operation requires credentials, and the request carries none that are valid.",
      { security: operation.security },
    ),
    fields: { header, query, cookie },
  };
}

export type Authentication =
  | { readonly ok: true; readonly satisfied: readonly string[] }
  | { readonly ok: false; readonly response: Response };

/**
 * Checks the request's credentials. Every scheme is checked, whatever the others give, so
 * the time taken does not tell which credential was wrong.
 */
export async function authenticate(
  plan: SecurityPlan,
  request: Request,
  env: Readonly<Record<string, unknown>>,
  requestId: string,
): Promise<Authentication> {
  const expected = new Map<string, string>();
  for (const [name, scheme] of plan.schemes) {
    const secret = env[scheme.secret];
    if (typeof secret !== "string" || secret === "") {
      // The binding's name is configuration, not a credential, so it may be logged.
      log("error", "a secret named by the contract is not set; refusing the request", {
        requestId,
        operationId: plan.operationId,
        scheme: name,
        secret: scheme.secret,
      });
      return { ok: false, response: problemResponse(requestId, INTERNAL_ERROR) };
    }
    expected.set(name, secret);
  }
  const valid = new Set<string>();
  await Promise.all(
    [...plan.schemes].map(async ([name, scheme]) => {
      const presented = presentedCredential(scheme, request);
      if (await sameCredential(presented, expected.get(name) ?? "")) valid.add(name);
    }),
  );
  const satisfied = plan.alternatives.find((names) => names.every((name) => valid.has(name)));
  if (satisfied) return { ok: true, satisfied };
  return {
    ok: false,
    response: problemResponse(requestId, plan.problem, { "www-authenticate": plan.challenge }),
  };
}
