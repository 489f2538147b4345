/**
 * Spec part 1, "What the service does": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { Purpose } from "../contract-language/contract";

export const purpose = undefined satisfies Purpose | undefined;
