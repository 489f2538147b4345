/**
 * One declared operation, served: the order in which a request meets the contract is
 * decided here. Before the body is read: rate limits per client address (so guessing
 * credentials is limited too), then credentials, then rate limits per credential, then
 * whether the client accepts any media type the operation answers in (406). Then the
 * request is validated, the handler runs (or the 501 placeholder answers), and its answer
 * is checked against the declaration under the `RESPONSE_VALIDATION` mode.
 */
import type { Context } from "hono";
import type { Contract } from "../../contract-language/contract";
import type {
  AnyHandler,
  AnyResult,
  Authenticated,
  HandlerContext,
} from "../../contract-language/define-handlers";
import {
  NOT_ACCEPTABLE,
  OPERATION_NOT_IMPLEMENTED,
  STATE_CONFLICT,
} from "../../contract-language/problem-catalogue";
import { acceptable } from "../../platform/accept";
import type { AppEnv } from "../../platform/env";
import { INTERNAL_ERROR } from "../../platform/errors";
import { errorFields, log } from "../../platform/log";
import {
  ERROR_BODY,
  type ProblemDetails,
  problemResponse,
  statusProblem,
  typedProblem,
} from "../../platform/problem";
import type { ProblemPresenter } from "../../platform/problem-presenter";
import { authenticate } from "../authentication/authenticate";
import type { SecurityPlan } from "../authentication/plan";
import { type Emission, enqueueEvents } from "../events/emit";
import { enforceRateLimits } from "../limits/enforce";
import type { OperationLimits } from "../limits/plan";
import { type RequestPlan, validateRequest } from "../request/plan";
import {
  stateMismatch,
  type TransitionPlan,
  TransitionRefused,
  transitionHelper,
} from "../states/transition";
import type { ServeOperation } from "../versions/negotiate";
import { responseValidationMode } from "../zod/response-mode";
import { errorMismatch, responseMismatch } from "./response-conformance";
import { type DeclaredError, type ResponsePlan, statusPlan } from "./responses";
import { answerHeaders, serialise } from "./serialise";

/** Everything decided about one operation when the app is built. */
export interface OperationPlan {
  readonly id: string;
  readonly handler: AnyHandler | undefined;
  readonly security: SecurityPlan | undefined;
  readonly limits: OperationLimits;
  readonly request: RequestPlan;
  readonly responses: ResponsePlan;
  readonly present: ProblemPresenter;
  readonly contract: Contract;
  /** Part 6's events this operation may emit. */
  readonly emits: readonly string[];
  /** Part 3's transition this operation performs. */
  readonly transition: TransitionPlan | undefined;
}

// RFC 9110 §15.6.4: the request was carried out but its events could not be queued.
const EVENTS_UNAVAILABLE = statusProblem(
  503,
  "The events of this request could not be queued. Retry later; quote the requestId if it persists.",
);

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

/** The answer of a part 7 error type: the platform adds status, type, title and the request id. */
function errorProblem(
  result: Extract<AnyResult, { error: string }>,
  declared: DeclaredError,
): ProblemDetails {
  return {
    type: declared.type,
    title: declared.title,
    status: declared.status,
    ...(result.detail === undefined ? {} : { detail: result.detail }),
    ...result.members,
    // Written as the type's own body where part 7 gives it one.
    ...(declared.body ? { [ERROR_BODY]: declared.body } : {}),
  };
}

