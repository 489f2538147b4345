/**
 * The OpenAPI documentation of parts 4, 5 and 8: each declared operation with everything
 * it declares (tags, deprecation, parameters with their descriptions, bodies per media type
 * with examples, responses with headers and examples, the part 7 errors it answers with)
 * and every problem answer the platform can give for it, typed; the security schemes. Part
 * of the operation engine, so a contract that declares no operation does not ship it.
 */
import {
  type Content,
  type Contract,
  isMediaDeclaration,
  type Operation,
  resolveSchema,
  type SecurityScheme,
  schemaOf,
} from "../../contract-language/contract";
import type {
  FailureDocumenter,
  DocumentContext as Frame,
  Json,
} from "../../platform/openapi/document";
import { optionsOperation, pathParametersOf } from "../../platform/openapi/platform-paths";
import {
  ALLOWED_IN,
  DEPRECATION,
  EMITS,
  MERGED,
  PLATFORM,
  PRESENTS,
  REQUEST_ID_HEADERS,
  TRANSITION,
} from "../../platform/openapi/problems";
import type { Convert } from "./schemas";

/** What documenting the operations needs: the frame's context, and the engine's converters. */
interface DocumentContext extends Frame {
  readonly convert: Convert;
  readonly failure: FailureDocumenter;
  /** How the failures of one operation are documented (its own error model, part 7). */
  readonly failureFor: (operationId?: string) => FailureDocumenter;
  /** A response of part 7's error type `name`: a reference, or the object itself to merge with another. */
  readonly errorResponse: (name: string, form?: "inline") => Json;
}

import { bodyKind } from "../../contract-language/media-types";
import { fixedQuery, routedPath } from "../../contract-language/path-key";
import { withPage } from "../../contract-language/problem-catalogue";
import type { SandboxMarks } from "../mock-features";
import { type OperationOutline, outlineOperation } from "../operations/model";
import { arrayMembers } from "../request/arrays";
import { declaredSerialisation } from "../request/parameters";
import { deprecationHeaders, retirementOf } from "../versions/plan";
import { objectShape } from "../zod/shape";

/**
 * The parameter a request states the version in, where part 9 puts it in a header or the
 * query: in a version's document, that version (required unless it is the default).
 */
function versionParameter(contract: Contract): Json[] {
  const v = contract.versioning;
  const placement = v?.versions && v.placement;
  if (!placement || (placement.in !== "header" && placement.in !== "query")) return [];
  return [
    {
      name: placement.name,
      in: placement.in,
      description: `The version of the interface (part 9) the request is for.${v.required ? "" : " Without it, this one."}`,
      required: v.required === true,
      schema: { type: "string", enum: [v.current] },
      [PLATFORM]: true,
    },
  ];
}

/**
 * The headers every answer carries when the version of this document or the operation is
 * deprecated: Deprecation (RFC 9745 §2), and where dated, Sunset (RFC 8594 §3) and Link.
 */
function deprecationHeadersOf(contract: Contract, op: Operation): Json {
  const versioning = contract.versioning;
  const values = deprecationHeaders(retirementOf(op), versioning?.versions?.[versioning.current]);
  const described: Record<string, string> = {
    deprecation: "Since when this is deprecated (RFC 9745 §2): @ and seconds since the epoch.",
    sunset: "When this stops being served (RFC 8594 §3), an HTTP-date.",
    link: 'The migration notes, rel="deprecation" (RFC 9745 §3) and rel="sunset" (RFC 8594 §4).',
  };
  return Object.fromEntries(
    Object.entries(values).map(([name, example]) => [
      name.replace(/^./, (c) => c.toUpperCase()),
      {
        description: described[name],
        required: true,
        schema: { type: "string" },
        example,
        [PLATFORM]: true,
      },
    ]),
  );
}

/** Part 5's schemes as OpenAPI security schemes; the secrets' and vars' names stay private. */
function securitySchemeObject(scheme: SecurityScheme): Json {
  const description = scheme.description ? { description: scheme.description } : {};
  switch (scheme.type) {
    case "apiKey":
      return { type: "apiKey", in: scheme.in, name: scheme.name, ...description };
    case "http": {
      const format =
        scheme.scheme === "bearer" && scheme.bearerFormat
          ? { bearerFormat: scheme.bearerFormat }
          : scheme.scheme === "bearer" && "jwt" in scheme
            ? { bearerFormat: "JWT" }
            : {};
      return { type: "http", scheme: scheme.scheme, ...format, ...description };
    }
    case "oauth2":
      return { type: "oauth2", flows: scheme.flows, ...description };
    case "openIdConnect":
      return { type: "openIdConnect", openIdConnectUrl: scheme.openIdConnectUrl, ...description };
    case "verified": {
      // As the API declares it; AWS's documents mark their signature so (API Gateway's extension).
      const { type, in: place, name, scheme: http } = scheme.declared;
      return {
        type,
        ...(place !== undefined ? { in: place } : {}),
        ...(name !== undefined ? { name } : {}),
        ...(http !== undefined ? { scheme: http } : {}),
        ...description,
        ...(scheme.verifiedBy === "aws-sigv4"
          ? { "x-amazon-apigateway-authtype": "awsSigv4" }
          : {}),
      };
    }
  }
}

