/** What test/tools/bench/scale-setup.ts writes for the bench, inside an imported copy. */
import type { Presented } from "../conformance/valid-request";

export interface ScaleSetup {
  /** The OpenAPI document the copy's Worker serves. */
  readonly document: Record<string, unknown>;
  /** A local value of every secret and setting part 5 names, as workerd bindings. */
  readonly vars: Record<string, string>;
  /** How a request presents each scheme's local credential. */
  readonly credentials: Record<string, Presented>;
}
