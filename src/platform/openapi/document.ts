/**
 * The OpenAPI 3.1 document, derived from the contract: `info`, `servers`, `tags` and
 * `externalDocs` from part 1, `info.version` from part 9, `components.schemas` from part 2,
 * `webhooks` from part 6, part 7's error types as `components.responses`, and, through the
 * operation engine, part 4's paths with parts 5 and 8. Every answer the platform itself can
 * give is documented with its schema and headers; the platform's own endpoints are under
 * the `platform` tag, never the service's interface.
 */
import type { Contract, Schema } from "../../domain/contract";
import { schemaOf } from "../../domain/contract";
import { SPEC_PARTS } from "../../domain/parts";
import { SERVICE_PATHS } from "../paths";
import { isHosted, type ProblemType, problemTypeUri } from "../problem";
import { presentedBy } from "../problem-presenter";
import { INTERFACE_NOT_SPECIFIED } from "../problem-types";
import { PLATFORM_TAG, platformPaths, platformSchemas } from "./platform-paths";
import {
  errorResponses,
  errorTypeSchema,
  type FailureDocumenter,
  PROBLEM_REF,
  problemAnswer,
  problemSchemaName,
  problemSchemas,
  REQUEST_ID_HEADER,
  REQUEST_ID_PARAMETER,
} from "./problems";
import {
  COMPONENT,
  type Convert,
  type Json,
  type JsonSchemaConverter,
  schemaComponents,
} from "./schemas";

export type { DocumentedFailure, FailureDocumenter } from "./problems";
export type { Convert, Json, JsonSchemaConverter } from "./schemas";

/** What the operation engine is given to document parts 4, 5 and 8. */
export interface DocumentContext {
  readonly contract: Contract;
  /** zod's own converter, for what the document needs to know of a schema without a `$ref`. */
  readonly jsonSchema: JsonSchemaConverter | undefined;
  readonly implemented: ReadonlySet<string>;
  readonly convert: Convert;
  readonly failure: FailureDocumenter;
  /** A response of part 7's error type `name`: a reference, or the object itself to merge with another. */
  readonly errorResponse: (name: string, form?: "inline") => Json;
}

/** What the engine documents: part 4's paths, part 5's schemes. */
export interface DeclaredDocumentation {
  readonly paths: Readonly<Record<string, Json>>;
  readonly securitySchemes: Json;
}

export type OperationDocumenter = (context: DocumentContext) => DeclaredDocumentation;

export interface DocumentOptions {
  /** The operation engine's documenter; absent when the contract declares no operation. */
  readonly operations?: OperationDocumenter;
  readonly jsonSchema: JsonSchemaConverter | undefined;
  readonly implemented: ReadonlySet<string>;
  /** Every problem type the app answers with (pages exist for the hosted ones). */
  readonly problemTypes: readonly ProblemType[];
  /** Those of the platform and the engine, whose schemas the document carries. */
  readonly platformTypes: readonly ProblemType[];
}

/** All schemas a contract declares, so the app can refuse to start without a converter. */
export function declaredSchemas(contract: Contract): Schema[] {
  const schemas: Schema[] = [...Object.values(contract.resources)];
  for (const op of Object.values(contract.operations)) {
    const { params, query, headers, cookies, body } = op.request ?? {};
    for (const s of [params, query, headers, cookies]) if (s) schemas.push(s);
    schemas.push(...Object.values(body ?? {}).map(schemaOf));
    for (const r of Object.values(op.responses)) {
      schemas.push(...Object.values(r.content ?? {}).map(schemaOf));
      if (r.headers) schemas.push(r.headers);
    }
  }
  for (const event of Object.values(contract.events)) schemas.push(event.payload);
  for (const error of Object.values(contract.errors))
    schemas.push(...Object.values(error.members ?? {}));
  return schemas;
}

