/**
 * The build's static assets as the `ASSETS` binding serves them (wrangler.toml's `[assets]`),
 * for Node-side callers of the shipped Worker: the files `npm run build:contract` wrote to
 * src/generated/assets, read from disk.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ASSETS as ASSETS_DIR } from "../../src/build/write";

export const DISK_ASSETS = {
  fetch: async (request: Request): Promise<Response> => {
    const file = join(ASSETS_DIR, new URL(request.url).pathname);
    return existsSync(file)
      ? new Response(readFileSync(file))
      : new Response("not found", { status: 404 });
  },
};
