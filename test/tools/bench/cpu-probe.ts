/**
 * Wraps a variant's Worker with one extra route, `/__bench/cpu`, that times an in-process
 * loop of its own `fetch` (no network, no HTTP parsing): CPU microseconds per request.
 * workerd advances its clock only at I/O (a Spectre mitigation), so the loop is framed by
 * two timer turns, which do count as I/O.
 */
import { HEALTH_PATH, PLACEHOLDER_PATH, POST_BODY, POST_PATH } from "./shared";

type Fetch = (request: Request, env: unknown, ctx: unknown) => Response | Promise<Response>;

const POST_BYTES = new TextEncoder().encode(POST_BODY).byteLength;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function requestOf(kind: string | null): Request {
  if (kind === "post")
    return new Request(`http://bench${POST_PATH}`, {
      method: "POST",
      // As an HTTP client sends it: a fixed body comes with its length.
      headers: { "content-type": "application/json", "content-length": String(POST_BYTES) },
      body: POST_BODY,
    });
  return new Request(`http://bench${kind === "health" ? HEALTH_PATH : PLACEHOLDER_PATH}`);
}

export function withCpuProbe(worker: { fetch: Fetch }): { fetch: Fetch } {
  return {
    async fetch(request, env, ctx) {
      const url = new URL(request.url);
      if (url.pathname !== "/__bench/cpu") return worker.fetch(request, env, ctx);
      const n = Number(url.searchParams.get("n")) || 5000;
      const kind = url.searchParams.get("kind");
      const once = async () => {
        const res = await worker.fetch(requestOf(kind), env, ctx);
        await res.arrayBuffer();
        return res.status;
      };
      const status = await once();
      for (let i = 0; i < 200; i++) await once();
      await tick();
      const start = Date.now();
      for (let i = 0; i < n; i++) await once();
      await tick();
      const elapsed = Date.now() - start;
      return Response.json({ n, status, microsPerRequest: (elapsed * 1000) / n });
    },
  };
}
