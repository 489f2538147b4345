/**
 * Part 5 enforced on each request, before its body is read. A secret the contract names
 * but the deployment lacks fails closed: the request is refused with a 500, never let in.
 */
import { INTERNAL_ERROR } from "../../platform/errors";
import { log } from "../../platform/log";
import { problemResponse } from "../../platform/problem";
import { sameCredential } from "./compare";
import { presentedCredential } from "./credentials";
import type { SecurityPlan } from "./plan";

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
