/**
 * The OpenAPI 3.1 document, derived from the contract: `info` from parts 1 and 9, `paths`
 * from part 4, `components.schemas` from part 2, `webhooks` from part 6, problem types
 * from part 7, plus every problem answer the platform can give. The platform's own
 * endpoints are listed under the `platform` tag, never as the service's interface.
 */
import type { Contract, Schema } from "../domain/contract";
import { SPEC_PARTS } from "../domain/parts";
import { SERVICE_PATHS } from "./paths";
import { type ProblemType, problemTypeUri } from "./problem";
import { INTERFACE_NOT_SPECIFIED } from "./problem-types";

/**
 * Turns a zod schema into JSON Schema (draft 2020-12, OpenAPI 3.1's dialect). This is zod's
 * `toJSONSchema`, passed in by whoever declares schemas, so that a contract with none does
 * not ship the converter (src/engine/README.md, "Bundle size").
 */
export type JsonSchemaConverter = (
  schema: Schema,
  params: { target: "draft-2020-12"; io: "input" | "output"; unrepresentable: "any" },
) => Record<string, unknown>;

/** What the operation engine documents: part 4's paths, part 5's schemes, their answers. */
export interface DeclaredDocumentation {
  readonly paths: Readonly<Record<string, Json>>;
  readonly schemas: Json;
  readonly securitySchemes: Json;
  readonly responses: Json;
}
export type OperationDocumenter = (
  contract: Contract,
  implemented: ReadonlySet<string>,
  convert: Convert,
) => DeclaredDocumentation;

export interface DocumentOptions {
  /** The operation engine's documenter; absent when the contract declares no operation. */
  readonly operations?: OperationDocumenter;
  readonly jsonSchema: JsonSchemaConverter | undefined;
  readonly implemented: ReadonlySet<string>;
  readonly problemTypes: readonly ProblemType[];
}

export type Json = Record<string, unknown>;
const PLATFORM_TAG = "platform";
export const PROBLEM_REF = { $ref: "#/components/schemas/Problem" };

/** All schemas a contract declares, so the app can refuse to start without a converter. */
export function declaredSchemas(contract: Contract): Schema[] {
  const schemas: Schema[] = [...Object.values(contract.resources)];
  for (const op of Object.values(contract.operations)) {
    const { params, query, headers, cookies, body } = op.request ?? {};
    for (const s of [params, query, headers, cookies]) if (s) schemas.push(s);
    schemas.push(...Object.values(body ?? {}));
    for (const r of Object.values(op.responses)) {
      schemas.push(...Object.values(r.content ?? {}));
      if (r.headers) schemas.push(r.headers);
    }
  }
  for (const event of Object.values(contract.events)) schemas.push(event.payload);
  return schemas;
}

