/**
 * Spec part 8, "Limits": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { Limit } from "../contract-language/contract";

export const limits = {} as const satisfies Readonly<Record<string, Limit>>;
