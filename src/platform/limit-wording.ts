/**
 * How a rate limit of part 8 is said to a reader: the one sentence the status page and the
 * OpenAPI document share, so the two cannot word a limit differently.
 */

/** `2 requests per 60 s per client address`. */
export function rateLimitWording(limit: {
  readonly limit: number;
  readonly period: number;
  readonly key: string;
}): string {
  return `${limit.limit} requests per ${limit.period} s per ${limit.key === "client" ? "client address" : "credential"}`;
}