/**
 * The parameters of one request location, from its schema's members. What describes the
 * parameter rather than its value goes up from the member's schema into the Parameter
 * Object: its description, deprecation, first example, and the serialisation it declares
 * (`style`, `explode`, `allowReserved`, OpenAPI 3.1 §4.8.12.4), which are no JSON Schema
 * keywords.
 */
function parametersOf(op: Operation, context: DocumentContext, id: string): Json[] {
  const locations = [
    ["path", op.request?.params],
    ["query", op.request?.query],
    ["header", op.request?.headers],
    ["cookie", op.request?.cookies],
  ] as const;
  const parameters: Json[] = [];
  for (const [location, schema] of locations) {
    if (!schema) continue;
    const object = context.convert(schema, "input", `${id}${location}`);
    const required = new Set((object.required as string[] | undefined) ?? []);
    const members = objectShape(resolveSchema(schema)) ?? {};
    for (const [name, property] of Object.entries((object.properties as Json | undefined) ?? {})) {
      const {
        description,
        deprecated,
        examples,
        style: _style,
        explode: _explode,
        allowReserved: _allowReserved,
        ...rest
      } = property as Json;
      const member = members[name];
      const serialisation = member ? declaredSerialisation(member) : {};
      parameters.push({
        name,
        in: location,
        ...(typeof description === "string" ? { description } : {}),
        required: location === "path" || required.has(name),
        ...(deprecated === true ? { deprecated: true } : {}),
        ...serialisation,
        schema: rest,
        ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
      });
    }
  }
  // The values that tell this operation apart from others on its method and path, where
  // its query does not declare them: required, each with its one value.
  for (const [name, value] of Object.entries(fixedQuery(op)))
    if (!parameters.some((p) => p.in === "query" && p.name === name))
      parameters.push({
        name,
        in: "query",
        description: "Says which operation of this path the request is for.",
        required: true,
        schema: { type: "string", enum: [value] },
      });
  return parameters;
}

/** A body's media types, each with its schema and examples. */
function contentOf(
  content: Content,
  context: DocumentContext,
  io: "input" | "output",
  hint: string,
): Json {
  return Object.fromEntries(
    Object.entries(content).map(([type, declared]) => {
      const examples = isMediaDeclaration(declared) ? declared.examples : undefined;
      let schema = context.convert(schemaOf(declared), io, hint);
      // Bytes a zod schema cannot describe (an instanceof check): a binary string, as
      // OpenAPI 3.1 §4.8.14.3 and 3.0's format: binary both read it.
      const kind = bodyKind(type);
      if (Object.keys(schema).length === 0 && kind === "binary")
        schema = { type: "string", format: "binary", contentMediaType: type };
      // The form encoding the platform reads, said explicitly (it is OpenAPI's default):
      // an array's items repeat its name (OpenAPI 3.1 §4.8.15).
      const lists =
        kind === "form" || kind === "multipart" ? [...arrayMembers(schemaOf(declared))] : [];
      const encoding = Object.fromEntries(
        lists.map((name) => [name, { style: "form", explode: true }]),
      );
      return [
        type,
        { schema, ...(lists.length > 0 ? { encoding } : {}), ...(examples ? { examples } : {}) },
      ];
    }),
  );
}

/**
 * Response headers from the declared header schema: one header object per member, required
 * as the schema says unless `optional` (an error type's, which no one but the spec sets).
 */
export function headersOf(
  schema: Operation["responses"][number]["headers"],
  convert: Convert,
  hint: string,
  optional = false,
): Json {
  if (!schema) return {};
  const object = convert(schema, "output", hint);
  const required = new Set((object.required as string[] | undefined) ?? []);
  const headers: Json = {};
  for (const [name, property] of Object.entries((object.properties as Json | undefined) ?? {})) {
    const { description, ...rest } = property as Json;
    headers[name] = {
      ...(typeof description === "string" ? { description } : {}),
      required: !optional && required.has(name),
      schema: rest,
    };
  }
  return headers;
}

/** What one response object of the document is made of (`x-merged`). */
type ResponseSource =
  | { readonly declared: Json }
  | { readonly errorType: string }
  | { readonly platform: string };

