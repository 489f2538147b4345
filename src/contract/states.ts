/**
 * Spec part 3, "States and transitions": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { StateMachine } from "../contract-language/contract";

export const states = {} as const satisfies Readonly<Record<string, StateMachine>>;
