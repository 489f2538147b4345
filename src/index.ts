/**
 * The Worker entry: the app built from the service's contract and its handlers. Nothing
 * else happens here. What the contract needs is passed in: the operation engine
 * (`src/engine`) once it declares operations, security schemes or limits, zod's
 * `toJSONSchema` once it declares schemas, `JWT_VERIFIER` once it declares a JWT scheme and
 * `XML_CODEC` once it declares an XML media type; the option types refuse to compile
 * without them (src/contract/README.md, "Taking in a revision").
 */
import { createApp } from "./app";
import { contract } from "./contract";
import { handlers } from "./handlers";

const app = createApp(contract, { handlers });

export default {
  fetch: app.fetch,
  // Part 6's deliveries, once the contract declares events; undefined otherwise.
  queue: app.queue,
} satisfies ExportedHandler<Env>;
