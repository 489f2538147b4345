/**
 * The steps a request to a declared operation runs through, and the order they come in:
 * the version (part 9), rate limits per client address (so guessing credentials is limited
 * too), credentials (part 5), rate limits per credential, whether the client accepts any
 * media type the operation answers in (406), the request read and validated, the handler
 * (or, without one, the deployment's setting: `unhandled.ts`), its answer checked against
 * the declaration under the `RESPONSE_VALIDATION` mode, its events queued (part 6), and the
 * answer written. A step is in an operation's pipeline only when the contract declares what
 * it serves, and the code of a feature the contract does not use is not imported here: each
 * step that needs one is made with it (src/engine/features.ts), so it is in a Worker's bundle
 * only with that feature.
 */
import type { Context } from "hono";
import type { AnyResult, HandlerContext } from "../../contract-language/define-handlers";
import { NOT_ACCEPTABLE, STATE_CONFLICT } from "../../contract-language/problem-catalogue";
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
import type { SecurityFeature } from "../authentication/authenticate";
import type { EventsFeature } from "../events/feature";
import type { ServingFeatures } from "../features";
import type { RateLimitsFeature } from "../limits/enforce";
import type { StoreCaller, StoreFeature } from "../mock-features";
import type { Refusal } from "../refusal";
import { validateRequest } from "../request/plan";
import type { StatesFeature } from "../states/transition";
import { responseValidationMode } from "../zod/response-mode";
import { withoutWriteOnly } from "../zod/views";
import type { Exchange, OperationModel, Outcome, Step } from "./model";
import { errorMismatch, responseMismatch } from "./response-conformance";
import { type DeclaredError, type MediaPlan, statusPlan } from "./responses";
import { answerHeaders, serialise } from "./serialise";
import { answerUnhandled } from "./unhandled";

/** The caller's store, as the store feature opens it for a handler. */
type OpenedStore = ReturnType<StoreFeature["open"]>;

/** The model without its steps: what the pipeline is made from. */
type Planned = Omit<OperationModel, "steps">;

/**
 * The pipeline of an operation, each step present only where the contract declares its
 * cause, made with the features of the engine it needs (the mount refused a contract whose
 * features were not all given, so a step is never left out for want of one).
 */
export function pipeline(model: Planned, features: ServingFeatures): Step[] {
  const { versions, limits, security, responses, handler, emits } = model;
  const { rateLimits, states, events, store } = features;
  const steps: (Step | false | undefined)[] = [
    versions && negotiateVersion,
    rateLimits && limits.perClient.length > 0 && rateLimitByClient(rateLimits),
    security && features.security && authenticateStep(features.security),
    security && rateLimits && limits.perCredential.length > 0 && rateLimitByCredential(rateLimits),
    responses.successTypes && negotiateAnswer(responses.successTypes, responses.vary),
    readRequest,
    // Without a handler, the deployment's setting answers (501 by default): an answer it
    // makes is checked and written as a handler's is.
    handler
      ? handle(states, store)
      : answerUnhandled((x, sandbox) => runHandler(x, states, store, sandbox)),
    checkAnswer(states),
    events && emits.length > 0 && emit(events),
    respond,
  ];
  return steps.filter((step): step is Step => Boolean(step));
}

const internalError: Refusal = { kind: "internal-error", problem: INTERNAL_ERROR };

// RFC 9110 §15.6.4: the request was carried out but its events could not be queued.
const EVENTS_UNAVAILABLE: Refusal = {
  kind: "service-unavailable",
  problem: statusProblem(
    503,
    "The events of this request could not be queued. Retry later; quote the requestId if it persists.",
  ),
  headers: { "retry-after": "30" },
};