const PROBLEM_SCHEMA: Json = {
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

/** An OpenAPI Response Object for a problem answer (RFC 9457). */
export function documentedProblem(description: string, schema: Json = PROBLEM_REF): Json {
  return { description, content: { "application/problem+json": { schema } } };
}

/** The problem answers the platform gives for every operation, by status. */
const PLATFORM_RESPONSES: Json = {
  Problem404: documentedProblem("Not found."),
  Problem500: documentedProblem("Unexpected error."),
};

export const ref = (status: number) => ({ $ref: `#/components/responses/Problem${status}` });

function platformOperation(summary: string, responses: Json): Json {
  return { tags: [PLATFORM_TAG], summary, responses };
}

function platformPaths(problemTypes: readonly ProblemType[]): Json {
  const json = (description: string) => ({ description, content: { "application/json": {} } });
  return {
    [SERVICE_PATHS.health]: {
      get: platformOperation("Health of this deployment", {
        200: { description: "Healthy", content: { "application/health+json": {} } },
      }),
    },
    [SERVICE_PATHS.interface]: {
      get: platformOperation("Interface status report: which spec parts are declared", {
        200: {
          description: "The status report, as JSON or as an HTML page (by Accept)",
          content: { "application/json": {}, "text/html": {} },
        },
      }),
    },
    [`${SERVICE_PATHS.problems}/{type}`]: {
      get: {
        ...platformOperation("Documentation of a problem type", {
          200: { description: "An HTML page", content: { "text/html": {} } },
          404: ref(404),
        }),
        parameters: [
          {
            name: "type",
            in: "path",
            required: true,
            schema: { enum: problemTypes.map((t) => t.slug) },
          },
        ],
      },
    },
    [SERVICE_PATHS.openapi]: {
      get: platformOperation("This document", { 200: json("OpenAPI 3.1") }),
    },
  };
}

export function openapiDocument(contract: Contract, options: DocumentOptions): Json {
  const { jsonSchema, implemented, problemTypes } = options;
  const toJsonSchema = (schema: Schema, io: "input" | "output"): Json => {
    if (!jsonSchema)
      throw new Error("the contract declares schemas but no JSON Schema converter was given");
    const { $schema: _dialect, ...rest } = jsonSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
    });
    return rest;
  };
  // A schema declared as a resource (part 2) is referred to by name wherever it is used.
  const names = new Map<Schema, string>(Object.entries(contract.resources).map(([n, s]) => [s, n]));
  const convert: Convert = (schema, io) => {
    const name = names.get(schema);
    return name ? { $ref: `#/components/schemas/${name}` } : toJsonSchema(schema, io);
  };

  // Parts 4, 5 and 8 are documented by the operation engine, when the app has one.
  const declared = options.operations?.(contract, implemented, convert);
  const schemas: Json = { Problem: PROBLEM_SCHEMA, ...declared?.schemas };
  for (const [name, schema] of Object.entries(contract.resources))
    schemas[name] = toJsonSchema(schema, "output");

  const paths: Record<string, Json> = { ...declared?.paths };
  Object.assign(paths, platformPaths(problemTypes));

  const webhooks: Json = {};
  for (const [name, event] of Object.entries(contract.events)) {
    webhooks[name] = {
      post: {
        summary: event.summary,
        requestBody: {
          required: true,
          content: { "application/json": { schema: convert(event.payload, "output") } },
        },
      },
    };
  }

  const responses: Json = { ...PLATFORM_RESPONSES, ...declared?.responses };
  const securitySchemes = declared?.securitySchemes ?? {};
  for (const [id, error] of Object.entries(contract.errors)) {
    responses[id] = documentedProblem(
      `${error.title} (status ${error.status}). ${error.description ?? ""}`.trim(),
    );
  }

  const unspecified = SPEC_PARTS.filter((part) => part.count(contract) === 0);
  const statement =
    unspecified.length === 0
      ? ""
      : `Not specified in the interface specification: ${unspecified
          .map((p) => `part ${p.number} (${p.title})`)
          .join(", ")}. See ${SERVICE_PATHS.interface}.`;
  const endpointsMissing = unspecified.some((p) => p.name === "endpoints");
  return {
    openapi: "3.1.1",
    info: {
      title: contract.purpose?.title ?? "Service interface (purpose not specified)",
      ...(contract.purpose ? { summary: contract.purpose.summary } : {}),
      description: [
        contract.purpose?.description,
        statement,
        endpointsMissing
          ? `Every request outside /_service is answered 501 with the problem type ${problemTypeUri(INTERFACE_NOT_SPECIFIED)}.`
          : undefined,
      ]
        .filter(Boolean)
        .join("\n\n"),
      version: contract.versioning?.current ?? "not specified",
    },
    tags: [
      {
        name: PLATFORM_TAG,
        description: "Operational endpoints of the platform; not part of the service's interface.",
      },
    ],
    paths,
    webhooks,
    components: {
      schemas,
      responses,
      ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    },
  };
}

/** Converts a declared schema to JSON Schema, or refers to it by name if it is a resource. */
export type Convert = (schema: Schema, io: "input" | "output") => Json;
