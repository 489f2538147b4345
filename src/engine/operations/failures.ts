/**
 * Every failure one operation can answer with, worked out from what it declares: the one
 * place each HTTP rule is written (when a 406 applies, which header a 415 names the accepted
 * types in, how a rate limit is worded, …). Serving reads these rules, the OpenAPI document
 * prints the list (`operationObject`), and the problem list is the union of the lists of
 * every operation (`operationProblemTypes`). Cheap: it reads declarations, never a schema,
 * so the problem list can be built when the app starts without planning any operation.
 */
import {
  type Contract,
  issuerVouched,
  type Operation,
  operationShapes,
} from "../../contract-language/contract";
import { fixedQuery } from "../../contract-language/path-key";
import {
  AUTHENTICATION_REQUIRED,
  CONTENT_TOO_LARGE,
  type EngineProblemType,
  INSUFFICIENT_SCOPE,
  MALFORMED_REQUEST,
  NOT_ACCEPTABLE,
  NOT_IN_VERSION,
  OPERATION_GONE,
  OPERATION_NOT_IMPLEMENTED,
  type PlatformProblem,
  RATE_LIMIT_EXCEEDED,
  STATE_CONFLICT,
  UNSUPPORTED_MEDIA_TYPE,
  UNSUPPORTED_VERSION,
  VALIDATION_FAILED,
  VERSION_GONE,
} from "../../contract-language/problem-catalogue";
import { rateLimitWording } from "../../platform/limit-wording";
import type { Json } from "../../platform/openapi/document";
import { type OperationLimits, planLimits } from "../limits/plan";
import { acceptHint } from "../request/content-negotiation";
import { retirementOf } from "../versions/plan";

/** One failure an operation can answer with: its status, problem type and headers. */
export interface Failure {
  /** Which of the platform's failures it is, where part 7 may present it as its own type. */
  readonly kind: PlatformProblem | undefined;
  readonly status: number;
  /** Its problem type; none for a plain RFC 9457 problem (`about:blank`). */
  readonly type: EngineProblemType | undefined;
  /** What causes it, as the document says. */
  readonly description: string;
  /** The headers it carries, as OpenAPI header objects by name. */
  readonly headers?: Json;
  /** Answered only while no handler is attached to the operation (501). */
  readonly withoutHandler?: true;
}

/** Whether a response key is a success: an exact 2xx status or the `2XX` range. */
function isSuccessKey(status: string): boolean {
  return status === "2XX" || (Number(status) >= 200 && Number(status) < 300);
}

/**
 * The 406 rule (RFC 9110 §15.5.7): the media types every success answer is one of, when
 * each has a body; `undefined` when one has none (or there is no success answer), so
 * `Accept` cannot rule a request out before the handler runs.
 */
export function successTypes(op: Operation): readonly string[] | undefined {
  const answers = Object.entries(op.responses).filter(([status]) => isSuccessKey(status));
  const everyHasBody = answers.every(
    ([, response]) => Object.keys(response?.content ?? {}).length > 0,
  );
  const types = declaredSuccessTypes([op]);
  return everyHasBody && types.length > 0 ? types : undefined;
}

/** The media types the success answers of `shapes` (an operation and its variants) declare, once each. */
export function declaredSuccessTypes(shapes: readonly Operation[]): string[] {
  const types = new Set<string>();
  for (const shape of shapes)
    for (const [status, response] of Object.entries(shape.responses))
      if (isSuccessKey(status))
        for (const type of Object.keys(response?.content ?? {})) types.add(type);
  return [...types];
}

/** The seconds a client waits after a refusal that names them (RFC 9110 §10.2.3). */
const RETRY_AFTER = (description: string): Json => ({
  "Retry-After": { description, required: true, schema: { type: "integer", minimum: 1 } },
});

const challenge = (description: string): Json => ({
  "WWW-Authenticate": { description, required: true, schema: { type: "string" } },
});

/** Whether part 9 negotiates a version on every request. */
function negotiated(contract: Contract): boolean {
  return contract.versioning?.versions !== undefined && contract.versioning.placement !== undefined;
}

