/**
 * Spec part 7, "Errors": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { ErrorType } from "../contract-language/contract";

export const errors = {} as const satisfies Readonly<Record<string, ErrorType>>;