/** The caller's address as Cloudflare's edge reports it; requests without one share a count. */
function clientKey(request: Request): string {
  return `client:${request.headers.get("cf-connecting-ip") ?? "unknown"}`;
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

/** Part 9: the version the request is for, and so the variant that serves it. */
const negotiateVersion: Step = {
  name: "negotiateVersion",
  run(x) {
    const negotiated = x.model.versions?.(x.c);
    if (!negotiated) return undefined;
    if ("problem" in negotiated) return negotiated;
    x.version = negotiated.version;
    if (Object.keys(negotiated.headers).length > 0) x.headers = negotiated.headers;
    x.model = x.model.variant(negotiated.version);
    return undefined;
  },
};

/** Part 8, before credentials: counted per client address. */
function rateLimitByClient({ enforce }: RateLimitsFeature): Step {
  return {
    name: "rateLimitByClient",
    run: (x) => enforce(x.model.limits.perClient, clientKey(x.c.req.raw), x.env, x.requestId),
  };
}

/** Part 5: every scheme the operation names is checked. */
function authenticateStep({ authenticate }: SecurityFeature): Step {
  return {
    name: "authenticate",
    async run(x) {
      const security = x.model.security;
      if (!security) return undefined;
      const waitUntil = waitUntilOf(x.c, x.requestId);
      const outcome = await authenticate(security, x.c.req.raw, x.env, x.requestId, waitUntil);
      if (!outcome.ok) return outcome.refusal;
      x.auth = outcome.auth;
      x.rateKey = outcome.rateKey;
      x.identity = outcome.identity;
      return undefined;
    },
  };
}

/** Part 8, once the credentials are valid: let in without one, counted by client, as above. */
function rateLimitByCredential({ enforce }: RateLimitsFeature): Step {
  return {
    name: "rateLimitByCredential",
    run(x) {
      const key = x.rateKey === undefined ? clientKey(x.c.req.raw) : `credential:${x.rateKey}`;
      return enforce(x.model.limits.perCredential, key, x.env, x.requestId);
    },
  };
}

/** RFC 9110 §15.5.7: nothing the client accepts can be answered, so nothing is done. */
function negotiateAnswer(types: readonly string[], vary: boolean): Step {
  const refusal: Refusal = {
    kind: "not-acceptable",
    problem: typedProblem(
      NOT_ACCEPTABLE,
      `This operation answers in these media types only: ${types.join(", ")}.`,
      { availableMediaTypes: types },
    ),
    ...(vary ? { headers: { vary: "accept" } } : {}),
  };
  return {
    name: "negotiateAnswer",
    run: (x) => (acceptable(x.accept, types) ? undefined : refusal),
  };
}

/** 415, 413, 400 and 422, in that order (`request/plan.ts`). */
const readRequest: Step = {
  name: "readRequest",
  async run(x) {
    const validation = await validateRequest(x.model.request, x.c);
    if (!validation.ok) return validation.refusal;
    x.input = validation.input;
    return undefined;
  },
};

/** The media type an answer of `status` is written in, as the request's `Accept` prefers. */
function mediaTypeFor(x: Exchange, status: number): string | undefined {
  const types = statusPlan(x.model.responses, status)?.types ?? [];
  return acceptable(x.accept, types) ?? types[0];
}

/** A handler's `transition` where part 3 declares no machine: there is none to take. */
const noTransition =
  (id: string) =>
  (_current: string): string => {
    throw new Error(`operation ${id} declares no transition`);
  };

/** A handler's `requireState` where part 3 declares no machine: there is none to be in. */
const noGuard =
  (id: string) =>
  (_current: string): void => {
    throw new Error(`operation ${id} declares no allowedIn`);
  };

/** Part 3's 409 for an operation asked to act on a resource in a state it does not act in. */
function stateRefusal(id: string, error: InstanceType<StatesFeature["StateRefused"]>): Refusal {
  const { machine, allowed } = error.plan;
  const where = error.current === undefined ? "its current state" : `state ${error.current}`;
  return {
    kind: "state-conflict",
    problem: typedProblem(
      STATE_CONFLICT,
      `${id} acts only on a resource ${machine} has in ${allowed.length === 1 ? "state" : "states"} ${allowed.join(", ")}; this one is in ${where}.`,
      {
        machine,
        ...(error.current === undefined ? {} : { currentState: error.current }),
        allowedStates: allowed,
      },
    ),
  };
}

/**
 * The handler; part 3's refused transition is its 409, the sandbox's refusals their
 * problems. `store` is the store feature, where the sandbox places some operation.
 */
function handle(states: StatesFeature | undefined, store: StoreFeature | undefined): Step {
  return { name: "handle", run: (x) => runHandler(x, states, store) };
}

/** The caller's sandbox store, or an error where the contract has none (a 500). */
function storeOf(x: Exchange, feature: StoreFeature | undefined): OpenedStore {
  if (!feature)
    throw new Error(
      `operation ${x.model.id}: context.store is used, but the sandbox places no operation of the contract, so it has no store`,
    );
  const { sandboxCaller } = x.model;
  const own = x.identity && { key: x.rateKey, ...x.identity };
  // A tenant's store is named by what let the caller into this operation. A sandbox is
  // named alike for every operation, by the way in any operation's requirements admit the
  // credentials sent (the reset route's), so a caller that sends its credentials on every
  // call meets its data whichever scheme each operation names; an open one names none.
  const caller = async (): Promise<StoreCaller | undefined> => {
    if (!sandboxCaller || (own && !feature.sandboxed(x.env))) return own;
    const who = await sandboxCaller(x.c.req.raw, x.env, x.requestId);
    return who.ok ? who.caller : own;
  };
  return feature.open(x.model.contract, x.env, caller, x.c.req.raw);
}

/** Runs `handler` (the operation's, or the sandbox as its handler) on the exchange. */
async function runHandler(
  x: Exchange,
  states: StatesFeature | undefined,
  feature: StoreFeature | undefined,
  handler = x.model.handler,
): Promise<Outcome> {
  const { id, emits, transition, allowedIn } = x.model;
  if (!handler) return undefined;
  let store: OpenedStore | undefined;
  try {
    x.result = await handler(x.input, {
      requestId: x.requestId,
      env: x.c.env,
      waitUntil: waitUntilOf(x.c, x.requestId),
      auth: x.auth,
      mediaTypeFor: (status) => mediaTypeFor(x, status),
      emit: (event, payload) => {
        // The types refuse this; plain JavaScript is refused here.
        if (!emits.includes(event))
          throw new Error(`operation ${id} does not declare that it emits ${event}`);
        x.emissions.push({ event, payload });
      },
      transition: states ? states.helper(transition, id, x.reached) : noTransition(id),
      requireState: states ? states.guard(allowedIn, id) : noGuard(id),
      version: x.version,
      // Made on first use: a handler that keeps its own storage pays nothing for it.
      get store() {
        store ??= storeOf(x, feature);
        return store;
      },
    });
  } catch (error) {
    if (feature && error instanceof feature.Refused) return error.refusal;
    if (states && error instanceof states.StateRefused) return stateRefusal(id, error);
    if (!states || !(error instanceof states.Refused) || !transition) throw error;
    const { machine, trigger } = transition;
    const where = error.current === undefined ? "its current state" : `state ${error.current}`;
    return {
      kind: "state-conflict",
      problem: typedProblem(STATE_CONFLICT, `${machine} does not allow ${trigger} from ${where}.`, {
        machine,
        trigger,
        ...(error.current === undefined ? {} : { currentState: error.current }),
        allowedTriggers: error.allowed,
      }),
    };
  }
  return undefined;
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

/** Whether a mismatch is logged, and whether it refuses the answer (`enforce`). */
function mismatchFound(x: Exchange, mismatch: string | undefined, status: number): boolean {
  const mode = responseValidationMode(x.c.env);
  if (mismatch === undefined || mode === "off") return false;
  const fields = { requestId: x.requestId, operationId: x.model.id, status, mismatch };
  log(mode === "enforce" ? "error" : "warn", "response does not match its declaration", fields);
  return mode === "enforce";
}

/** The handler's answer against its declaration; a part 7 error type is answered here. */
function checkAnswer(states: StatesFeature | undefined): Step {
  return { name: "checkAnswer", run: (x) => answerChecked(x, states) };
}

async function answerChecked(x: Exchange, states: StatesFeature | undefined): Promise<Outcome> {
  const result = x.result;
  if (!result) return internalError;
  const { responses, transition } = x.model;
  const checked = responseValidationMode(x.c.env) !== "off";
  if (result.error !== undefined) {
    const declared = responses.errors.get(result.error);
    const status = declared?.status ?? 500;
    if (
      checked &&
      mismatchFound(x, await errorMismatch(result.error, declared, result.members), status)
    )
      return internalError;
    if (!declared) return internalError;
    // The handler's own headers, but a problem is never stored (RFC 9111 §5.2.2.5).
    const headers = {
      ...answerHeaders(x.requestId, result.headers),
      "cache-control": "no-store",
    };
    return problemResponse(x.requestId, errorProblem(result, declared), headers);
  }
  if (!checked) return undefined;
  const declared = statusPlan(responses, result.status);
  const mediaType = result.mediaType ?? mediaTypeFor(x, result.status);
  const mismatch = await responseMismatch(declared, result, mediaType, x.vetted === true);
  if (mismatchFound(x, mismatch, result.status)) return internalError;
  // Part 3: the answer of a transition carries the state it reached.
  const success = result.status >= 200 && result.status < 300;
  if (
    success &&
    states &&
    mismatchFound(x, states.mismatch(transition, x.reached.target, result.body), result.status)
  )
    return internalError;
  return undefined;
}

/** Part 6: only a success sends its events; a failed request changed nothing to tell of. */
function emit(events: EventsFeature): Step {
  return { name: "emit", run: (x) => emitted(x, events) };
}

async function emitted(x: Exchange, { enqueue }: EventsFeature): Promise<Outcome> {
  const result = x.result;
  if (!result || result.error !== undefined || x.emissions.length === 0) return undefined;
  if (result.status < 200 || result.status >= 300) return undefined;
  const queued = await enqueue(
    x.model.contract,
    x.emissions,
    x.env,
    responseValidationMode(x.c.env),
    { requestId: x.requestId, operationId: x.model.id },
  );
  if (queued === "invalid") return internalError;
  if (queued === "unavailable") return EVENTS_UNAVAILABLE;
  return undefined;
}

/**
 * The answer without the members its schema marks write-only, whoever made it (a handler,
 * the examples, the sandbox), in every RESPONSE_VALIDATION setting: a secret a client sent
 * is never answered (OpenAPI 3.1 §4.8.24.1). Leaving one out is logged, with where, never
 * what.
 */
function withoutSecrets(
  x: Exchange,
  result: Extract<AnyResult, { status: number }>,
  media: MediaPlan | undefined,
): Extract<AnyResult, { status: number }> {
  // A body the build found none in (`vetted`) is not looked through again.
  const declared = x.vetted ? undefined : media?.writeOnly;
  if (!declared || result.body === undefined || media?.kind === "binary" || media?.kind === "text")
    return result;
  const dropped: string[] = [];
  const body = withoutWriteOnly(declared, result.body, dropped);
  if (dropped.length === 0) return result;
  log("warn", "answer held write-only members; left out", {
    requestId: x.requestId,
    operationId: x.model.id,
    status: result.status,
    members: dropped.slice(0, 20),
  });
  return { ...result, body };
}

/** RFC 9110 §13.1.2: whether `If-None-Match` names the tag (weak comparison) or is `*`. */
function noneMatch(field: string | null, etag: string | undefined): boolean {
  if (field === null || etag === undefined) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, "");
  return field.trim() === "*" || field.split(",").some((tag) => weak(tag) === weak(etag));
}

/**
 * RFC 9110 §15.4.5: a GET whose answer has an entity tag the request's `If-None-Match`
 * names is answered 304, with no body, the tag and the answer's own header fields.
 */
function notModified(x: Exchange, result: Extract<AnyResult, { status: number }>) {
  const request = x.c.req.raw;
  const etag = result.headers?.etag;
  if (!["GET", "HEAD"].includes(request.method) || result.status !== 200) return undefined;
  if (!noneMatch(request.headers.get("if-none-match"), etag)) return undefined;
  return new Response(null, { status: 304, headers: answerHeaders(x.requestId, result.headers) });
}

/** The answer, written as its media type says (304 where the caller holds it already). */
const respond: Step = {
  name: "respond",
  run(x) {
    const result = x.result;
    if (!result || result.error !== undefined) return internalError;
    const unchanged = notModified(x, result);
    if (unchanged) return unchanged;
    const declared = statusPlan(x.model.responses, result.status);
    const mediaType = result.mediaType ?? mediaTypeFor(x, result.status);
    const media = mediaType === undefined ? undefined : declared?.media.get(mediaType);
    return serialise(
      withoutSecrets(x, result, media),
      media && mediaType ? { mediaType, kind: media.kind, xml: media.xml } : undefined,
      x.requestId,
      x.model.responses.vary ? { vary: "accept" } : undefined,
    );
  },
};