/** Part 5's failures: 401, and 403 where a requirement names scopes. */
function securityFailures(op: Operation): Failure[] {
  const requirements = op.security ?? [];
  if (requirements.length === 0) return [];
  const scoped = requirements.some((r) => Object.values(r).some((s) => s.length > 0));
  return [
    {
      kind: "authentication-required",
      status: 401,
      type: AUTHENTICATION_REQUIRED,
      description: "Missing or invalid credentials.",
      headers: challenge("A challenge for each scheme the operation accepts (RFC 9110 §11.6.1)."),
    },
    ...(scoped
      ? [
          {
            kind: "insufficient-scope",
            status: 403,
            type: INSUFFICIENT_SCOPE,
            description: "Valid credentials without the scopes required.",
            headers: challenge(
              'Bearer error="insufficient_scope" with the scopes needed (RFC 6750 §3.1).',
            ),
          } as const,
        ]
      : []),
  ];
}

/** Part 5's 503: a key set or introspection endpoint that could not be asked. */
function issuerFailures(contract: Contract, op: Operation): Failure[] {
  const vouched = (op.security ?? []).some((r) =>
    Object.keys(r).some((name) => {
      const scheme = contract.securitySchemes[name];
      return scheme !== undefined && issuerVouched(scheme);
    }),
  );
  return vouched
    ? [
        {
          kind: "service-unavailable",
          status: 503,
          type: undefined,
          description: "The credentials could not be verified right now.",
          headers: RETRY_AFTER("Seconds to wait before retrying."),
        },
      ]
    : [];
}

/** What reading the request can refuse: 400, 413, 415 and 422. */
function requestFailures(op: Operation, limits: OperationLimits): Failure[] {
  const body = op.request?.body;
  // Told apart from others on its path by fixed query values: a request without them is
  // invalid, one with values no operation has is 404 (src/engine/operations/fixed-query.ts).
  const told = Object.keys(fixedQuery(op)).length > 0;
  const schemas =
    told ||
    body !== undefined ||
    [op.request?.params, op.request?.query, op.request?.headers, op.request?.cookies].some(Boolean);
  const hint = acceptHint(op);
  const malformed: Failure = {
    kind: "malformed-request",
    status: 400,
    type: MALFORMED_REQUEST,
    // What the platform refuses on purpose is said where a client reads it (OWASP: prototype
    // pollution), not only on the problem type's page.
    description:
      "Malformed request: a body that is missing, empty, not valid UTF-8, not well-formed, or holds a member named __proto__ or constructor.prototype (refused whatever the schema allows).",
  };
  const tooLarge: Failure = {
    kind: "content-too-large",
    status: 413,
    type: CONTENT_TOO_LARGE,
    description:
      limits.maxBodyBytes === undefined
        ? "Request body larger than the platform's cap (the status report's platformDefaults)."
        : `Request body larger than ${limits.maxBodyBytes} bytes.`,
  };
  const unsupported: Failure = {
    kind: "unsupported-media-type",
    status: 415,
    type: UNSUPPORTED_MEDIA_TYPE,
    description: "A body of a media type the operation does not take.",
    ...(hint
      ? {
          headers: {
            [hint.name]: {
              description: "The media types accepted (RFC 9110 §15.5.16).",
              required: true,
              schema: { type: "string" },
            },
          },
        }
      : {}),
  };
  const invalid: Failure = {
    kind: "validation-failed",
    status: 422,
    type: VALIDATION_FAILED,
    description: "The request does not satisfy the schemas.",
  };
  const unknown: Failure = {
    kind: "not-found",
    status: 404,
    type: undefined,
    description:
      "No operation of this path answers the values given for its fixed query parameters.",
  };
  return [
    ...(body ? [malformed, tooLarge] : []),
    unsupported,
    ...(schemas ? [invalid] : []),
    ...(told ? [unknown] : []),
  ];
}

/** Part 8's 429, with every rate limit that counts the operation's requests. */
function rateFailures(limits: OperationLimits): Failure[] {
  const rates = [...limits.perClient, ...limits.perCredential];
  if (rates.length === 0) return [];
  return [
    {
      kind: "rate-limit-exceeded",
      status: 429,
      type: RATE_LIMIT_EXCEEDED,
      description: `Rate limit exceeded: ${rates
        .map(({ name, limit }) => `${name}: ${rateLimitWording(limit)}`)
        .join("; ")}.`,
      headers: RETRY_AFTER("Seconds to wait: the limit's whole period (RFC 9110 §10.2.3)."),
    },
  ];
}

