/**
 * `DELETE /_service/sandbox`: empties the caller's sandbox (the one its credential and its
 * `Sandbox-Id` name, as for every sandboxed request), answered 204 (RFC 9110 §9.3.5). The
 * caller is authenticated as the operations are: any requirement any operation declares
 * admits it (scopes aside), the one naming the most schemes tried first, so a credential
 * empties the sandbox it fills; without credentials only where some operation is open.
 */
import type { Handler } from "hono";
import type { Contract, SecurityRequirement } from "../../contract-language/contract";
import type { JwtVerifier, SandboxResetRoute } from "../../platform/engine-seam";
import type { AppEnv } from "../../platform/env";
import { problemResponse } from "../../platform/problem";
import type { SecurityPart } from "../authentication/authenticate";
import type { SecurityPlan } from "../authentication/plan";
import { SandboxRefusal, sandboxName, sandboxRecords } from "./records";

/** Every operation's requirements without their scopes, most schemes first, none last. */
function requirementsOf(contract: Contract): SecurityRequirement[] {
  const seen = new Map<string, SecurityRequirement>();
  let open = false;
  for (const op of Object.values(contract.operations)) {
    if (!op.security || op.security.length === 0) open = true;
    for (const requirement of op.security ?? []) {
      const names = Object.keys(requirement).sort();
      if (names.length === 0) open = true;
      else seen.set(names.join(" "), Object.fromEntries(names.map((name) => [name, []])));
    }
  }
  const required = [...seen.values()].sort((a, b) => Object.keys(b).length - Object.keys(a).length);
  return required.length > 0 && open ? [...required, {}] : required;
}

/**
 * The reset route: `places` says, on the first request (nothing is planned when the app
 * starts), whether the contract places an operation in the sandbox; without one the path
 * is unknown, as any other under /_service. `security` is the engine's part 5, given
 * where the contract declares schemes (without it every operation is open).
 */
export function sandboxReset(
  contract: Contract,
  jwt: JwtVerifier | undefined,
  security: SecurityPart | undefined,
  places: (contract: Contract) => boolean,
): SandboxResetRoute {
  let plan: SecurityPlan | undefined | null = null;
  let enabled: boolean | undefined;
  const reset: Handler<AppEnv> = async (c) => {
    const requestId = c.get("requestId");
    const env = (c.env ?? {}) as unknown as Readonly<Record<string, unknown>>;
    // Planned once, on the first reset (null until then; undefined when all is open).
    if (plan === null)
      plan = security?.plan(
        contract,
        "sandbox reset",
        { method: "DELETE", path: "/", responses: {}, security: requirementsOf(contract) },
        jwt,
      );
    let credential: string | undefined;
    if (plan && security) {
      const outcome = await security.authenticate(plan, c.req.raw, env, requestId);
      if (!outcome.ok)
        return problemResponse(requestId, outcome.refusal.problem, outcome.refusal.headers);
      credential = outcome.rateKey;
    }
    let name: string;
    try {
      name = await sandboxName(credential, c.req.raw.headers);
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) throw error;
      return problemResponse(requestId, error.refusal.problem, error.refusal.headers);
    }
    await sandboxRecords(env, name).reset();
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  };
  return {
    enabled: () => {
      enabled ??= places(contract);
      return enabled;
    },
    reset,
  };
}