/** Two answers at one status, as one response object: their media types, and both schemas where a type is shared. */
function merged(a: Json, b: Json): Json {
  const content: Record<string, Json> = { ...(a.content as Record<string, Json> | undefined) };
  for (const [type, media] of Object.entries(
    (b.content as Record<string, Json> | undefined) ?? {},
  )) {
    const existing = content[type];
    // anyOf, not oneOf: two problem types may both accept an answer (RFC 9457 §3.2 lets
    // either carry the other's members). The first answer's examples stay.
    content[type] = existing
      ? { ...existing, schema: { anyOf: [existing.schema, media.schema] } }
      : media;
  }
  return {
    description: [a.description, b.description].filter(Boolean).join(" Or: "),
    headers: { ...(a.headers as Json | undefined), ...(b.headers as Json | undefined) },
    content,
  };
}

/** An operation's `x-transition`: the machine, the trigger, the states it applies from and leads to. */
function transitionOf(
  contract: Contract,
  transition: { readonly machine: string; readonly trigger: string },
): Json {
  const steps = (contract.states[transition.machine]?.transitions ?? []).filter(
    (t) => t.trigger === transition.trigger,
  );
  return { ...transition, steps: steps.map(({ from, to }) => ({ from, to })) };
}

/** An operation's responses, as they are merged status by status, with what each is made of. */
interface Responses {
  readonly byStatus: Record<string, Json>;
  readonly sources: Record<string, ResponseSource[]>;
  /** `presentedBy`: the error type that answers a platform failure, if one presents it. */
  add(status: number | string, response: Json, source: ResponseSource, presentedBy?: string): void;
  has(status: number | string): boolean;
}

/** The error type a response refers to, if it is a reference to one. */
function referredType(response: Json | undefined): string | undefined {
  const ref = response?.$ref;
  return typeof ref === "string" ? ref.slice(ref.lastIndexOf("/") + 1) : undefined;
}

/**
 * Collects an operation's answers status by status. An error type alone at its status is
 * written by reference; when another answer joins it there (a platform failure its error
 * model does not present as that type), the type is written out and the two merged, so the
 * document shows every answer the status can carry.
 */
function collectResponses(inline: (name: string) => Json): Responses {
  const byStatus: Record<string, Json> = {};
  const sources: Record<string, ResponseSource[]> = {};
  return {
    byStatus,
    sources,
    add(status, response, source, presentedBy) {
      const key = String(status);
      const existing = byStatus[key];
      if (!existing) {
        byStatus[key] = response;
        sources[key] = [source];
        return;
      }
      const referred = referredType(existing);
      // A failure the referred type presents is that type's answer: the reference says it.
      if (referred !== undefined && presentedBy === referred) return;
      byStatus[key] = merged(referred === undefined ? existing : inline(referred), response);
      sources[key]?.push(source);
    },
    has: (status) => byStatus[String(status)] !== undefined,
  };
}

/** The answers the operation declares, and part 7's errors it answers with. */
function declaredResponses(
  id: string,
  op: Operation,
  context: DocumentContext,
  responses: Responses,
): void {
  for (const [status, declared] of Object.entries(op.responses)) {
    const headers = headersOf(declared.headers, context.convert, `${id}${status}Headers`);
    const content = declared.content
      ? contentOf(declared.content, context, "output", `${id}${status}`)
      : undefined;
    const own = {
      description: declared.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(content ? { content } : {}),
    };
    responses.add(
      status,
      {
        description: declared.description,
        headers: { ...REQUEST_ID_HEADERS, ...headers },
        ...(content ? { content } : {}),
      },
      { declared: own },
    );
  }
  // Part 7's errors the operation declares: by reference where one is alone at its status.
  for (const name of op.errors ?? []) {
    const error = context.contract.errors[name];
    if (!error) continue;
    const inline = responses.has(error.status);
    responses.add(error.status, context.errorResponse(name, inline ? "inline" : undefined), {
      errorType: name,
    });
  }
}

/**
 * The responses object: the declared answers, then the model's failures as the operation's
 * error model answers them, marked for a reader that takes the document back in, and with
 * the headers of a deprecated version or operation on each.
 */
