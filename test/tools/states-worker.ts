/**
 * The FIXTURE states contract as a Worker, for the browser check of the interface page's
 * state diagrams (test/tools/browser.ts).
 */
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { FIXTURE_STATES_CONTRACT } from "../fixtures/states";

const app = createApp(FIXTURE_STATES_CONTRACT, {
  engine: BUILD_ENGINE,
  jsonSchema: z.toJSONSchema,
});

export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
