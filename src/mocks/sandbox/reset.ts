/**
 * `DELETE /_service/sandbox`: empties the caller's sandbox (the one its credential and its
 * `Sandbox-Id` name, as for every sandboxed request), answered 204 (RFC 9110 §9.3.5). The
 * caller is authenticated as the operations are: any requirement any operation declares
 * admits it (scopes aside), the one naming the most schemes tried first, so a credential
 * empties the sandbox it fills; without credentials only where some operation is open.
 * Where STORE_TENANCY shares a store among a tenant's callers (tenancy.ts), it is not found.
 */
import type { Handler } from "hono";
import type { Contract, SecurityRequirement } from "../../contract-language/contract";
import type {
  IntrospectionFeature,
  JwtVerifier,
  SandboxCaller,
  SecurityFeature,
  SecurityPlan,
} from "../../engine/mock-seam";
import type { AppEnv } from "../../platform/env";
import { problemResponse } from "../../platform/problem";
import type { SandboxResetRoute } from "../../platform/worker-seam";
import { SandboxRefusal, sandboxName, sandboxRecords } from "./records";
import { deploymentTenancy } from "./tenancy";

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
 * Who a request is to the sandbox where no operation's own security says it: any
 * requirement some operation declares admits it (scopes aside), the one naming the most
 * schemes tried first; `open` (where some operation is open) admits a request without
 * credentials as the anonymous caller. Planned on first use. `security` is the engine's
 * part 5, given where the contract declares schemes (without it everyone is anonymous), with
 * its token introspection where a scheme introspects.
 */
export function sandboxCaller(
  contract: Contract,
  jwt: JwtVerifier | undefined,
  security: SecurityFeature | undefined,
  introspection: IntrospectionFeature | undefined,
  open = true,
): SandboxCaller {
  let plan: SecurityPlan | undefined | null = null;
  return async (request, env, requestId) => {
    if (plan === null) {
      const required = requirementsOf(contract).filter((r) => open || Object.keys(r).length > 0);
      plan = security?.plan(
        contract,
        "sandbox",
        { method: "DELETE", path: "/", responses: {}, security: required },
        jwt,
        undefined,
        introspection,
      );
    }
    if (!plan || !security) return { ok: true, caller: undefined };
    const outcome = await security.authenticate(plan, request, env, requestId);
    return outcome.ok
      ? { ok: true, caller: { key: outcome.rateKey, ...outcome.identity } }
      : { ok: false, refusal: outcome.refusal };
  };
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
  security: SecurityFeature | undefined,
  introspection: IntrospectionFeature | undefined,
  places: (contract: Contract) => boolean,
): SandboxResetRoute {
  const caller = sandboxCaller(contract, jwt, security, introspection);
  let enabled: boolean | undefined;
  const reset: Handler<AppEnv> = async (c) => {
    const requestId = c.get("requestId");
    const env = (c.env ?? {}) as unknown as Readonly<Record<string, unknown>>;
    // A store shared by a tenant is production data: no platform route empties it.
    if (deploymentTenancy(env).kind !== "sandbox") return c.notFound();
    const who = await caller(c.req.raw, env, requestId);
    if (!who.ok) return problemResponse(requestId, who.refusal.problem, who.refusal.headers);
    let name: string;
    try {
      name = await sandboxName(who.caller?.key, c.req.raw.headers);
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
