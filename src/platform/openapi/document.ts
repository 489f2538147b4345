/**
 * The OpenAPI 3.1 document's frame: `info`, `servers`, `tags` and `externalDocs` from part
 * 1, `info.version` from part 9, the platform's own endpoints under `/_service` (tagged
 * `platform`, never the service's interface) and the schemas of every answer the platform
 * itself can give. What the contract declares with schemas (parts 2, 4 to 8) is documented
 * by the operation engine and merged in; a contract that declares none does not ship that.
 */
import { type Contract, type Schema, schemaOf } from "../../contract-language/contract";
import { SPEC_PARTS } from "../../contract-language/parts";
import {
  type CataloguedProblem,
  INTERFACE_NOT_SPECIFIED,
  withPage,
} from "../../contract-language/problem-catalogue";
import { SERVICE_PATHS } from "../paths";
import { isHosted, type ProblemType, problemTypeUri } from "../problem";
import { PLATFORM_TAG, platformPaths, platformSchemas } from "./platform-paths";
import {
  type FailureDocumenter,
  PLATFORM,
  PROBLEM_REF,
  problemAnswer,
  problemSchemaName,
  problemSchemas,
  REQUEST_ID_HEADER,
  REQUEST_ID_PARAMETER,
  STATE_MACHINES,
  VIEW_OF,
} from "./problems";

export type Json = Record<string, unknown>;

/** zod's `toJSONSchema` (from `zod` or `zod/mini`), passed in by whoever declares schemas. */
export type JsonSchemaConverter = (
  schema: Schema,
  params: {
    target: "draft-2020-12";
    io: "input" | "output";
    unrepresentable: "any";
    // biome-ignore lint/suspicious/noExplicitAny: zod's own parameter type
    metadata?: import("zod/v4/core").$ZodRegistry<Record<string, any>>;
    cycles?: "ref";
    /** Called for each schema converted, to adjust what was written for it. */
    override?: (ctx: {
      zodSchema: import("zod/v4/core").$ZodTypes;
      jsonSchema: Record<string, unknown>;
      path: (string | number)[];
    }) => void;
  },
) => Record<string, unknown>;

export type { DocumentedFailure, FailureDocumenter } from "./problems";

/** What the engine is given to document the contract. */
export interface DocumentContext {
  readonly contract: Contract;
  readonly implemented: ReadonlySet<string>;
  readonly jsonSchema: JsonSchemaConverter | undefined;
}

/** What the engine documents of the contract: everything that has a schema. */
export interface ContractDocumentation {
  readonly paths: Json;
  readonly webhooks: Json;
  /** Part 2's resources, and schemas derived from declarations. */
  readonly schemas: Json;
  /** Part 7's error types. */
  readonly responses: Json;
  readonly securitySchemes: Json;
  /** How a platform failure is documented under the spec's error model. */
  readonly failure: FailureDocumenter;
  /** What the whole document then needs (problem+xml where it is served), if anything. */
  readonly finish?: (document: Json) => Json;
}

export type ContractDocumenter = (context: DocumentContext) => ContractDocumentation;

interface DocumentOptions {
  /** The operation engine's documenter; absent when the contract declares nothing it serves. */
  readonly documenter?: ContractDocumenter;
  readonly jsonSchema: JsonSchemaConverter | undefined;
  readonly implemented: ReadonlySet<string>;
  /** Every problem type the app answers with (pages exist for the hosted ones). */
  readonly problemTypes: readonly ProblemType[];
  /** Those of the platform and the engine, whose schemas the document carries. */
  readonly platformTypes: readonly CataloguedProblem[];
}

/** All schemas a contract declares, so the app can refuse to start without a converter. */
export function declaredSchemas(contract: Contract): Schema[] {
  const schemas: Schema[] = Object.values(contract.resources).map(schemaOf);
  for (const op of Object.values(contract.operations)) {
    const { params, query, headers, cookies, body } = op.request ?? {};
    for (const s of [params, query, headers, cookies]) if (s) schemas.push(schemaOf(s));
    schemas.push(...Object.values(body ?? {}).map(schemaOf));
    for (const r of Object.values(op.responses)) {
      schemas.push(...Object.values(r.content ?? {}).map(schemaOf));
      if (r.headers) schemas.push(schemaOf(r.headers));
    }
  }
  for (const event of Object.values(contract.events)) schemas.push(schemaOf(event.payload));
  for (const error of Object.values(contract.errors))
    schemas.push(...Object.values(error.members ?? {}).map(schemaOf));
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
      [PLATFORM]: true,
    },
  ];
}

