/**
 * Problem answers (RFC 9457) in the OpenAPI document: the problem document's schema, one
 * schema per problem type of the platform and the engine (with its extension members
 * typed, so client generators see types, not `unknown`), the response object of a problem,
 * and part 7's error types as `components.responses`.
 */

import { PLATFORM } from "../../contract-language/document-marks";
import type { CataloguedProblem, PlatformProblem } from "../../contract-language/problem-catalogue";
export type Json = Record<string, unknown>;

export const COMPONENT = "#/components/schemas/";
export {
  ALLOWED_IN,
  DEPRECATION,
  EMITS,
  ENVELOPE,
  ERROR_TYPE,
  MERGED,
  PLATFORM,
  PRESENTS,
  STATE_MACHINES,
  TRANSITION,
  VIEW_OF,
} from "../../contract-language/document-marks";

export const PROBLEM_MEDIA = "application/problem+json";

/** A problem answer as documented for one operation, at the status it is answered with. */
export interface DocumentedFailure {
  readonly status: number;
  readonly response: Json;
  /** Which of the platform's failures it is, where it has a name. */
  readonly kind?: string;
  /** Part 7's error type that answers it, where one presents it. */
  readonly presentedBy?: string;
}

/**
 * A failure of the platform's, as documented: with its problem type's schema, or, where
 * part 7 presents `kind`, as that error type at its status.
 */
export type FailureDocumenter = (
  kind: PlatformProblem | undefined,
  status: number,
  description: string,
  options?: { readonly type?: CataloguedProblem; readonly headers?: Json },
) => DocumentedFailure;

/** RFC 9457 §3.1, plus the platform's request id; other members are allowed (§3.2). */
const PROBLEM_SCHEMA: Json = {
  [PLATFORM]: true,
  type: "object",
  description: "An RFC 9457 problem document.",
  properties: {
    type: { type: "string", format: "uri-reference" },
    title: { type: "string" },
    status: { type: "integer", minimum: 100, maximum: 599 },
    detail: { type: "string" },
    instance: { type: "string", format: "uri-reference" },
    requestId: { type: "string", description: "The id of the request, as in X-Request-Id." },
  },
  required: ["type", "title", "status", "requestId"],
};

export const PROBLEM_REF: Json = { $ref: `${COMPONENT}Problem` };

/** `X-Request-Id`: on every answer, as `components.headers.XRequestId`. */
export const REQUEST_ID_HEADER: Json = {
  [PLATFORM]: true,
  description:
    "The id of this request: the client's own, if 1 to 64 of [A-Za-z0-9._:-], or a fresh UUID.",
  required: true,
  schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,64}$" },
};
/** A client may send its own request id, to correlate across systems (OWASP Logging Cheat Sheet). */
export const REQUEST_ID_PARAMETER: Json = {
  [PLATFORM]: true,
  name: "X-Request-Id",
  in: "header",
  required: false,
  description: "An id for this request; kept if 1 to 64 of [A-Za-z0-9._:-], otherwise replaced.",
  schema: { type: "string" },
};
export const REQUEST_ID_HEADERS: Json = {
  "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
};

/** The schema name of a platform or engine problem type, as its catalogue entry names it. */
export function problemSchemaName(type: CataloguedProblem): string {
  return type.schemaName;
}

/** One problem type's schema: the problem document and its own members, required but its optional ones. */
function problemTypeSchema(type: CataloguedProblem): Json {
  const members = type.schemas ?? {};
  if (Object.keys(members).length === 0)
    return { [PLATFORM]: true, ...PROBLEM_REF, description: type.title };
  const optional = new Set(type.optional ?? []);
  const required = Object.keys(members).filter((member) => !optional.has(member));
  return {
    [PLATFORM]: true,
    description: type.title,
    allOf: [
      PROBLEM_REF,
      { type: "object", properties: members, ...(required.length > 0 ? { required } : {}) },
    ],
  };
}

/** `components.schemas` for the problem document and the platform's and engine's problem types. */
export function problemSchemas(types: readonly CataloguedProblem[]): Json {
  const schemas: Json = { Problem: PROBLEM_SCHEMA };
  for (const type of types) schemas[problemSchemaName(type)] = problemTypeSchema(type);
  return schemas;
}

/** A response object for a problem answer, with the headers that come with it. */
export function problemAnswer(description: string, schema: Json, headers: Json = {}): Json {
  return {
    description,
    headers: { ...REQUEST_ID_HEADERS, ...headers },
    content: { [PROBLEM_MEDIA]: { schema } },
  };
}