/** Part 9's failures, and an operation's own sunset. */
function versionFailures(contract: Contract, op: Operation): Failure[] {
  const failures: Failure[] = [];
  const versions = contract.versioning?.versions ?? {};
  if (negotiated(contract)) {
    failures.push({
      kind: "unsupported-version",
      status: 400,
      type: UNSUPPORTED_VERSION,
      description: "A version of the interface the service does not have.",
    });
    // A request may state any declared version, so what any of them answers can be
    // answered on this path: 410 when one has a sunset, 404 when one lacks the operation.
    const sunsets = Object.entries(versions).flatMap(([v, d]) =>
      d.sunset ? [`${v}: ${d.sunset}`] : [],
    );
    if (sunsets.length > 0)
      failures.push({
        kind: "version-gone",
        status: 410,
        type: VERSION_GONE,
        description: `A version past its sunset (${sunsets.join("; ")}), no longer served.`,
      });
  }
  const retirement = retirementOf(op);
  if (retirement?.sunset)
    failures.push({
      kind: "operation-gone",
      status: 410,
      type: OPERATION_GONE,
      description: `Past its own sunset (${retirement.sunset}), it is no longer served.`,
    });
  if (
    negotiated(contract) &&
    (op.versions?.added !== undefined || op.versions?.removed !== undefined)
  )
    failures.push({
      kind: "not-in-version",
      status: 404,
      type: NOT_IN_VERSION,
      description: "A version of the interface that does not have this operation.",
    });
  return failures;
}

/**
 * Every failure operation `op` (of id `id`) can answer with, in the order the document lists
 * them. Failures the handler's own answers bring (part 7's error types it declares) are its
 * responses, not these.
 */
export function operationFailures(
  contract: Contract,
  id: string,
  op: Operation,
  limits: OperationLimits = planLimits(contract, id),
): Failure[] {
  const [unauthenticated, ...forbidden] = securityFailures(op);
  const accepted = successTypes(op);
  const requestSide = requestFailures(op, limits);
  return [
    ...(unauthenticated ? [unauthenticated, ...forbidden] : []),
    ...(accepted
      ? [
          {
            kind: "not-acceptable",
            status: 406,
            type: NOT_ACCEPTABLE,
            description: "None of the media types the client accepts.",
          } as const,
        ]
      : []),
    ...(op.transition || op.allowedIn
      ? [
          {
            kind: "state-conflict",
            status: 409,
            type: STATE_CONFLICT,
            description: op.transition
              ? "The resource's state does not allow this transition."
              : `The resource is in a state the operation does not act in (it acts in ${op.allowedIn?.states.join(", ")}).`,
          } as const,
        ]
      : []),
    ...requestSide,
    ...rateFailures(limits),
    ...versionFailures(contract, op),
    { kind: "internal-error", status: 500, type: undefined, description: "Unexpected error." },
    {
      kind: "operation-not-implemented",
      status: 501,
      type: OPERATION_NOT_IMPLEMENTED,
      description: "Declared, but not implemented yet.",
      withoutHandler: true,
    },
    ...issuerFailures(contract, op),
    ...eventFailures(op),
  ];
}

/**
 * The sandbox's 404 (RFC 9110 §15.5.5): no item at the path, where the sandbox places the
 * operation on one and the operation does not answer a missing item itself
 * (src/mocks/sandbox/place.ts, `sandboxNotFound`). Answered only while no handler is
 * attached, as the 501 is.
 */
export const SANDBOX_NOT_FOUND: Failure = {
  kind: "not-found",
  status: 404,
  type: undefined,
  description:
    'No item exists at this path: the sandbox\'s answer (UNHANDLED_OPERATIONS = "sandbox") while no handler is attached.',
  withoutHandler: true,
};

