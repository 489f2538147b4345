/**
 * Spec part 4, "Endpoints": not shown in the specification
 * (shared/spec/000_313e1b03e1cb4136.txt), so nothing is declared here.
 *
 * When a revision of the spec supplies this part, declare it here and only here; the
 * routes, validation, documentation and status report follow from the declaration.
 */
import type { Operation } from "../domain/contract";

// `as const satisfies` (not a type annotation) keeps the literal types handlers are typed from.
export const operations = {} as const satisfies Readonly<Record<string, Operation>>;
