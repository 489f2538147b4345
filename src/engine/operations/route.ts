/**
 * One declared operation, served: the order in which a request meets the contract is
 * decided here. Before the body is read: rate limits per client address (so guessing
 * credentials is limited too), then credentials, then rate limits per credential. Then the
 * request is validated, the handler runs (or the 501 placeholder answers), and its answer
 * is checked against the declaration under the `RESPONSE_VALIDATION` mode.
 */
import type { Context, Handler } from "hono";
import type { Operation } from "../../domain/contract";
import type { AnyHandler, HandlerContext } from "../../domain/handlers";
import type { AppEnv } from "../../platform/env";
import { INTERNAL_ERROR } from "../../platform/errors";
import { errorFields, log } from "../../platform/log";
import { problemResponse, typedProblem } from "../../platform/problem";
import { authenticate } from "../authentication/authenticate";
import type { SecurityPlan } from "../authentication/plan";
import { enforceRateLimits } from "../limits/enforce";
import type { OperationLimits } from "../limits/plan";
import { OPERATION_NOT_IMPLEMENTED } from "../problem-types";
import { type RequestPlan, validateRequest } from "../validation/request";
import { responseMismatch } from "./response-check";
import { responseValidationMode } from "./response-mode";
import { serialise } from "./serialise";

/** Everything decided about one operation when the app is built. */
export interface OperationPlan {
  readonly id: string;
  readonly operation: Operation;
  readonly handler: AnyHandler | undefined;
  readonly security: SecurityPlan | undefined;
  readonly limits: OperationLimits;
  readonly request: RequestPlan;
}

/** The caller's address as Cloudflare's edge reports it; requests without one share a count. */
function clientAddress(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? "unknown";
}

/** `waitUntil` of the invocation; without one (an in-process call), the work just runs. */
function waitUntilOf(c: Context<AppEnv>, requestId: string): HandlerContext["waitUntil"] {
  return (promise) => {
    let context: { waitUntil(promise: Promise<unknown>): void } | undefined;
    try {
      context = c.executionCtx;
    } catch {
      context = undefined;
    }
    if (context) return context.waitUntil(promise);
    promise.catch((error: unknown) =>
      log("error", "background work failed", { requestId, error: errorFields(error) }),
    );
  };
}

export function operationRoute(plan: OperationPlan): Handler<AppEnv> {
  const { id, operation, handler, security, limits } = plan;
  const notImplemented = typedProblem(
    OPERATION_NOT_IMPLEMENTED,
    "This operation is declared and the request is valid for it, but it is not implemented yet.",
    { operationId: id },
  );
  return async function operationRoute(c: Context<AppEnv>) {
    const requestId = c.get("requestId");
    // Secrets and bindings are looked up by the names the contract gives.
    const env = (c.env ?? {}) as unknown as Readonly<Record<string, unknown>>;
    if (limits.perClient.length > 0) {
      const key = `client:${clientAddress(c.req.raw)}`;
      const limited = await enforceRateLimits(limits.perClient, key, env, requestId);
      if (limited) return limited;
    }
    if (security) {
      const auth = await authenticate(security, c.req.raw, env, requestId);
      if (!auth.ok) return auth.response;
      if (limits.perCredential.length > 0) {
        const key = `credential:${auth.satisfied.join("+")}`;
        const limited = await enforceRateLimits(limits.perCredential, key, env, requestId);
        if (limited) return limited;
      }
    }
    const validation = await validateRequest(plan.request, c);
    if (!validation.ok) return validation.response;
    if (!handler) return problemResponse(requestId, notImplemented);

    const result = await handler(validation.input, {
      requestId,
      env: c.env,
      waitUntil: waitUntilOf(c, requestId),
    });
    const declared = operation.responses[result.status];
    const mediaType = result.mediaType ?? Object.keys(declared?.content ?? {})[0];
    const mode = responseValidationMode(c.env);
    if (mode !== "off") {
      const mismatch = await responseMismatch(declared, result, mediaType);
      if (mismatch !== undefined) {
        const fields = { requestId, operationId: id, status: result.status, mismatch };
        if (mode === "enforce") {
          log("error", "response does not match its declaration", fields);
          return problemResponse(requestId, INTERNAL_ERROR);
        }
        log("warn", "response does not match its declaration", fields);
      }
    }
    return serialise(result, mediaType, requestId);
  };
}
