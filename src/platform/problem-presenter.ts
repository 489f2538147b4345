/**
 * How the platform presents its own failures. By itself, as they are; the operation
 * engine brings the spec's error model (src/engine/error-model.ts), where part 7 presents a
 * failure as one of its own error types.
 */
import type { PlatformProblem } from "../contract-language/problem-catalogue";
import { SERVICE_PATHS } from "./paths";
import type { ProblemDetails } from "./problem";

/** How the platform presents one of its failures. */
export type ProblemPresenter = (kind: PlatformProblem, problem: ProblemDetails) => ProblemDetails;

/** The platform's own answers, unchanged. */
export const AS_IS: ProblemPresenter = (_kind, problem) => problem;

/** The `type` URI of a part 7 error type: the one the spec gives, or the page hosted here. */
export function errorTypeUri(name: string, type: { readonly type?: string }): string {
  return type.type ?? `${SERVICE_PATHS.problems}/${name}`;
}
