/**
 * Spec part 4, "Endpoints": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { Operation } from "../contract-language/contract";

export const operations = {} as const satisfies Readonly<Record<string, Operation>>;