function responsesObject(outline: OperationOutline, context: DocumentContext): Json {
  const { id, operation: op, failures } = outline;
  const responses = collectResponses((name) => context.errorResponse(name, "inline"));
  declaredResponses(id, op, context, responses);
  for (const { kind, status, description, type, headers } of failures) {
    const failure = context.failure(kind, status, description, {
      ...(type ? { type: withPage(type) } : {}),
      ...(headers ? { headers } : {}),
    });
    responses.add(
      failure.status,
      failure.response,
      { platform: failure.kind ?? String(status) },
      failure.presentedBy,
    );
  }
  const { byStatus } = responses;
  // An answer that is the platform's alone, and what a merged answer is made of.
  for (const [key, made] of Object.entries(responses.sources)) {
    const response = byStatus[key] as Json;
    if ("$ref" in response) continue;
    if (made.every((source) => "platform" in source))
      byStatus[key] = { ...response, [PLATFORM]: true };
    else if (made.length > 1) byStatus[key] = { ...response, [MERGED]: made };
  }
  // RFC 9745 / RFC 8594: what every answer of a deprecated version or operation carries.
  const deprecation = deprecationHeadersOf(context.contract, op);
  if (Object.keys(deprecation).length > 0)
    for (const [key, response] of Object.entries(byStatus))
      if (!("$ref" in response))
        byStatus[key] = { ...response, headers: { ...(response.headers as Json), ...deprecation } };
  return byStatus;
}

/** The operation object: what the operation declares, and the responses its model prints. */
function operationObject(outline: OperationOutline, context: DocumentContext): Json {
  const { contract } = context;
  const { id, operation: op } = outline;
  const body = op.request?.body;
  const retirement = retirementOf(op);
  return {
    operationId: id,
    ...(op.summary ? { summary: op.summary } : {}),
    ...(op.description ? { description: op.description } : {}),
    ...(op.tags ? { tags: op.tags } : {}),
    ...(op.deprecated ? { deprecated: true } : {}),
    ...(retirement ? { [DEPRECATION]: retirement } : {}),
    ...(op.externalDocs ? { externalDocs: op.externalDocs } : {}),
    ...(op.security ? { security: op.security } : {}),
    // The webhooks (part 6) this operation may send; OpenAPI's callbacks would need a URL
    // from the request, and destinations here are the deployment's.
    ...(op.emits?.length ? { [EMITS]: op.emits } : {}),
    // Part 7: the failures this operation answers as its own error types (read back on import).
    ...(op.presents && Object.keys(op.presents).length > 0 ? { [PRESENTS]: op.presents } : {}),
    // Part 3: the transition this operation performs, with where it may start and lead.
    ...(op.transition ? { [TRANSITION]: transitionOf(contract, op.transition) } : {}),
    // Part 3: the states the operation acts in, only.
    ...(op.allowedIn
      ? { [ALLOWED_IN]: { machine: op.allowedIn.machine, states: op.allowedIn.states } }
      : {}),
    parameters: [
      { $ref: "#/components/parameters/XRequestId" },
      ...versionParameter(contract),
      ...parametersOf(op, context, id),
    ],
    ...(body
      ? {
          requestBody: {
            ...(op.request?.bodyDescription ? { description: op.request.bodyDescription } : {}),
            required: op.request?.bodyRequired !== false,
            content: contentOf(body, context, "input", `${id}Body`),
          },
        }
      : {}),
    responses: responsesObject(outline, context),
  };
}

/** Part 4's paths and part 5's schemes; `sandbox` says which operations the sandbox answers how. */
export function documentOperations(
  sandbox: SandboxMarks,
  context: DocumentContext,
): {
  paths: Record<string, Json>;
  securitySchemes: Json;
} {
  const { contract } = context;
  const paths: Record<string, Json> = {};
  const { notFound, writes, stores, creates } = sandbox;
  for (const [id, op] of Object.entries(contract.operations)) {
    const item = paths[op.path] ?? {};
    const implemented = context.implemented.has(id);
    const outline = outlineOperation(
      contract,
      id,
      op,
      implemented,
      notFound.has(id),
      writes.has(id),
      stores.has(id),
      creates.has(id),
    );
    item[op.method.toLowerCase()] = operationObject(outline, {
      ...context,
      failure: context.failureFor(id),
    });
    paths[op.path] = item;
  }
  // The methods a routed path answers: every key of it (`/?Action=A`, `/?Action=B`) says all.
  const routedMethods = new Map<string, Set<string>>();
  for (const [key, item] of Object.entries(paths)) {
    const methods = routedMethods.get(routedPath(key)) ?? new Set<string>();
    for (const method of Object.keys(item)) methods.add(method.toUpperCase());
    routedMethods.set(routedPath(key), methods);
  }
  for (const [key, item] of Object.entries(paths)) {
    const methods = [...(routedMethods.get(routedPath(key)) ?? [])];
    const first = Object.values(item)[0] as { operationId: string; parameters: Json[] };
    item.options = optionsOperation(
      first.operationId,
      methods,
      pathParametersOf(first),
      context.failure,
    );
  }
  const securitySchemes: Json = {};
  for (const [name, scheme] of Object.entries(contract.securitySchemes))
    securitySchemes[name] = securitySchemeObject(scheme);
  return { paths, securitySchemes };
}
