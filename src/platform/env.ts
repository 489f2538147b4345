import type { CorsExchange } from "./cors";

/** The Hono environment of this Worker: bindings from `wrangler types`, per-request variables. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** The id of this request, sent back as `X-Request-Id` and in every problem document. */
    requestId: string;
    /** Set only while the deployment turns CORS on (src/platform/cors.ts). */
    cors?: CorsExchange;
  };
};
