/**
 * A resource: one path and the methods it answers. Every known path, the platform's or a
 * declared operation's, is mounted through here, so all of them share the RFC 9110 rules.
 */
import type { Handler, Hono } from "hono";
import {
  type CorsResource,
  PLATFORM_CORS,
  preflightAnswer,
  type ResourceCors,
  resourceCors,
} from "./cors";
import type { AppEnv } from "./env";
import { problemResponse, statusProblem } from "./problem";
import { AS_IS, type ProblemPresenter } from "./problem-presenter";

export type MethodHandlers = Readonly<Partial<Record<string, Handler<AppEnv>>>>;

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * The `Allow` value (RFC 9110 §10.2.1) for a resource with handlers for `methods`: HEAD
 * follows GET (§9.3.2) and OPTIONS is always answered (§9.3.7).
 */
export function allowHeader(methods: readonly string[]): string {
  const allowed = new Set([...methods, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  const rank = (m: string) => {
    const i = METHOD_ORDER.indexOf(m);
    return i === -1 ? METHOD_ORDER.length : i;
  };
  return [...allowed].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).join(", ");
}

/**
 * Mounts `handlers` at `path` as one route that dispatches on the method: OPTIONS answers
 * 204 with `Allow` and `Cache-Control: no-store`, any method without a handler 405 with `Allow` (RFC 9110 §15.5.6), and
 * HEAD runs the GET handler (Hono then drops the body). One route per path, so a request
 * passes through as few handlers as possible. While CORS is on, a preflight is answered
 * here, from `cors`: what the resource reads and lets a script read (src/platform/cors.ts).
 * Given as a function, it is asked on the first request that needs it (while CORS is on):
 * a declared operation's follows from its header schemas, which the Worker builds on first
 * use, never when it starts. A path answers every method itself: a concrete path never hands
 * one on to a templated sibling (OpenAPI 3.1 §4.8.8).
 */
export function mountResource(
  app: Hono<AppEnv>,
  path: string,
  handlers: MethodHandlers,
  present: ProblemPresenter = AS_IS,
  cors: CorsResource | (() => CorsResource) = PLATFORM_CORS,
): void {
  const methods = Object.keys(handlers);
  const allow = allowHeader(methods);
  let methodNotAllowed: ReturnType<ProblemPresenter> | undefined;
  let crossOrigin: ResourceCors | undefined;
  const corsAnswers = () => {
    crossOrigin ??= resourceCors(allow, typeof cors === "function" ? cors() : cors);
    return crossOrigin;
  };
  app.all(path, (c, next) => {
    const method = c.req.method;
    // Set only while CORS is on: the answer headers this resource lets a script read.
    const exchange = c.get("cors");
    if (exchange !== undefined) exchange.exposed = corsAnswers().exposed;
    const key = method === "HEAD" ? "GET" : method;
    const handler = handlers[key];
    if (handler) return handler(c, next);
    if (method === "OPTIONS")
      return (
        (exchange && preflightAnswer(exchange, c.req.raw, corsAnswers())) ??
        // RFC 9110 §9.3.7: an answer to OPTIONS is not cacheable; said so for every cache.
        c.body(null, 204, { allow, "cache-control": "no-store" })
      );
    methodNotAllowed ??= present(
      "method-not-allowed",
      statusProblem(405, `This resource answers only these methods: ${allow}.`),
    );
    return problemResponse(c.get("requestId"), methodNotAllowed, { allow });
  });
}