function infoOf(contract: Contract): Json {
  const purpose = contract.purpose;
  const unspecified = SPEC_PARTS.filter((part) => part.count(contract) === 0);
  const statement =
    unspecified.length === 0
      ? ""
      : `Not specified in the interface specification: ${unspecified
          .map((p) => `part ${p.number} (${p.title})`)
          .join(", ")}. See ${SERVICE_PATHS.interface}.`;
  const endpointsMissing = unspecified.some((p) => p.name === "endpoints");
  return {
    title: purpose?.title ?? "Service interface (purpose not specified)",
    ...(purpose?.summary ? { summary: purpose.summary } : {}),
    description: [
      purpose?.description,
      statement,
      endpointsMissing
        ? `Every request outside /_service is answered 501 with the problem type ${problemTypeUri(INTERFACE_NOT_SPECIFIED)}.`
        : undefined,
    ]
      .filter(Boolean)
      .join("\n\n"),
    ...(purpose?.termsOfService ? { termsOfService: purpose.termsOfService } : {}),
    ...(purpose?.contact ? { contact: purpose.contact } : {}),
    ...(purpose?.license ? { license: purpose.license } : {}),
    version: contract.versioning?.current ?? "not specified",
  };
}

function tagsOf(contract: Contract): Json[] {
  const declared = Object.entries(contract.purpose?.tags ?? {}).map(([name, tag]) => ({
    name,
    ...tag,
  }));
  return [
    ...declared,
    {
      name: PLATFORM_TAG,
      description: "Operational endpoints of the platform; not part of the service's interface.",
    },
  ];
}

export function openapiDocument(contract: Contract, options: DocumentOptions): Json {
  const { jsonSchema, implemented, problemTypes, platformTypes } = options;
  const components = schemaComponents(contract, jsonSchema);
  const { convert } = components;
  const presented = presentedBy(contract);
  const errors = errorResponses(contract, convert);

  const failure: FailureDocumenter = (kind, status, description, extra = {}) => {
    const name = kind && presented.get(kind);
    const own = extra.type ? { $ref: `${COMPONENT}${problemSchemaName(extra.type)}` } : PROBLEM_REF;
    if (!name) return { status, response: problemAnswer(description, own, extra.headers) };
    const error = contract.errors[name];
    // Part 7's type, carrying the platform's members too (RFC 9457 §3.2 allows both).
    const schema = { allOf: [own, errorTypeSchema(name, contract, convert)] };
    return {
      status: error?.status ?? status,
      response: problemAnswer(
        `${error?.title ?? name} (error type ${name}): ${description}`,
        schema,
        extra.headers,
      ),
    };
  };
  const errorResponse: DocumentContext["errorResponse"] = (name, form) =>
    form === "inline" ? (errors[name] as Json) : { $ref: `#/components/responses/${name}` };

  const declared = options.operations?.({
    contract,
    jsonSchema,
    implemented,
    convert,
    failure,
    errorResponse,
  });
  const secured = Object.keys(declared?.securitySchemes ?? {}).length > 0;
  const paths: Json = {
    ...declared?.paths,
    ...platformPaths({
      hostedTypes: problemTypes.filter(isHosted).map((t) => t.slug),
      secured,
      failure,
    }),
  };

  const webhooks: Json = {};
  for (const [name, event] of Object.entries(contract.events)) {
    webhooks[name] = {
      post: {
        ...(event.summary ? { summary: event.summary } : {}),
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: convert(event.payload, "output", `${name}Payload`) },
          },
        },
        responses: { "2XX": { description: "Received" } },
      },
    };
  }

  const purpose = contract.purpose;
  return {
    openapi: "3.1.1",
    info: infoOf(contract),
    // OpenAPI 3.1 §4.8.1: without servers, the server is "/"; said explicitly, so tools
    // that require servers read the same thing.
    servers: purpose?.servers ?? [
      { url: "/", description: "This deployment: the document is served by the service itself." },
    ],
    // Without part 5, no operation needs a credential (OpenAPI: an empty requirement list).
    ...(secured ? {} : { security: [] }),
    tags: tagsOf(contract),
    ...(purpose?.externalDocs ? { externalDocs: purpose.externalDocs } : {}),
    paths,
    webhooks,
    components: {
      schemas: { ...problemSchemas(platformTypes), ...platformSchemas(), ...components.schemas },
      responses: errors,
      headers: { XRequestId: REQUEST_ID_HEADER },
      parameters: { XRequestId: REQUEST_ID_PARAMETER },
      ...(secured ? { securitySchemes: declared?.securitySchemes } : {}),
    },
  };
}
