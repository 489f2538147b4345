/**
 * The Worker entry: the app built from the service's contract and its handlers. Nothing
 * else happens here. Once the contract declares operations, security schemes or limits,
 * pass `OPERATION_ENGINE` (src/routes/engine.ts) as the `engine` option, and once it
 * declares schemas, zod's `toJSONSchema` as `jsonSchema`; createApp refuses to start
 * without them (see README, "Bundle size").
 */
import { createApp } from "./app";
import { contract } from "./contract";
import { handlers } from "./handlers";

const app = createApp(contract, { handlers });

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
