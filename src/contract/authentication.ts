/**
 * Spec part 5, "Authentication": not shown in the specification
 * (shared/spec/000_313e1b03e1cb4136.txt), so nothing is declared here.
 *
 * When a revision of the spec supplies this part, declare it here and only here; the
 * routes, validation, documentation and status report follow from the declaration. Each
 * scheme names the Worker secret that holds its credential (README, "When the spec
 * declares authentication and limits"); list that secret in wrangler.toml and
 * .dev.vars.example too, which a test checks.
 */
import type { SecurityScheme } from "../domain/contract";

export const securitySchemes: Readonly<Record<string, SecurityScheme>> = {};
