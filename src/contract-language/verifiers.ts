/**
 * Verifiers: the code a deployment gives for part 5's schemes that only code can check
 * (`verifiedBy: "code"`, src/contract-language/contract.ts), beside its handlers
 * (src/handlers.ts). A verifier reads the request (a copy: the body is still there for the
 * operation) and says whether its credential is valid, and whom it names. Until one is
 * given for a scheme, that way in refuses every request (401); a verifier that throws is the
 * deployment's fault, answered 500 and logged, never let in.
 */
import type { Contract, SecurityScheme } from "./contract";

/** What a verifier found: a valid credential (and whom it names), or none. */
export type Verdict =
  | {
      readonly valid: true;
      readonly subject?: string;
      /** What else it names (a `tenant`, read where STORE_TENANCY is `claim:tenant`). */
      readonly claims?: Readonly<Record<string, string>>;
    }
  | { readonly valid: false };

/** Checks one request's credential for a scheme. */
export type Verifier = (
  request: Request,
  env: Readonly<Record<string, unknown>>,
) => Verdict | Promise<Verdict>;

/** The names of a contract's schemes that only code verifies. */
export type CodeVerifiedSchemes<C extends Contract> = {
  [K in keyof C["securitySchemes"]]: C["securitySchemes"][K] extends {
    readonly verifiedBy: "code";
  }
    ? K
    : never;
}[keyof C["securitySchemes"]] &
  string;

/** A verifier for each scheme only code verifies (each optional: 401 until it is given). */
export type Verifiers<C extends Contract> = {
  readonly [K in CodeVerifiedSchemes<C>]?: Verifier;
};

/** Typed verifiers for contract `C`: a name that is no such scheme does not compile. */
export function defineVerifiers<C extends Contract>(verifiers: Verifiers<C>): Verifiers<C> {
  return verifiers;
}

/** Whether a scheme is checked by code the deployment gives. */
export function verifiedInCode(scheme: SecurityScheme): boolean {
  return scheme.type === "verified" && scheme.verifiedBy === "code";
}
