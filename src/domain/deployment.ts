/**
 * What a deployment must provide for a contract to be enforced: the Worker secrets part 5
 * names and the rate limiting bindings part 8 names. wrangler.toml and `.dev.vars.example`
 * are checked against this by the test suite, so they list exactly what is declared.
 */
import type { Contract } from "./contract";

/** The names of the Worker secrets that hold the expected credentials, sorted. */
export function requiredSecrets(contract: Contract): string[] {
  const names = Object.values(contract.securitySchemes).map((scheme) => scheme.secret);
  return [...new Set(names)].sort();
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
