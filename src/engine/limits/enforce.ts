/**
 * Part 8 enforced on each request: rate limits counted by Workers Rate Limiting bindings.
 * A binding the deployment lacks fails closed.
 */
import { INTERNAL_ERROR } from "../../platform/errors";
import { log } from "../../platform/log";
import type { Refusal } from "../refusal";
import type { DeclaredRateLimit } from "./plan";

/**
 * Counts the request against each rate limit; the first one exceeded answers 429 with
 * `Retry-After` (RFC 6585 §4, RFC 9110 §10.2.3). Each limit counts under its own name, so
 * the operations one limit names share its budget. A missing binding fails closed.
 */
async function enforceRateLimits(
  rates: readonly DeclaredRateLimit[],
  key: string,
  env: Readonly<Record<string, unknown>>,
  requestId: string,
): Promise<Refusal | undefined> {
  for (const { name, limit, problem } of rates) {
    const binding = env[limit.binding] as Partial<RateLimit> | undefined;
    if (typeof binding?.limit !== "function") {
      log("error", "a rate limiting binding named by the contract is not configured", {
        requestId,
        limit: name,
        binding: limit.binding,
      });
      return { kind: "internal-error", problem: INTERNAL_ERROR };
    }
    const { success } = await binding.limit({ key: `${name}:${key}` });
    if (!success)
      return {
        kind: "rate-limit-exceeded",
        problem,
        headers: { "retry-after": String(limit.period) },
      };
  }
  return undefined;
}

/** Part 8's rate limits as the serving engine uses them: in a Worker only when part 8 declares one. */
export const RATE_LIMITS_FEATURE = { enforce: enforceRateLimits } as const;

export type RateLimitsFeature = typeof RATE_LIMITS_FEATURE;
