/**
 * The shipped Worker for Node-side callers (the OpenAPI document test, the third-party
 * tools): the app src/index.ts serves, composed the same way from the contract, its
 * handlers and what the build made, with the deployment's static assets read from disk.
 * Not src/index.ts itself: it also exports the Durable Object classes the deployment binds
 * (the sandbox's, once the contract places an operation), which only the Workers runtime
 * can load.
 */
import { contract } from "../../src/contract";
import { BUILT } from "../../src/generated/contract";
import { handlers } from "../../src/handlers";
import { serveApp } from "../../src/serve-app";
import { DISK_ASSETS } from "./disk-assets";

const app = serveApp(contract, { handlers, ...BUILT });

export const SHIPPED_WORKER = {
  fetch: (request: Request): Promise<Response> =>
    Promise.resolve(
      app.fetch(
        request,
        { ASSETS: DISK_ASSETS } as unknown as Env,
        {
          waitUntil: () => {},
          passThroughOnException: () => {},
          props: {},
        } as unknown as ExecutionContext,
      ),
    ),
};
