/**
 * Spec part 6, "Events": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { EventDeclaration } from "../contract-language/contract";

export const events = {} as const satisfies Readonly<Record<string, EventDeclaration>>;
