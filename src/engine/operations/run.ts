/**
 * A request served by its operation's model: the model's steps run in order until one
 * answers or refuses. A refusal becomes a problem here, and only here, as part 7 presents
 * that failure for this operation (`model.present`); part 9's deprecation headers go on
 * every answer once the version is known; with XML declared, problems are negotiated
 * between JSON and XML (`problem-form.ts`).
 */
import type { Context } from "hono";
import type { AppEnv } from "../../platform/env";
import { errorResponse } from "../../platform/errors";
import { problemResponse } from "../../platform/problem";
import type { Refusal } from "../refusal";
import type { Exchange, OperationModel } from "./model";

/** The problem answer of a refusal, as this operation presents that failure. */
function refused(x: Exchange, refusal: Refusal): Response {
  const { kind, problem, headers } = refusal;
  return problemResponse(x.requestId, kind ? x.model.present(kind, problem) : problem, headers);
}

/** Runs the steps of `x.model` (which the version step may switch to a variant's). */
async function runSteps(x: Exchange): Promise<Response> {
  for (let index = 0; index < x.model.steps.length; index += 1) {
    const step = x.model.steps[index];
    const pending = step?.run(x);
    const outcome = pending instanceof Promise ? await pending : pending;
    if (outcome === undefined) continue;
    const response = outcome instanceof Response ? outcome : refused(x, outcome);
    if (x.headers)
      for (const [name, value] of Object.entries(x.headers)) response.headers.set(name, value);
    return response;
  }
  // Every pipeline ends with a step that answers (`respond`, or the 501 placeholder).
  throw new Error(`operation ${x.model.id}: its pipeline gave no answer`);
}

/** Serves one request with the operation's model. */
export async function serveOperation(model: OperationModel, c: Context<AppEnv>): Promise<Response> {
  const requestId = c.get("requestId");
  const x: Exchange = {
    c,
    requestId,
    env: (c.env ?? {}) as unknown as Readonly<Record<string, unknown>>,
    accept: c.req.header("accept") ?? null,
    model,
    version: undefined,
    headers: undefined,
    auth: undefined,
    rateKey: undefined,
    identity: undefined,
    input: undefined,
    result: undefined,
    emissions: [],
    reached: {},
  };
  const form = model.problemForm;
  if (!form) return runSteps(x);
  let response: Response;
  try {
    response = await runSteps(x);
  } catch (error) {
    // As the app's own error path answers it, then negotiated like any other problem.
    response = errorResponse(error, c, x.model.present);
  }
  return form(c, response);
}
