/**
 * The extension members by which the served OpenAPI document marks what a contract's
 * declarations became (OpenAPI 3.1 §4.9, "Specification Extensions"): the platform prints
 * them (src/platform/openapi, src/engine/openapi) and the importer (src/importer) reads
 * them back, so an import of a served document gives back the same contract. Both sides
 * take the names from here.
 */
/**
 * Marks what the platform adds to every document: its component schemas (the conformance
 * checker counts the others), its failure answers, `X-Request-Id`, OPTIONS, its tag. An
 * importer reading a served document back leaves these out.
 */
export const PLATFORM = "x-platform";
/** On an operation: the names of the webhooks (part 6) it may send. */
export const EMITS = "x-emits";
/** On an operation: the part 3 transition it performs. */
export const TRANSITION = "x-transition";
/** The states of a part 3 machine an operation acts in, only (`Operation.allowedIn`). */
export const ALLOWED_IN = "x-allowed-in";
/** On an operation: its own retirement, dated (`deprecated`, `sunset`, `migration`). */
export const DEPRECATION = "x-deprecation";
/** On a resource's schema: the part 3 machines of that resource. */
export const STATE_MACHINES = "x-state-machines";
/**
 * On a response object that is several answers at one status: what it is made of (the
 * operation's own declaration as declared, a part 7 error type, a platform failure).
 */
export const MERGED = "x-merged";
/** On a part 7 error type's `components.responses` entry: its status, title, description, type URI and presented failures. */
export const ERROR_TYPE = "x-error-type";
/** On a webhook: its deliveries carry the payload as it is, not in the Standard Webhooks envelope. */
export const ENVELOPE = "x-envelope";
/** On an operation: the platform failures it answers as its own error types (part 7), by failure. */
export const PRESENTS = "x-presents";
/** On a resource's view for one direction (`<name>-Input`, `<name>-Output`): whose, and which. */
export const VIEW_OF = "x-view-of";
