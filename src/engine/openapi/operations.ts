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
  issuerVouched,
  type Operation,
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
export interface DocumentContext extends Frame {
  readonly convert: Convert;
  readonly failure: FailureDocumenter;
  /** How the failures of one operation are documented (its own error model, part 7). */
  readonly failureFor: (operationId?: string) => FailureDocumenter;
  /** A response of part 7's error type `name`: a reference, or the object itself to merge with another. */
  readonly errorResponse: (name: string, form?: "inline") => Json;
}

import {
  AUTHENTICATION_REQUIRED,
  CONTENT_TOO_LARGE,
  INSUFFICIENT_SCOPE,
  MALFORMED_REQUEST,
  NOT_ACCEPTABLE,
  NOT_IN_VERSION,
  OPERATION_GONE,
  OPERATION_NOT_IMPLEMENTED,
  RATE_LIMIT_EXCEEDED,
  STATE_CONFLICT,
  UNSUPPORTED_MEDIA_TYPE,
  UNSUPPORTED_VERSION,
  VALIDATION_FAILED,
  VERSION_GONE,
} from "../../contract-language/problem-catalogue";
import { type OperationLimits, planLimits } from "../limits/plan";
import { bodyKind } from "../media-type";
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
  }
}

const RETRY_AFTER = (description: string) => ({
  description,
  required: true,
  schema: { type: "integer", minimum: 1 },
});

/**
 * The parameters of one request part, from its schema's members. What describes the
 * parameter rather than its value goes up from the member's schema into the Parameter
 * Object: its description, deprecation, first example, and the serialisation it declares
 * (`style`, `explode`, `allowReserved`, OpenAPI 3.1 §4.8.12.4), which are no JSON Schema
 * keywords.
 */
