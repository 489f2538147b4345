/**
 * Spec part 9, "Versioning": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { Versioning } from "../contract-language/contract";

export const versioning = undefined satisfies Versioning | undefined;