/**
 * The sandbox's 503 (RFC 9110 §15.6.4) where it writes an item it holds: every try lost to
 * another write of the same item at the same moment; nothing changed, Retry-After says when
 * to try again. Answered only while no handler is attached.
 */
export const SANDBOX_CONTENDED: Failure = {
  kind: "service-unavailable",
  status: 503,
  type: undefined,
  description:
    'The item changed under every try to write it (many writes at once): the sandbox\'s answer (UNHANDLED_OPERATIONS = "sandbox"); nothing was changed.',
  headers: RETRY_AFTER("Seconds to wait before trying again."),
  withoutHandler: true,
};

/**
 * The sandbox's 412 (RFC 9110 §13.1.1, §15.5.13) where it writes an item it holds: the
 * request's If-Match (or a PUT's If-None-Match) does not hold for the item's entity tag.
 * Answered only while no handler is attached.
 */
export const SANDBOX_PRECONDITION_FAILED: Failure = {
  kind: undefined,
  status: 412,
  type: undefined,
  description:
    "The request's If-Match (or If-None-Match) does not hold for the item's ETag: the sandbox's answer (UNHANDLED_OPERATIONS = \"sandbox\"); nothing was changed.",
  withoutHandler: true,
};

/**
 * The sandbox's 507 (RFC 4918 §11.5) where it stores an item: the caller's sandbox holds as
 * many items, or bytes, as the deployment's SANDBOX_MAX_ITEMS or SANDBOX_MAX_BYTES let it.
 * Answered only while no handler is attached.
 */
export const SANDBOX_FULL: Failure = {
  kind: undefined,
  status: 507,
  type: undefined,
  description:
    "The caller's sandbox holds as many items (or bytes) as the deployment lets it: the sandbox's answer (UNHANDLED_OPERATIONS = \"sandbox\"); nothing was stored.",
  withoutHandler: true,
};

/**
 * The sandbox's 409 (RFC 9110 §15.5.10) where it creates an item: the caller chose an id an
 * item already has. Answered only while no handler is attached.
 */
export const SANDBOX_ID_TAKEN: Failure = {
  kind: undefined,
  status: 409,
  type: undefined,
  description:
    'An item with the id the request gives exists already: the sandbox\'s answer (UNHANDLED_OPERATIONS = "sandbox"); nothing was stored.',
  withoutHandler: true,
};

/** Part 6's 503: the events of a successful request could not be queued. */
function eventFailures(op: Operation): Failure[] {
  return (op.emits ?? []).length > 0
    ? [
        {
          kind: "service-unavailable",
          status: 503,
          type: undefined,
          description: "The events of the request could not be queued.",
          headers: RETRY_AFTER("Seconds to wait before retrying."),
        },
      ]
    : [];
}

/** The engine's problem types in the order the document lists them. */
const DOCUMENTED_ORDER: readonly EngineProblemType[] = [
  OPERATION_NOT_IMPLEMENTED,
  UNSUPPORTED_MEDIA_TYPE,
  CONTENT_TOO_LARGE,
  MALFORMED_REQUEST,
  VALIDATION_FAILED,
  NOT_ACCEPTABLE,
  AUTHENTICATION_REQUIRED,
  INSUFFICIENT_SCOPE,
  RATE_LIMIT_EXCEEDED,
  STATE_CONFLICT,
  OPERATION_GONE,
  UNSUPPORTED_VERSION,
  VERSION_GONE,
  NOT_IN_VERSION,
];

/**
 * The problem types a contract's operations can answer with: the union of every
 * operation's failures, in every variant, each type once.
 */
export function operationProblemTypes(contract: Contract): EngineProblemType[] {
  const types = new Set<EngineProblemType>();
  for (const [id, operation] of Object.entries(contract.operations)) {
    const limits = planLimits(contract, id);
    for (const shape of operationShapes(operation))
      for (const failure of operationFailures(contract, id, shape, limits))
        if (failure.type) types.add(failure.type);
  }
  // In the order the document has always listed them, whatever order the operations are
  // declared in: a request's own failures first, as it meets them, then each part's.
  return [...types].sort((a, b) => DOCUMENTED_ORDER.indexOf(a) - DOCUMENTED_ORDER.indexOf(b));
}
