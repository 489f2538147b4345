/**
 * FIXTURE apps as Workers, for the third-party tools that need one over HTTP (Prism, in
 * test/tools/openapi-tools.ts): `?app=` is not a thing; each entry is its own bundle.
 */
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { XML_CODEC } from "../../src/engine/xml/codec";
import { FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS } from "../fixtures/vocabulary";

const app = createApp(FIXTURE_VOCABULARY_CONTRACT, {
  engine: BUILD_ENGINE,
  xml: XML_CODEC,
  handlers: FIXTURE_VOCABULARY_HANDLERS,
  jsonSchema: z.toJSONSchema,
});

// The Durable Object classes the project's wrangler.toml binds (the sandbox's, once the
// contract places an operation): `wrangler dev` refuses an entry without them.
export * from "../../src/generated/durable-objects";

export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
