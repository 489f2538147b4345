/**
 * Part 8 planned per operation, once when the app is built: its body cap (replacing the
 * platform default) and the rate limits that count its requests, each with its 429.
 */
import type { Contract, RequestRateLimit } from "../../contract-language/contract";
import { RATE_LIMIT_EXCEEDED } from "../../contract-language/problem-catalogue";
import { type ProblemDetails, typedProblem } from "../../platform/problem";

export interface DeclaredRateLimit {
  readonly name: string;
  readonly limit: RequestRateLimit;
  readonly problem: ProblemDetails;
}

/** The limits that apply to one operation. */
export interface OperationLimits {
  /** The body cap part 8 declares; undefined where the platform default applies. */
  readonly maxBodyBytes: number | undefined;
  /** Rate limits counted per client address: checked before credentials, so guessing them is limited too. */
  readonly perClient: readonly DeclaredRateLimit[];
  /** Rate limits counted per credential: checked once the credentials are valid. */
  readonly perCredential: readonly DeclaredRateLimit[];
}

/** The limits that apply to operation `id`. */
export function planLimits(contract: Contract, id: string): OperationLimits {
  let maxBodyBytes: number | undefined;
  const perClient: DeclaredRateLimit[] = [];
  const perCredential: DeclaredRateLimit[] = [];
  for (const [name, limit] of Object.entries(contract.limits)) {
    if (!limit.operations.includes(id)) continue;
    if (limit.kind === "body-size") maxBodyBytes = limit.maxBytes;
    if (limit.kind !== "rate") continue;
    const problem = typedProblem(
      RATE_LIMIT_EXCEEDED,
      `This operation accepts at most ${limit.limit} requests per ${limit.period} seconds ${
        limit.key === "client" ? "from one client address" : "with one credential"
      }.`,
      { limit: name, maxRequests: limit.limit, periodSeconds: limit.period },
    );
    (limit.key === "client" ? perClient : perCredential).push({ name, limit, problem });
  }
  return { maxBodyBytes, perClient, perCredential };
}
