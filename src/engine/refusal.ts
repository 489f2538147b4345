/**
 * A request refused by one step of an operation's pipeline: the platform's problem and the
 * headers it carries, not yet answered. The operation's model answers it, in one place, as
 * part 7 presents that failure where it does (`src/engine/operations/run.ts`).
 */
import type { PlatformProblem } from "../contract-language/problem-catalogue";
import type { ProblemDetails } from "../platform/problem";

export interface Refusal {
  /** Which of the platform's failures it is; none for a problem part 7 cannot present. */
  readonly kind: PlatformProblem | undefined;
  readonly problem: ProblemDetails;
  readonly headers?: Readonly<Record<string, string>>;
}
