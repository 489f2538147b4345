/**
 * The handlers of the service's operations, by operation id. Part 4 declares no operation,
 * so there is nothing to handle; a handler added here is type-checked against its
 * operation's declaration in `src/contract/endpoints.ts`.
 */

import type { contract } from "./contract";
import { defineHandlers } from "./contract-language/define-handlers";

export const handlers = defineHandlers<typeof contract>({});
