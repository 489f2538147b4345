/**
 * The handlers of the service's operations, by operation id. Part 4 declares no operation,
 * so there is nothing to handle; a handler added here is type-checked against its
 * operation's declaration in `src/contract/endpoints.ts`.
 */

import type { contract } from "./contract";
import { defineHandlers } from "./contract-language/define-handlers";
import { defineVerifiers } from "./contract-language/verifiers";

export const handlers = defineHandlers<typeof contract>({});

/**
 * Verifiers of part 5's schemes that only code can check (`verifiedBy: "code"`), by scheme
 * name: until one is given, its way in refuses every request (401).
 */
export const verifiers = defineVerifiers<typeof contract>({});
