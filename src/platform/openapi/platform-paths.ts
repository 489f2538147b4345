/**
 * The platform's own endpoints under `/_service`, as the OpenAPI document shows them:
 * each answer with its schema and headers (so a client generator sees types), its 500,
 * and `security: []` once the contract declares schemes (they need no credential).
 */
import { SERVICE_PATHS } from "../paths";
import { allowHeader } from "../resource";
import {
  COMPONENT,
  type FailureDocumenter,
  type Json,
  PLATFORM,
  REQUEST_ID_HEADERS,
} from "./problems";

export const PLATFORM_TAG = "platform";

/** draft-inadarei-api-health-check. */
const HEALTH_SCHEMA: Json = {
  [PLATFORM]: true,
  type: "object",
  description: "The health of this deployment (draft-inadarei-api-health-check).",
  properties: { status: { enum: ["pass", "warn", "fail"] } },
  required: ["status"],
};

const PART_SCHEMA: Json = {
  type: "object",
  properties: {
    number: { type: "integer", minimum: 1, maximum: 9 },
    name: { type: "string" },
    title: { type: "string" },
    specified: { type: "boolean" },
    declared: { type: "object", additionalProperties: { type: "integer", minimum: 0 } },
    source: { type: "string" },
  },
  required: ["number", "name", "title", "specified", "declared", "source"],
};

const STATUS_REPORT_SCHEMA: Json = {
  [PLATFORM]: true,
  type: "object",
  description: "For each of the nine parts of the interface specification, whether it is declared.",
  properties: {
    description: { type: "string" },
    specifiedParts: { type: "integer", minimum: 0, maximum: 9 },
    totalParts: { const: 9 },
    parts: { type: "array", items: PART_SCHEMA, minItems: 9, maxItems: 9 },
    limits: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          kind: { enum: ["body-size", "rate", "page-size"] },
        },
        required: ["name", "kind"],
      },
    },
    platformDefaults: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          value: { type: "number" },
          unit: { type: "string" },
          reason: { type: "string" },
        },
        required: ["name", "value", "unit", "reason"],
      },
    },
    errorModel: {
      type: "array",
      description: "The platform's failures answered as part 7's error types (RFC 9457).",
      items: {
        type: "object",
        properties: {
          failure: { type: "string" },
          errorType: { type: "string" },
          status: { type: "integer", minimum: 400, maximum: 599 },
          type: { type: "string", format: "uri-reference" },
        },
        required: ["failure", "errorType", "status", "type"],
      },
    },
    events: {
      type: "array",
      description: "Part 6's events and how many destinations this deployment sends each to.",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          summary: { type: "string" },
          destinations: { type: "integer", minimum: 0 },
        },
        required: ["name", "destinations"],
      },
    },
    states: {
      type: "array",
      description: "Part 3's state machines, with their states and transitions.",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          resource: { type: "string" },
          field: { type: "string" },
          states: { type: "array", items: { type: "string" } },
          initial: { type: "string" },
          transitions: {
            type: "array",
            items: {
              type: "object",
              properties: {
                from: { type: "string" },
                to: { type: "string" },
                trigger: { type: "string" },
              },
              required: ["from", "to", "trigger"],
            },
          },
        },
        required: ["name", "resource", "states", "initial", "transitions"],
      },
    },
    versions: {
      type: "array",
      description: "Part 9's versions, oldest first, with their deprecation and sunset dates.",
      items: {
        type: "object",
        properties: {
          version: { type: "string" },
          current: { type: "boolean" },
          deprecated: { type: "string" },
          sunset: { type: "string" },
          migration: { type: "string", format: "uri" },
        },
        required: ["version", "current"],
      },
    },
    versionPlacement: {
      type: "object",
      description:
        "Where a request states the version it wants: a header, a query parameter, a media-type parameter, or the path's first segment.",
      properties: {
        in: { enum: ["header", "query", "media-type", "path"] },
        name: { type: "string" },
        parameter: { type: "string" },
      },
      required: ["in"],
    },
    cors: {
      type: "object",
      description:
        "Cross-origin requests from browsers (CORS), a setting of this deployment: the origins allowed (`*`: any), whether with credentials, and how long a preflight is kept; `refused` says why a setting was not applied (CORS is then off).",
      properties: {
        enabled: { type: "boolean" },
        origins: { type: "array", items: { type: "string" } },
        credentials: { type: "boolean" },
        maxAgeSeconds: { type: "integer", minimum: 0 },
        refused: { type: "string" },
      },
      required: ["enabled", "origins"],
    },
  },
  required: [
    "description",
    "specifiedParts",
    "totalParts",
    "parts",
    "limits",
    "platformDefaults",
    "errorModel",
    "events",
    "states",
    "versions",
    "cors",
  ],
};