function parametersOf(op: Operation, context: DocumentContext, id: string): Json[] {
  const parts = [
    ["path", op.request?.params],
    ["query", op.request?.query],
    ["header", op.request?.headers],
    ["cookie", op.request?.cookies],
  ] as const;
  const parameters: Json[] = [];
  for (const [location, schema] of parts) {
    if (!schema) continue;
    const object = context.convert(schema, "input", `${id}${location}`);
    const required = new Set((object.required as string[] | undefined) ?? []);
    const members = objectShape(schema) ?? {};
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
      const examples = "_zod" in declared ? undefined : declared.examples;
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

/** Response headers from the declared header schema: one header object per member. */
function headersOf(
  schema: Operation["responses"][number]["headers"],
  context: DocumentContext,
  hint: string,
): Json {
  if (!schema) return {};
  const object = context.convert(schema, "output", hint);
  const required = new Set((object.required as string[] | undefined) ?? []);
  const headers: Json = {};
  for (const [name, property] of Object.entries((object.properties as Json | undefined) ?? {})) {
    const { description, ...rest } = property as Json;
    headers[name] = {
      ...(typeof description === "string" ? { description } : {}),
      required: required.has(name),
      schema: rest,
    };
  }
  return headers;
}

/** What one response object of the document is made of (`x-merged`). */
type Part =
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

function operationObject(
  id: string,
  op: Operation,
  limits: OperationLimits,
  context: DocumentContext,
): Json {
  const { contract } = context;
  const responses: Record<string, Json> = {};
  const parts: Record<string, Part[]> = {};
  const add = (status: number | string, response: Json, part: Part) => {
    const key = String(status);
    const existing = responses[key];
    if (!existing) {
      responses[key] = response;
      parts[key] = [part];
    } else if (!("$ref" in existing) && !("$ref" in response)) {
      responses[key] = merged(existing, response);
      parts[key]?.push(part);
    }
  };

  for (const [status, declared] of Object.entries(op.responses)) {
    const headers = headersOf(declared.headers, context, `${id}${status}Headers`);
    const content = declared.content
      ? contentOf(declared.content, context, "output", `${id}${status}`)
      : undefined;
    const own = {
      description: declared.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(content ? { content } : {}),
    };
    add(
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
    const error = contract.errors[name];
    if (!error) continue;
    add(
      error.status,
      responses[String(error.status)]
        ? context.errorResponse(name, "inline")
        : context.errorResponse(name),
      { errorType: name },
    );
  }

  const body = op.request?.body;
  const hasSchemas =
    body !== undefined ||
    [op.request?.params, op.request?.query, op.request?.headers, op.request?.cookies].some(Boolean);
  const secured = op.security !== undefined && op.security.length > 0;
  const scoped = (op.security ?? []).some((r) => Object.values(r).some((s) => s.length > 0));
  const jwt = (op.security ?? []).some((r) =>
    Object.keys(r).some((name) => {
      const scheme = contract.securitySchemes[name];
      return scheme !== undefined && issuerVouched(scheme);
    }),
  );
  const successTypes = (Object.entries(op.responses) as [string, Operation["responses"][number]][])
    .filter(([status]) => status === "2XX" || (Number(status) >= 200 && Number(status) < 300))
    .map(([, r]) => Object.keys(r.content ?? {}));
  const bodyTypes = Object.keys(body ?? {});
  const hint =
    op.method === "POST" ? "Accept-Post" : op.method === "PATCH" ? "Accept-Patch" : undefined;

  const versioning = contract.versioning;
  const negotiated = versioning?.versions !== undefined && versioning.placement !== undefined;
  // A request may state any declared version, so what any of them answers can be answered
  // on this path: 410 when one has a sunset, 404 when one lacks the operation.
  const sunsets = Object.entries(versioning?.versions ?? {}).flatMap(([v, d]) =>
    d.sunset ? [`${v}: ${d.sunset}`] : [],
  );
  const notInSome =
    negotiated && (op.versions?.added !== undefined || op.versions?.removed !== undefined);
  const retirement = retirementOf(op);

  const failures = [
    secured &&
      context.failure("authentication-required", 401, "Missing or invalid credentials.", {
        type: AUTHENTICATION_REQUIRED,
        headers: {
          "WWW-Authenticate": {
            description: "A challenge for each scheme the operation accepts (RFC 9110 §11.6.1).",
            required: true,
            schema: { type: "string" },
          },
        },
      }),
    scoped &&
      context.failure("insufficient-scope", 403, "Valid credentials without the scopes required.", {
        type: INSUFFICIENT_SCOPE,
        headers: {
          "WWW-Authenticate": {
            description:
              'Bearer error="insufficient_scope" with the scopes needed (RFC 6750 §3.1).',
            required: true,
            schema: { type: "string" },
          },
        },
      }),
    successTypes.length > 0 &&
      successTypes.every((types) => types.length > 0) &&
      context.failure("not-acceptable", 406, "None of the media types the client accepts.", {
        type: NOT_ACCEPTABLE,
      }),
    op.transition &&
      context.failure(undefined, 409, "The resource's state does not allow this transition.", {
        type: STATE_CONFLICT,
      }),
    body &&
      context.failure("malformed-request", 400, "Malformed request.", { type: MALFORMED_REQUEST }),
    body &&
      context.failure(
        "content-too-large",
        413,
        limits.maxBodyBytes === undefined
          ? "Request body larger than the platform's cap (the status report's platformDefaults)."
          : `Request body larger than ${limits.maxBodyBytes} bytes.`,
        { type: CONTENT_TOO_LARGE },
      ),
    context.failure(
      "unsupported-media-type",
      415,
      "A body of a media type the operation does not take.",
      {
        type: UNSUPPORTED_MEDIA_TYPE,
        ...(hint && bodyTypes.length > 0
          ? {
              headers: {
                [hint]: {
                  description: "The media types accepted (RFC 9110 §15.5.16).",
                  required: true,
                  schema: { type: "string" },
                },
              },
            }
          : {}),
      },
    ),
    hasSchemas &&
      context.failure("validation-failed", 422, "The request does not satisfy the schemas.", {
        type: VALIDATION_FAILED,
      }),
    limits.perClient.length + limits.perCredential.length > 0 &&
      context.failure(
        "rate-limit-exceeded",
        429,
        `Rate limit exceeded: ${[...limits.perClient, ...limits.perCredential]
          .map(
            ({ name, limit }) =>
              `${name}: ${limit.limit} requests per ${limit.period} s per ${limit.key === "client" ? "client address" : "credential"}`,
          )
          .join("; ")}.`,
        {
          type: RATE_LIMIT_EXCEEDED,
          headers: {
            "Retry-After": RETRY_AFTER(
              "Seconds to wait: the limit's whole period (RFC 9110 §10.2.3).",
            ),
          },
        },
      ),
    negotiated &&
      context.failure(undefined, 400, "A version of the interface the service does not have.", {
        type: UNSUPPORTED_VERSION,
      }),
    negotiated &&
      sunsets.length > 0 &&
      context.failure(
        undefined,
        410,
        `A version past its sunset (${sunsets.join("; ")}), no longer served.`,
        { type: VERSION_GONE },
      ),
    retirement?.sunset &&
      context.failure(
        undefined,
        410,
        `Past its own sunset (${retirement.sunset}), it is no longer served.`,
        {
          type: OPERATION_GONE,
        },
      ),
    notInSome &&
      context.failure(
        undefined,
        404,
        "A version of the interface that does not have this operation.",
        {
          type: NOT_IN_VERSION,
        },
      ),
    context.failure("internal-error", 500, "Unexpected error."),
    !context.implemented.has(id) &&
      context.failure(undefined, 501, "Declared, but not implemented yet.", {
        type: OPERATION_NOT_IMPLEMENTED,
      }),
    jwt &&
      context.failure(undefined, 503, "The credentials could not be verified right now.", {
        headers: { "Retry-After": RETRY_AFTER("Seconds to wait before retrying.") },
      }),
  ];
  for (const failure of failures)
    if (failure)
      add(failure.status, failure.response, { platform: failure.kind ?? String(failure.status) });
  // Marks for a reader that takes the document back in: an answer that is the platform's
  // alone, and what a merged answer is made of.
  for (const [key, made] of Object.entries(parts)) {
    const response = responses[key] as Json;
    if ("$ref" in response) continue;
    if (made.every((part) => "platform" in part))
      responses[key] = { ...response, [PLATFORM]: true };
    else if (made.length > 1) responses[key] = { ...response, [MERGED]: made };
  }

  // RFC 9745 / RFC 8594: what every answer of a deprecated version or operation carries.
  const deprecation = deprecationHeadersOf(contract, op);
  if (Object.keys(deprecation).length > 0)
    for (const [key, response] of Object.entries(responses))
      if (!("$ref" in response))
        responses[key] = {
          ...response,
          headers: { ...(response.headers as Json), ...deprecation },
        };

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
    responses,
  };
}

/** Part 4's paths and part 5's schemes. */
export function documentOperations(context: DocumentContext): {
  paths: Record<string, Json>;
  securitySchemes: Json;
} {
  const { contract } = context;
  const paths: Record<string, Json> = {};
  for (const [id, op] of Object.entries(contract.operations)) {
    const item = paths[op.path] ?? {};
    item[op.method.toLowerCase()] = operationObject(id, op, planLimits(contract, id), {
      ...context,
      failure: context.failureFor(id),
    });
    paths[op.path] = item;
  }
  for (const item of Object.values(paths)) {
    const methods = Object.keys(item).map((m) => m.toUpperCase());
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
