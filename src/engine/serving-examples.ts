/**
 * The serving engine with the `examples` setting's answers (src/engine/operations/examples.ts,
 * with the value generator of src/engine/examples/). The build gives the Worker this one
 * only while an operation has no handler (src/build/generate.ts), so a Worker whose every
 * operation has a handler does not ship the generator: about 45 KB of minified code.
 */
import type { OperationEngine } from "../platform/engine-seam";
import { answerFromExamples } from "./operations/examples";
import { mountOperations } from "./operations/mount";
import { SERVING_ENGINE } from "./serving";

export const SERVING_ENGINE_WITH_EXAMPLES: OperationEngine = {
  ...SERVING_ENGINE,
  mount: (app, context) => mountOperations(app, context, answerFromExamples),
};
