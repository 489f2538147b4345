/**
 * Spec part 8, "Limits": not shown in the specification
 * (shared/spec/000_313e1b03e1cb4136.txt), so nothing is declared here.
 *
 * When a revision of the spec supplies this part, declare it here and only here; the
 * routes, validation, documentation and status report follow from the declaration. A rate
 * limit names a rate limiting binding, which wrangler.toml must then declare with the same
 * limit and period (a test checks); until then, the platform's defaults apply
 * (src/validation/defaults.ts).
 */
import type { Limit } from "../domain/contract";

export const limits: Readonly<Record<string, Limit>> = {};
