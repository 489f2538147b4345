/**
 * Who shares a store: the deployment's `STORE_TENANCY` var, a declaration rather than a side
 * effect of the credential. `sandbox` (the default) keeps one store per credential and
 * `Sandbox-Id`, for trying an API; the others are for handlers in production, where callers
 * with different credentials of one tenant must see the same data:
 *
 * - `deployment`: one store for every caller;
 * - `claim:<name>`: one per value of that claim of the verified credential (a JWT's, an
 *   introspection answer's, or what a code verifier says it names);
 * - `scheme:<name>`: one per credential of that scheme (a tenant's key, sent beside each
 *   user's own token).
 *
 * A caller whose credentials name no tenant is refused (403); a setting that is none of
 * these fails closed (500, logged) and is refused by the build.
 */

import type { StoreCaller } from "../../engine/mock-seam";
import { statusProblem } from "../../platform/problem";
import { digestOf, SandboxRefusal, sandboxName } from "./records";

/** The Worker var that holds the setting. */
export const TENANCY_VAR = "STORE_TENANCY";

type Tenancy =
  | { readonly kind: "sandbox" }
  | { readonly kind: "deployment" }
  | { readonly kind: "claim" | "scheme"; readonly name: string };

const NAMED = /^(claim|scheme):([A-Za-z0-9._:/-]{1,128})$/;

/** The setting `value`, or why it is none. */
export function tenancyOf(value: unknown): Tenancy | { readonly refused: string } {
  if (value === undefined || value === "" || value === "sandbox") return { kind: "sandbox" };
  if (value === "deployment") return { kind: "deployment" };
  const named = typeof value === "string" ? NAMED.exec(value) : null;
  if (named) return { kind: named[1] as "claim" | "scheme", name: named[2] as string };
  return {
    refused: `${TENANCY_VAR} must be sandbox, deployment, claim:<name> or scheme:<name>`,
  };
}

/** The deployment's tenancy; a setting that is none throws (a 500: the store fails closed). */
export function deploymentTenancy(env: Readonly<Record<string, unknown>>): Tenancy {
  const tenancy = tenancyOf(env[TENANCY_VAR]);
  if ("refused" in tenancy) throw new Error(tenancy.refused);
  return tenancy;
}

/**
 * The name of the caller's store (a SHA-256, never a credential or a claim): under
 * `sandbox` its credential's and `Sandbox-Id`'s (records.ts), otherwise its tenant's, where
 * `Sandbox-Id` splits nothing. A caller whose credentials name no tenant is refused.
 */
export async function storeName(
  env: Readonly<Record<string, unknown>>,
  caller: StoreCaller | undefined,
  headers: Headers,
): Promise<string> {
  const tenancy = deploymentTenancy(env);
  if (tenancy.kind === "sandbox") return sandboxName(caller?.key, headers);
  if (tenancy.kind === "deployment") return digestOf("tenant\ndeployment");
  const value =
    tenancy.kind === "claim" ? caller?.claims[tenancy.name] : caller?.schemes[tenancy.name];
  if (value === undefined || value === "")
    // RFC 9110 §15.5.4: the credentials may be valid, but name no tenant whose data to show.
    throw new SandboxRefusal({
      kind: undefined,
      problem: statusProblem(
        403,
        "The request's credentials name no tenant, and this deployment keeps data per tenant.",
      ),
    });
  return digestOf(`tenant\n${tenancy.kind}\n${tenancy.name}\n${value}`);
}
