/**
 * What a deployment must provide for a contract to be enforced: the Worker secrets part 5
 * names and the rate limiting bindings part 8 names. wrangler.toml and `.dev.vars.example`
 * are checked against this by the test suite, so they list exactly what is declared.
 */
import type { Contract } from "../../src/domain/contract";

/** A Worker secret the contract names, and how documentation writes its value. */
export interface RequiredSecret {
  readonly name: string;
  /** The spec's placeholder: a value is never written down (`<ACCESS_TOKEN>` for bearer tokens). */
  readonly placeholder: "<API_KEY>" | "<ACCESS_TOKEN>";
}

/** The Worker secrets that hold the expected credentials, sorted by name. */
export function requiredSecrets(contract: Contract): RequiredSecret[] {
  const secrets = new Map<string, RequiredSecret>();
  for (const scheme of Object.values(contract.securitySchemes)) {
    const bearer = scheme.type === "http" && scheme.scheme === "bearer";
    secrets.set(scheme.secret, {
      name: scheme.secret,
      placeholder: bearer ? "<ACCESS_TOKEN>" : "<API_KEY>",
    });
  }
  return [...secrets.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One `[[ratelimits]]` entry of wrangler.toml. */
export interface RateLimitBinding {
  readonly name: string;
  readonly limit: number;
  readonly period: 10 | 60;
}

/** The rate limiting bindings part 8 counts with, sorted by name. */
export function rateLimitBindings(contract: Contract): RateLimitBinding[] {
  const bindings = new Map<string, RateLimitBinding>();
  for (const limit of Object.values(contract.limits)) {
    if (limit.kind !== "rate") continue;
    bindings.set(limit.binding, { name: limit.binding, limit: limit.limit, period: limit.period });
  }
  return [...bindings.values()].sort((a, b) => a.name.localeCompare(b.name));
}