/** The platform's own failures, as they are (without the engine, nothing presents them). */
const PLAIN_FAILURE: FailureDocumenter = (_kind, status, description, extra = {}) => ({
  status,
  response: problemAnswer(
    description,
    extra.type ? { $ref: `#/components/schemas/${problemSchemaName(extra.type)}` } : PROBLEM_REF,
    extra.headers,
  ),
});

/** Every `#/components/schemas/<name>` a JSON value refers to. */
function schemaRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) schemaRefs(item, into);
  else if (value !== null && typeof value === "object")
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith(COMPONENT_SCHEMAS))
        into.add(decodeURIComponent(child.slice(COMPONENT_SCHEMAS.length)));
      else schemaRefs(child, into);
    }
}
const COMPONENT_SCHEMAS = "#/components/schemas/";

/**
 * The platform's own schemas, and resources' views, no answer of this document refers to,
 * left out (and a resource that only its views stand for): a linter
 * flags an unused component (Spectral's oas3-unused-component, Redocly's
 * no-unused-components), and a contract with operations never answers part 4's 501. While
 * part 4 declares nothing, that 501 answers every request, which no path can say: its
 * schema is kept for it.
 */
function withoutUnusedPlatformSchemas(document: Json, keep: readonly string[]): Json {
  const components = document.components as { schemas: Record<string, Json> };
  const reached = new Set<string>(keep);
  schemaRefs({ ...document, components: { ...components, schemas: {} } }, reached);
  for (const pending = [...reached]; pending.length > 0; ) {
    const name = pending.pop() as string;
    const found = new Set<string>();
    schemaRefs(components.schemas[name], found);
    for (const next of found)
      if (!reached.has(next)) {
        reached.add(next);
        pending.push(next);
      }
  }
  // A resource whose every use is one of its views (`X-Input`, `X-Output`) is represented by
  // the views used; its own component would only be unused (unless part 3 draws a machine on
  // it). A resource none of whose views is used (no operation reaches it, or each use is a
  // copy of it with its own description) keeps its own component: part 2 declares it, so the
  // document shows it, as the status report counts it.
  const viewed = new Set(
    Object.entries(components.schemas).flatMap(([name, schema]) => {
      const view = schema[VIEW_OF] as { resource?: string } | undefined;
      return view?.resource && reached.has(name) ? [view.resource] : [];
    }),
  );
  const removable = (name: string, schema: Json) =>
    schema[PLATFORM] === true ||
    schema[VIEW_OF] !== undefined ||
    (viewed.has(name) && schema[STATE_MACHINES] === undefined);
  components.schemas = Object.fromEntries(
    Object.entries(components.schemas).filter(
      ([name, schema]) => reached.has(name) || !removable(name, schema),
    ),
  );
  return document;
}

export function openapiDocument(contract: Contract, options: DocumentOptions): Json {
  const { jsonSchema, implemented, problemTypes, platformTypes } = options;
  const declared = options.documenter?.({ contract, implemented, jsonSchema });
  const secured = Object.keys(declared?.securitySchemes ?? {}).length > 0;
  const purpose = contract.purpose;
  const keep =
    Object.keys(contract.operations).length === 0
      ? [problemSchemaName(withPage(INTERFACE_NOT_SPECIFIED))]
      : [];
  const document: Json = {
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
    paths: {
      ...declared?.paths,
      ...platformPaths({
        hostedTypes: problemTypes.filter(isHosted).map((t) => t.slug),
        secured,
        failure: declared?.failure ?? PLAIN_FAILURE,
      }),
    },
    webhooks: declared?.webhooks ?? {},
    components: {
      schemas: { ...problemSchemas(platformTypes), ...platformSchemas(), ...declared?.schemas },
      responses: declared?.responses ?? {},
      headers: { XRequestId: REQUEST_ID_HEADER },
      parameters: { XRequestId: REQUEST_ID_PARAMETER },
      ...(secured ? { securitySchemes: declared?.securitySchemes } : {}),
    },
  };
  return withoutUnusedPlatformSchemas(declared?.finish?.(document) ?? document, keep);
}