/** `components.schemas` of the platform's documents. */
export function platformSchemas(): Json {
  return { HealthDocument: HEALTH_SCHEMA, StatusReport: STATUS_REPORT_SCHEMA };
}

const ETAG_HEADERS: Json = {
  ETag: {
    description: "The document's entity tag (RFC 9110 §8.8.3).",
    required: true,
    schema: { type: "string" },
  },
};
const IF_NONE_MATCH: Json = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description:
    "An entity tag of a copy the client holds: 304 when it is current (RFC 9110 §13.1.2).",
  schema: { type: "string" },
};

/** `?version=`: the document of a version of part 9; the current one without it. */
const VERSION_PARAMETER: Json = {
  name: "version",
  in: "query",
  required: false,
  description:
    "A version of the interface (part 9): that version's document. Without it, the current one.",
  schema: { type: "string" },
};

/** `?version=`: the reference of a version of part 9; the current one without it. */
const REFERENCE_VERSION_PARAMETER: Json = {
  ...VERSION_PARAMETER,
  description:
    "A version of the interface (part 9): that version's reference. Without it, the current one.",
};

/**
 * OPTIONS on a resource, which the platform answers on every path (RFC 9110 §9.3.7): 204
 * with `Allow`, or, as any answer can, the platform's 500 problem (RFC 9457), as part 7
 * presents it where it does. Tagged `platform`: it is not an operation of the service's
 * interface.
 */
export function optionsOperation(
  id: string,
  methods: readonly string[],
  pathParameters: readonly Json[],
  failure: FailureDocumenter,
): Json {
  const allow = allowHeader(methods);
  const unexpected = failure("internal-error", 500, "Unexpected error.");
  return {
    [PLATFORM]: true,
    operationId: `${id}.options`,
    tags: [PLATFORM_TAG],
    summary: "The methods this resource answers",
    description: `Answered by the platform on every path: ${allow}. Any other method is 405 with the same Allow.`,
    security: [],
    parameters: [{ $ref: "#/components/parameters/XRequestId" }, ...pathParameters],
    responses: {
      204: {
        description: "No content: the methods are in Allow.",
        headers: {
          ...REQUEST_ID_HEADERS,
          Allow: {
            description: "The methods this resource answers (RFC 9110 §10.2.1).",
            required: true,
            schema: { type: "string", const: allow },
          },
        },
      },
      [unexpected.status]: unexpected.response,
    },
  };
}

/**
 * The path parameters an operation declares, for the platform's OPTIONS on the same path:
 * their names and descriptions, none of their constraints, since OPTIONS answers every
 * value of them (the document declares no check the wire does not make).
 */
export function pathParametersOf(operation: { readonly parameters?: readonly Json[] }): Json[] {
  return (operation.parameters ?? [])
    .filter((p) => p.in === "path")
    .map((p) => ({
      name: p.name,
      in: "path",
      required: true,
      ...(typeof p.description === "string" ? { description: p.description } : {}),
      schema: { type: "string" },
    }));
}

interface PlatformPaths {
  readonly hostedTypes: readonly string[];
  readonly secured: boolean;
  readonly failure: FailureDocumenter;
}

