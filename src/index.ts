/**
 * The Worker entry: the app served from the service's contract, its handlers and what the
 * build made of them (src/generated/contract.ts, written by `npm run build:contract`, which
 * `wrangler dev`, `npm run build`, `wrangler deploy` and `npm test` run first): the
 * contract's documents and exactly the engine features it needs (the serving engine once it
 * declares more than its purpose, with the JWT verifier for a JWT scheme; the XML codec for
 * an XML media type). Nothing else happens here; the option types refuse to compile without
 * the engine or the codec the contract needs, and the engine refuses to start without a
 * feature it needs, so a stale build fails (src/contract/README.md, "What the Worker carries").
 */

import { BUILT } from "./generated/contract";
// The contract as the Worker serves it: src/contract without the text only its documents
// carry (src/build/served-contract.ts); its types are the declared contract's.
import { contract } from "./generated/served-contract";
// A handlers file written before verifiers existed exports none: the entry still compiles.
import * as code from "./handlers";
import { type ServeOptions, serveApp } from "./serve-app";

// The Durable Object classes its bindings name (the sandbox's, when the contract has one).
export * from "./generated/durable-objects";

const { handlers } = code;
const { verifiers } = code as Pick<ServeOptions<typeof contract>, "verifiers">;
const app = serveApp(contract, { handlers, ...(verifiers ? { verifiers } : {}), ...BUILT });

export default {
  fetch: app.fetch,
  // Part 6's deliveries, once the contract declares events; undefined otherwise.
  queue: app.queue,
} satisfies ExportedHandler<Env>;
