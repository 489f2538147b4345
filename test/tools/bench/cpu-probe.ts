/**
 * Wraps a variant's Worker with one extra route, `/__bench/cpu`, that runs an in-process
 * loop of its own `fetch` (no network, no HTTP parsing) and times it: microseconds per
 * request. workerd advances its clock only at I/O (a Spectre mitigation), so the loop is
 * framed by two timer turns, which do count as I/O; what the clock then gives is the loop's
 * wall time. The bench also reads workerd's CPU time (test/tools/bench/workerd.ts,
 * `processCpuNs`) before and after the same call, which another process on the core does
 * not inflate: that is the figure its CPU targets are judged on.
 *
 * `GET /__bench/cpu?kind=placeholder|health|post&n=5000[&warm=200]` loops over the bench's
 * own requests; `POST /__bench/cpu?n=…` with a JSON body `{ method, path, headers, body }`
 * loops over that request (an operation of an imported contract). `warm` requests, 200 by
 * default, run first, outside the timing.
 */
import { HEALTH_PATH, PLACEHOLDER_PATH, POST_BODY, POST_PATH } from "./shared";

type Fetch = (request: Request, env: unknown, ctx: unknown) => Response | Promise<Response>;

/** A request as the bench describes it to the probe. */
export interface ProbeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

const POST_BYTES = new TextEncoder().encode(POST_BODY).byteLength;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function requestOf(kind: string | null): ProbeRequest {
  if (kind === "post")
    return {
      method: "POST",
      path: POST_PATH,
      // As an HTTP client sends it: a fixed body comes with its length.
      headers: { "content-type": "application/json", "content-length": String(POST_BYTES) },
      body: POST_BODY,
    };
  return { method: "GET", path: kind === "health" ? HEALTH_PATH : PLACEHOLDER_PATH };
}

const build = (r: ProbeRequest) =>
  new Request(`http://bench${r.path}`, {
    method: r.method,
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.body === undefined ? {} : { body: r.body }),
  });

export function withCpuProbe(worker: { fetch: Fetch }): { fetch: Fetch } {
  return {
    async fetch(request, env, ctx) {
      const url = new URL(request.url);
      if (url.pathname !== "/__bench/cpu") return worker.fetch(request, env, ctx);
      const n = Number(url.searchParams.get("n")) || 5000;
      const warm = Number(url.searchParams.get("warm") ?? 200);
      const described =
        request.method === "POST"
          ? ((await request.json()) as ProbeRequest)
          : requestOf(url.searchParams.get("kind"));
      const once = async () => {
        const res = await worker.fetch(build(described), env, ctx);
        await res.arrayBuffer();
        return res.status;
      };
      const status = await once();
      for (let i = 0; i < warm; i++) await once();
      await tick();
      const start = Date.now();
      for (let i = 0; i < n; i++) await once();
      await tick();
      const elapsed = Date.now() - start;
      return Response.json({ n, status, microsPerRequest: (elapsed * 1000) / n });
    },
  };
}