export function platformPaths({ hostedTypes, secured, failure }: PlatformPaths): Json {
  const ok = (description: string, content: Json, headers: Json = {}) => ({
    description,
    headers: { ...REQUEST_ID_HEADERS, ...headers },
    content,
  });
  const notModified = {
    description: "Not modified: the copy the client holds is current.",
    headers: { ...REQUEST_ID_HEADERS, ...ETAG_HEADERS },
  };
  const unexpected = failure("internal-error", 500, "Unexpected error.");
  const operation = (
    id: string,
    summary: string,
    responses: Json,
    parameters: readonly Json[] = [],
  ) => ({
    operationId: `_service.${id}`,
    tags: [PLATFORM_TAG],
    summary,
    description: `${summary}. An endpoint of the platform, not of the service's interface.`,
    ...(secured ? { security: [] } : {}),
    parameters: [{ $ref: "#/components/parameters/XRequestId" }, ...parameters],
    responses: { ...responses, [unexpected.status]: unexpected.response },
  });
  const notFound = failure(undefined, 404, "No problem type of that name.");
  // RFC 9110 §15.5.5: no document exists for a version the contract does not declare.
  const noSuchVersion = failure(undefined, 404, "No document for that version.");
  const noSuchReference = failure(undefined, 404, "No reference for that version.");
  const paths: Record<string, Json> = {
    [SERVICE_PATHS.health]: {
      get: operation("health", "Health of this deployment", {
        200: ok("Healthy", {
          "application/health+json": { schema: { $ref: `${COMPONENT}HealthDocument` } },
        }),
      }),
    },
    [SERVICE_PATHS.interface]: {
      get: operation(
        "interface",
        "Interface status report: which spec parts are declared",
        {
          200: ok(
            "The status report, as JSON or as an HTML page (by Accept)",
            {
              "application/json": { schema: { $ref: `${COMPONENT}StatusReport` } },
              "text/html": { schema: { type: "string" } },
            },
            ETAG_HEADERS,
          ),
          304: notModified,
        },
        [IF_NONE_MATCH],
      ),
    },
    [`${SERVICE_PATHS.problems}/{type}`]: {
      get: operation(
        "problemType",
        "Documentation of a problem type",
        {
          200: ok("An HTML page", { "text/html": { schema: { type: "string" } } }),
          [notFound.status]: notFound.response,
        },
        [{ name: "type", in: "path", required: true, schema: { enum: [...hostedTypes] } }],
      ),
    },
    [SERVICE_PATHS.openapi]: {
      get: operation(
        "openapi",
        "This document",
        {
          200: ok(
            "OpenAPI 3.1",
            {
              "application/json": {
                schema: { type: "object", description: "An OpenAPI 3.1 document." },
              },
            },
            ETAG_HEADERS,
          ),
          304: notModified,
          [noSuchVersion.status]: noSuchVersion.response,
        },
        [IF_NONE_MATCH, VERSION_PARAMETER],
      ),
    },
    [SERVICE_PATHS.reference]: {
      get: operation(
        "reference",
        "The API reference: this document written out for people",
        {
          200: ok("An HTML page", { "text/html": { schema: { type: "string" } } }, ETAG_HEADERS),
          304: notModified,
          [noSuchReference.status]: noSuchReference.response,
        },
        [IF_NONE_MATCH, REFERENCE_VERSION_PARAMETER],
      ),
    },
    [SERVICE_PATHS.stylesheet]: {
      get: operation("stylesheet", "The stylesheet of the HTML pages", {
        200: ok("CSS", { "text/css": { schema: { type: "string" } } }),
      }),
    },
  };
  for (const item of Object.values(paths)) {
    const get = item.get as { operationId: string; parameters: Json[]; responses: Json };
    const options = optionsOperation(get.operationId, ["GET"], pathParametersOf(get), failure);
    // A value the path does not have (a problem type not hosted here) is no resource, for
    // OPTIONS as for GET: its 404 is documented on both.
    const missing = get.parameters.some((p) => p.in === "path") ? get.responses["404"] : undefined;
    item.options = missing
      ? { ...options, responses: { ...(options.responses as Json), 404: missing } }
      : options;
  }
  return paths;
}
