/**
 * The service's contract: the nine parts of its interface specification (SPECIFICATION.md),
 * assembled from one file per part. This is the only place the interface is written; the
 * compiler checks every cross-reference between the parts here (`defineContract`).
 */
import { defineContract } from "../contract-language/define-contract";
import { securitySchemes } from "./authentication";
import { operations } from "./endpoints";
import { errors } from "./errors";
import { events } from "./events";
import { limits } from "./limits";
import { purpose } from "./purpose";
import { resources } from "./resources";
import { states } from "./states";
import { versioning } from "./versioning";

export const contract = defineContract({
  purpose,
  resources,
  states,
  operations,
  securitySchemes,
  events,
  errors,
  limits,
  versioning,
});
