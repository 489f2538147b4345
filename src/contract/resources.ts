/**
 * Spec part 2, "Resources and their fields": not specified (SPECIFICATION.md, beside this
 * file, does not give it), so nothing is declared here. README.md, beside this file, says
 * how to declare it once a revision does.
 */
import type { Schema } from "../contract-language/contract";

export const resources = {} as const satisfies Readonly<Record<string, Schema>>;
