/**
 * The OpenAPI documentation of parts 4, 5 and 8: each declared operation with its
 * parameters, body, responses and every problem answer the platform can give for it; the
 * security schemes; the limits' 413 and 429. Part of the operation engine, so a contract
 * that declares no operation does not ship it.
 */
import type { Contract, Operation, SecurityScheme } from "../../domain/contract";
import {
  type Convert,
  type DeclaredDocumentation,
  documentedProblem,
  type Json,
  PROBLEM_REF,
  ref,
} from "../../platform/openapi";
import type { ProblemType } from "../../platform/problem";
import { type OperationLimits, planLimits } from "../limits/plan";
import {
  AUTHENTICATION_REQUIRED,
  CONTENT_TOO_LARGE,
  MALFORMED_REQUEST,
  OPERATION_NOT_IMPLEMENTED,
  RATE_LIMIT_EXCEEDED,
  UNSUPPORTED_MEDIA_TYPE,
  VALIDATION_FAILED,
} from "../problem-types";

/** `Title (problem type slug).`: how a documented answer names its problem type. */
const named = (type: ProblemType, title = type.title) => `${title} (problem type ${type.slug}).`;

const VALIDATION_PROBLEM_SCHEMA: Json = {
  allOf: [
    PROBLEM_REF,
    {
      type: "object",
      properties: {
        errors: {
          type: "array",
          items: {
            type: "object",
            properties: {
              in: { enum: ["path", "query", "header", "cookie", "body"] },
              pointer: { type: "string" },
              detail: { type: "string" },
            },
            required: ["in", "pointer", "detail"],
          },
        },
      },
      required: ["errors"],
    },
  ],
};

/** The problem answers every declared operation may give, referred to by status. */
const OPERATION_RESPONSES: Json = {
  Problem400: documentedProblem(named(MALFORMED_REQUEST)),
  Problem413: documentedProblem(named(CONTENT_TOO_LARGE, "Request body too large")),
  Problem415: documentedProblem(named(UNSUPPORTED_MEDIA_TYPE)),
  Problem422: documentedProblem(named(VALIDATION_FAILED), {
    $ref: "#/components/schemas/ValidationProblem",
  }),
  Problem501: documentedProblem(named(OPERATION_NOT_IMPLEMENTED)),
};

/** Answers that exist only once part 5 or part 8 declares what causes them. */
const PROBLEM_401: Json = {
  ...documentedProblem(named(AUTHENTICATION_REQUIRED, "Missing or invalid credentials")),
  headers: {
    "WWW-Authenticate": {
      description: "A challenge for each scheme the operation accepts (RFC 9110 §11.6.1).",
      required: true,
      schema: { type: "string" },
    },
  },
};
const RETRY_AFTER = {
  description: "Seconds to wait: the limit's whole period (RFC 9110 §10.2.3).",
  required: true,
  schema: { type: "integer", minimum: 1 },
};

/** Part 5's schemes as OpenAPI security schemes; the secrets' binding names stay private. */
function securitySchemeObject(scheme: SecurityScheme): Json {
  const description = scheme.description ? { description: scheme.description } : {};
  if (scheme.type === "apiKey")
    return { type: "apiKey", in: scheme.in, name: scheme.name, ...description };
  const format =
    scheme.scheme === "bearer" && scheme.bearerFormat ? { bearerFormat: scheme.bearerFormat } : {};
  return { type: "http", scheme: scheme.scheme, ...format, ...description };
}

