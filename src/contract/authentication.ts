/**
 * Spec part 5, "Authentication": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { SecurityScheme } from "../contract-language/contract";

export const securitySchemes = {} as const satisfies Readonly<Record<string, SecurityScheme>>;