export function operationRoute(plan: OperationPlan): ServeOperation {
  const { id, handler, security, limits, responses, present } = plan;
  const notImplemented = typedProblem(
    OPERATION_NOT_IMPLEMENTED,
    "This operation is declared and the request is valid for it, but it is not implemented yet.",
    { operationId: id },
  );
  const notAcceptable =
    responses.successTypes &&
    present(
      "not-acceptable",
      typedProblem(
        NOT_ACCEPTABLE,
        `This operation answers in these media types only: ${responses.successTypes.join(", ")}.`,
        { availableMediaTypes: responses.successTypes },
      ),
    );
  const vary = responses.vary ? { vary: "accept" } : undefined;

  return serve;

  async function serve(c: Context<AppEnv>, version: string | undefined) {
    const requestId = c.get("requestId");
    // Secrets and bindings are looked up by the names the contract gives.
    const env = (c.env ?? {}) as unknown as Readonly<Record<string, unknown>>;
    if (limits.perClient.length > 0) {
      const key = `client:${clientAddress(c.req.raw)}`;
      const limited = await enforceRateLimits(limits.perClient, key, env, requestId, present);
      if (limited) return limited;
    }
    let auth: Authenticated | undefined;
    if (security) {
      const outcome = await authenticate(
        security,
        c.req.raw,
        env,
        requestId,
        present,
        waitUntilOf(c, requestId),
      );
      if (!outcome.ok) return outcome.response;
      auth = outcome.auth;
      if (limits.perCredential.length > 0) {
        // Let in without a credential (an empty requirement): counted by client, as above.
        const key =
          outcome.rateKey === undefined
            ? `client:${clientAddress(c.req.raw)}`
            : `credential:${outcome.rateKey}`;
        const limited = await enforceRateLimits(limits.perCredential, key, env, requestId, present);
        if (limited) return limited;
      }
    }
    const accept = c.req.header("accept") ?? null;
    // RFC 9110 §15.5.7: nothing the client accepts can be answered, so nothing is done.
    if (notAcceptable && responses.successTypes && !acceptable(accept, responses.successTypes))
      return problemResponse(requestId, notAcceptable, vary);
    const validation = await validateRequest(plan.request, c);
    if (!validation.ok) return validation.response;
    if (!handler) return problemResponse(requestId, notImplemented);

    const mediaTypeFor = (status: number) => {
      const types = statusPlan(responses, status)?.types ?? [];
      return acceptable(accept, types) ?? types[0];
    };
    const emissions: Emission[] = [];
    const reached: { target?: string } = {};
    let result: AnyResult;
    try {
      result = await handler(validation.input, {
        requestId,
        env: c.env,
        waitUntil: waitUntilOf(c, requestId),
        auth,
        mediaTypeFor,
        emit: (event, payload) => {
          // The types refuse this; plain JavaScript is refused here.
          if (!plan.emits.includes(event))
            throw new Error(`operation ${id} does not declare that it emits ${event}`);
          emissions.push({ event, payload });
        },
        transition: transitionHelper(plan.transition, id, reached),
        version,
      });
    } catch (error) {
      if (!(error instanceof TransitionRefused) || !plan.transition) throw error;
      const { machine, trigger } = plan.transition;
      const where = error.current === undefined ? "its current state" : `state ${error.current}`;
      return problemResponse(
        requestId,
        typedProblem(STATE_CONFLICT, `${machine} does not allow ${trigger} from ${where}.`, {
          machine,
          trigger,
          ...(error.current === undefined ? {} : { currentState: error.current }),
          allowedTriggers: error.allowed,
        }),
      );
    }
    const mode = responseValidationMode(c.env);
    const mismatchFound = (mismatch: string | undefined, status: number) => {
      if (mismatch === undefined || mode === "off") return false;
      const fields = { requestId, operationId: id, status, mismatch };
      log(mode === "enforce" ? "error" : "warn", "response does not match its declaration", fields);
      return mode === "enforce";
    };

    if (result.error !== undefined) {
      const declared = responses.errors.get(result.error);
      const status = declared?.status ?? 500;
      if (
        mode !== "off" &&
        mismatchFound(await errorMismatch(result.error, declared, result.members), status)
      )
        return problemResponse(requestId, present("internal-error", INTERNAL_ERROR));
      if (!declared) return problemResponse(requestId, present("internal-error", INTERNAL_ERROR));
      // The handler's own headers, but a problem is never stored (RFC 9111 §5.2.2.5).
      const headers = { ...answerHeaders(requestId, result.headers), "cache-control": "no-store" };
      return problemResponse(requestId, errorProblem(result, declared), headers);
    }

    const declared = statusPlan(responses, result.status);
    const mediaType = result.mediaType ?? mediaTypeFor(result.status);
    if (
      mode !== "off" &&
      mismatchFound(await responseMismatch(declared, result, mediaType), result.status)
    )
      return problemResponse(requestId, present("internal-error", INTERNAL_ERROR));
    // Part 3: the answer of a transition carries the state it reached.
    if (
      mode !== "off" &&
      result.status >= 200 &&
      result.status < 300 &&
      mismatchFound(stateMismatch(plan.transition, reached.target, result.body), result.status)
    )
      return problemResponse(requestId, present("internal-error", INTERNAL_ERROR));
    // Only a success sends its events: a failed request changed nothing to tell of.
    if (emissions.length > 0 && result.status >= 200 && result.status < 300) {
      const queued = await enqueueEvents(plan.contract, emissions, env, mode, {
        requestId,
        operationId: id,
      });
      if (queued === "invalid")
        return problemResponse(requestId, present("internal-error", INTERNAL_ERROR));
      if (queued === "unavailable")
        return problemResponse(requestId, EVENTS_UNAVAILABLE, { "retry-after": "30" });
    }
    const media = mediaType === undefined ? undefined : declared?.media.get(mediaType);
    return serialise(
      result,
      media && mediaType ? { mediaType, kind: media.kind, xml: media.xml } : undefined,
      requestId,
      vary,
    );
  }
}
