/**
 * The parts of the serving engine, each given only to a Worker whose contract uses it, so
 * the code of a part the contract does not use is not in its bundle: the build chooses them
 * from the contract (`servingParts`, src/contract-language/needs.ts; src/build/generate.ts
 * writes their imports), and the engine refuses to mount a contract that needs a part it
 * was not given (a stale build), naming it. Each part lives beside the code it serves.
 */
import type { ServingPart } from "../contract-language/needs";
import type { SecurityPart } from "./authentication/authenticate";
import type { ErrorModelPart } from "./error-model";
import type { EventsPart } from "./events/part";
import type { RateLimitsPart } from "./limits/enforce";
import type { FormsPart } from "./request/forms";
import type { StatesPart } from "./states/transition";
import type { VersionsPart } from "./versions/negotiate";

interface PartTypes {
  readonly versions: VersionsPart;
  readonly rateLimits: RateLimitsPart;
  readonly security: SecurityPart;
  readonly states: StatesPart;
  readonly events: EventsPart;
  readonly errorModel: ErrorModelPart;
  readonly forms: FormsPart;
}

/** The parts a serving engine was given: any of them, by name. */
export type ServingParts = { readonly [P in ServingPart]?: PartTypes[P] };
