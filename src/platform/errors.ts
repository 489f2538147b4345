/**
 * The one error path: anything thrown becomes an RFC 9457 problem. The client sees a
 * generic answer; the operator's log gets the whole error.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./env";
import { errorFields, log } from "./log";
import { problemResponse, statusProblem } from "./problem";
import { AS_IS, type ProblemPresenter } from "./problem-presenter";

export const INTERNAL_ERROR = statusProblem(
  500,
  "The request could not be completed because of an error on the server. " +
    "Quote the requestId when reporting it.",
);

export function errorResponse(
  error: unknown,
  c: Context<AppEnv>,
  present: ProblemPresenter = AS_IS,
): Response {
  const requestId = c.get("requestId");
  // Hono's own client errors (its HTTPException with a 4xx status) keep their status, with
  // a generic detail: the exception's message is not written for clients.
  if (error instanceof HTTPException && error.status >= 400 && error.status < 500) {
    return problemResponse(
      requestId,
      statusProblem(error.status, "The request could not be processed as sent."),
    );
  }
  log("error", "unhandled error", { requestId, method: c.req.method, error: errorFields(error) });
  return problemResponse(requestId, present("internal-error", INTERNAL_ERROR));
}
