/**
 * The Worker entry: the app built from the service's contract and its handlers. Nothing
 * else happens here. Once the contract declares schemas, pass zod's `toJSONSchema` as the
 * `jsonSchema` option (see README, "Bundle size").
 */
import { createApp } from "./app";
import { contract } from "./contract";
import { handlers } from "./handlers";

const app = createApp(contract, { handlers });

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