function parametersOf(op: Operation, convert: Convert): Json[] {
  const parts = [
    ["path", op.request?.params],
    ["query", op.request?.query],
    ["header", op.request?.headers],
    ["cookie", op.request?.cookies],
  ] as const;
  const parameters: Json[] = [];
  for (const [location, schema] of parts) {
    if (!schema) continue;
    const object = convert(schema, "input");
    const required = new Set((object.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((object.properties as Json | undefined) ?? {})) {
      parameters.push({
        name,
        in: location,
        required: location === "path" || required.has(name),
        schema: property,
      });
    }
  }
  return parameters;
}

interface OperationFacts {
  readonly id: string;
  readonly op: Operation;
  readonly implemented: boolean;
  readonly limits: OperationLimits;
}

/** Part 8's answers for one operation: its own body cap, and 429 for its rate limits. */
function limitResponses(limits: OperationLimits): Json {
  const responses: Json = {};
  if (limits.maxBodyBytes !== undefined) {
    responses[413] = documentedProblem(
      named(CONTENT_TOO_LARGE, `Request body larger than ${limits.maxBodyBytes} bytes`),
    );
  }
  const rates = [...limits.perClient, ...limits.perCredential];
  if (rates.length > 0) {
    const each = rates.map(
      ({ name, limit }) =>
        `${name}: ${limit.limit} requests per ${limit.period} s per ${limit.key === "client" ? "client address" : "credential"}`,
    );
    responses[429] = {
      ...documentedProblem(
        `Rate limit exceeded (problem type ${RATE_LIMIT_EXCEEDED.slug}); ${each.join("; ")}.`,
      ),
      headers: { "Retry-After": RETRY_AFTER },
    };
  }
  return responses;
}

function operationObject(facts: OperationFacts, convert: Convert): Json {
  const { id, op, implemented, limits } = facts;
  const body = op.request?.body;
  const hasSchemas =
    body !== undefined ||
    [op.request?.params, op.request?.query, op.request?.headers, op.request?.cookies].some(Boolean);
  const responses: Json = {};
  for (const [status, declared] of Object.entries(op.responses)) {
    responses[status] = {
      description: declared.description,
      ...(declared.content
        ? {
            content: Object.fromEntries(
              Object.entries(declared.content).map(([type, schema]) => [
                type,
                { schema: convert(schema, "output") },
              ]),
            ),
          }
        : {}),
    };
  }
  for (const [status, response] of Object.entries(limitResponses(limits)))
    responses[status] ??= response;
  const secured = op.security !== undefined && op.security.length > 0;
  const platform = [
    ...(secured ? [401] : []),
    ...(body ? [400, 413] : []),
    415,
    ...(hasSchemas ? [422] : []),
    500,
    ...(implemented ? [] : [501]),
  ];
  for (const status of platform) responses[status] ??= ref(status);
  return {
    operationId: id,
    ...(op.summary ? { summary: op.summary } : {}),
    ...(op.description ? { description: op.description } : {}),
    ...(op.security
      ? { security: op.security.map((names) => Object.fromEntries(names.map((n) => [n, []]))) }
      : {}),
    parameters: parametersOf(op, convert),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              Object.entries(body).map(([type, schema]) => [
                type,
                { schema: convert(schema, "input") },
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/** Part 4's paths, part 5's schemes and the answers they bring. */
export function documentOperations(
  contract: Contract,
  implemented: ReadonlySet<string>,
  convert: Convert,
): DeclaredDocumentation {
  const paths: Record<string, Json> = {};
  for (const [id, op] of Object.entries(contract.operations)) {
    const item = paths[op.path] ?? {};
    item[op.method.toLowerCase()] = operationObject(
      { id, op, implemented: implemented.has(id), limits: planLimits(contract, id) },
      convert,
    );
    paths[op.path] = item;
  }
  const securitySchemes: Json = {};
  for (const [name, scheme] of Object.entries(contract.securitySchemes))
    securitySchemes[name] = securitySchemeObject(scheme);
  const operations = Object.keys(contract.operations).length > 0;
  const responses: Json = operations ? { ...OPERATION_RESPONSES } : {};
  if (Object.keys(securitySchemes).length > 0) responses.Problem401 = PROBLEM_401;
  const schemas: Json = operations ? { ValidationProblem: VALIDATION_PROBLEM_SCHEMA } : {};
  return { paths, schemas, securitySchemes, responses };
}
