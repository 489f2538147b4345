/**
 * The platform middleware: request id, security headers, CORS (when the deployment turns it
 * on) and the last-resort catch, in one pass. Written by hand rather than composed from Hono's `requestId` and
 * `secureHeaders` because it runs on every request and must cost close to nothing
 * (see the benchmark); it sets a fixed list of headers built once at load.
 */
import type { MiddlewareHandler } from "hono";
import { addCors, corsExchange } from "./cors";
import type { AppEnv } from "./env";
import { errorResponse } from "./errors";
import { REQUEST_ID_HEADER, requestIdFor } from "./request-id";
import { API_CSP, isComplete, SECURITY_HEADERS } from "./security-headers";

/** The middleware every request passes through, first. */
export function platform(): MiddlewareHandler<AppEnv> {
  return async function platform(c, next) {
    const requestId = requestIdFor(c.req.raw);
    c.set("requestId", requestId);
    // CORS only while the deployment sets it (src/platform/cors.ts); off, one property read.
    const cors = corsExchange(c.env, c.req.raw);
    if (cors) c.set("cors", cors);
    try {
      await next();
    } catch (error) {
      // Hono hands thrown Errors to onError; anything else thrown ends up here.
      c.res = errorResponse(error, c);
    }
    // On every answer, problems included.
    if (cors) addCors(c.res, cors);
    // Built with its platform headers already (apiHeaders): nothing to add.
    if (isComplete(c.res)) return;
    const headers = c.res.headers;
    headers.set(REQUEST_ID_HEADER, requestId);
    for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
    // A page that needs a different policy (the HTML pages) sets its own.
    if (!headers.has("content-security-policy")) headers.set("content-security-policy", API_CSP);
  };
}
