/**
 * What the contract declares, in the OpenAPI document: part 2's resources (and schemas
 * derived from declarations), part 4's paths with parts 5 and 8, part 6's webhooks, part
 * 7's error types as `components.responses`, and the platform's failures documented as the
 * error types that present them. The platform's frame (src/platform/openapi/) merges it in.
 */
import { type Contract, declaresXml, resolveSchema } from "../../contract-language/contract";
import { filledMembers } from "../../contract-language/problem-catalogue";
import type {
  ContractDocumentation,
  DocumentContext,
  FailureDocumenter,
  Json,
} from "../../platform/openapi/document";
import {
  COMPONENT,
  ENVELOPE,
  ERROR_TYPE,
  PLATFORM,
  PROBLEM_REF,
  problemAnswer,
  problemSchemaName,
  STATE_MACHINES,
} from "../../platform/openapi/problems";
import { presentedFor, presentsWhole } from "../error-model";
import type { SandboxMarks } from "../mock-features";
import { documentOperations, headersOf } from "./operations";
import { withProblemXml } from "./problem-xml";
import { type Convert, schemaComponents } from "./schemas";

/**
 * The schema of a part 7 error type: the problem document, the schema the spec gives it
 * (if it does), and its declared members.
 */
function errorTypeSchema(name: string, contract: Contract, convert: Convert): Json {
  const error = contract.errors[name];
  const own = error?.schema ? [convert(error.schema, "output", `${name}Problem`)] : [];
  const members = Object.entries(error?.members ?? {});
  const properties: Json = {};
  const required: string[] = [];
  for (const [member, schema] of members) {
    properties[member] = convert(schema, "output", `${name}${member}`);
    // A member whose schema accepts its absence is optional.
    if (resolveSchema(schema)._zod.optout !== "optional") required.push(member);
  }
  const declared =
    members.length > 0
      ? [{ type: "object", properties, ...(required.length > 0 ? { required } : {}) }]
      : [];
  // Its own body (not RFC 9457's): the schema the spec gives it, or its members alone.
  if (error?.body) {
    const [first, ...rest] = [...own, ...declared];
    return rest.length > 0 ? { allOf: [first, ...rest] } : (first ?? { type: "object" });
  }
  if (declared.length === 0) return own.length > 0 ? { allOf: [PROBLEM_REF, ...own] } : PROBLEM_REF;
  return { allOf: [PROBLEM_REF, ...own, ...declared] };
}

/**
 * An answer of error type `name`: RFC 9457's document, or its own body in its media type,
 * with the headers and examples the spec documents on it.
 */
function errorAnswer(
  contract: Contract,
  convert: Convert,
  name: string,
  description: string,
  schema: Json,
  headers?: Json,
): Json {
  const error = contract.errors[name];
  const own = headersOf(error?.headers, convert, `${name}Headers`, true);
  const answer = problemAnswer(description, schema, { ...own, ...headers });
  const media = {
    schema,
    ...(error?.examples && Object.keys(error.examples).length > 0
      ? { examples: error.examples }
      : {}),
  };
  const mediaType = error?.body?.mediaType ?? Object.keys(answer.content as Json)[0];
  return { ...answer, content: { [mediaType as string]: media } };
}

/** An example delivery's envelope needs a time; this one is illustrative only. */
const EXAMPLE_TIME = "2026-01-01T00:00:00.000Z";

/** The three headers of every delivery, as the Standard Webhooks specification defines them. */
const WEBHOOK_HEADERS: Json[] = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The message's id: the same on every retry, so a receiver can drop a repeat.",
    schema: { type: "string" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description:
      "When this attempt was signed, in seconds since the Unix epoch; refuse one more than five minutes away.",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "Space-separated `v1,<base64>` HMAC-SHA256 signatures of `{webhook-id}.{webhook-timestamp}.{body}`, one per signing key while a key is rotated.",
    schema: { type: "string" },
  },
];

/** Part 7's error types as `components.responses`, with what the document cannot say otherwise. */
function errorResponses(contract: Contract, convert: Convert): Json {
  const responses: Json = {};
  for (const [name, error] of Object.entries(contract.errors)) {
    // What the document cannot say otherwise: the type's status, its title apart from its
    // description, the problem type URI the spec gives, and the platform failures it
    // answers (the status report's error model).
    const own = {
      status: error.status,
      title: error.title,
      ...(error.description ? { description: error.description } : {}),
      ...(error.type ? { type: error.type } : {}),
      ...(error.presents?.length ? { presents: error.presents } : {}),
    };
    responses[name] = {
      ...errorAnswer(
        contract,
        convert,
        name,
        // A description that begins with the title (its summary, maybe cut) says it already.
        error.description?.startsWith(error.title.replace(/…$/, ""))
          ? error.description
          : [error.title, error.description].filter(Boolean).join(". "),
        errorTypeSchema(name, contract, convert),
      ),
      [ERROR_TYPE]: own,
    };
  }
  return responses;
}

/** How one operation's platform failures are documented: as its error model answers them. */
function failureDocumenter(
  contract: Contract,
  convert: Convert,
  operationId?: string,
): FailureDocumenter {
  const presented = presentedFor(contract, operationId);
  return (kind, status, description, extra = {}) => {
    const own = extra.type ? { $ref: `${COMPONENT}${problemSchemaName(extra.type)}` } : PROBLEM_REF;
    const name = kind && presented.get(kind);
    const error = name ? contract.errors[name] : undefined;
    // A failure its type's body cannot hold whole is answered, and documented, as the platform's.
    if (!kind || !name || !error || !presentsWhole(error, kind, filledMembers(kind)))
      return {
        status,
        response: problemAnswer(description, own, extra.headers),
        ...(kind ? { kind } : {}),
      };
    const schema = errorTypeSchema(name, contract, convert);
    // Part 7's type, carrying the platform's members too (RFC 9457 §3.2 allows both); an
    // error type of its own body carries only what it declares.
    return {
      kind,
      presentedBy: name,
      status: error.status,
      response: errorAnswer(
        contract,
        convert,
        name,
        `${error.title} (error type ${name}): ${description}`,
        error.body ? schema : { allOf: [own, schema] },
        extra.headers,
      ),
    };
  };
}

/** The Standard Webhooks envelope around an event's payload. */
function envelope(name: string, payload: Json): Json {
  return {
    type: "object",
    description: "The Standard Webhooks envelope: the event's payload is its data.",
    [PLATFORM]: "standard-webhooks-envelope",
    properties: {
      type: { const: name },
      timestamp: { type: "string", format: "date-time" },
      data: payload,
    },
    required: ["type", "timestamp", "data"],
  };
}

/** The request body of event `name`'s delivery: its payload, in the envelope unless it is one. */
function deliveryContent(name: string, event: Contract["events"][string], convert: Convert): Json {
  const bare = event.envelope === "payload";
  const payload = convert(event.payload, "output", `${name}Payload`);
  const examples = event.examples
    ? Object.fromEntries(
        Object.entries(event.examples).map(([key, example]) => [
          key,
          bare
            ? example
            : { ...example, value: { type: name, timestamp: EXAMPLE_TIME, data: example.value } },
        ]),
      )
    : undefined;
  return {
    // The Standard Webhooks envelope, unless the payload is one already (part 6).
    schema: bare ? payload : envelope(name, payload),
    ...(examples ? { examples } : {}),
  };
}

/** Part 6's events, as the webhooks the service sends. */
function webhooksOf(contract: Contract, convert: Convert): Json {
  const webhooks: Json = {};
  for (const [name, event] of Object.entries(contract.events)) {
    const expected = Object.entries(event.responses ?? {}) as [string, { description: string }][];
    webhooks[name] = {
      post: {
        ...(event.envelope === "payload" ? { [ENVELOPE]: "payload" } : {}),
        // The event's name identifies it, unless an operation already has that id.
        ...(name in contract.operations ? {} : { operationId: name }),
        ...(event.summary ? { summary: event.summary } : {}),
        ...(event.description ? { description: event.description } : {}),
        ...(event.tags ? { tags: event.tags } : {}),
        // The service calls the receiver: no scheme of part 5 applies, and an empty list
        // says so (OpenAPI 3.1 §4.8.10.2) rather than leave it to a reader to guess.
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: { "application/json": deliveryContent(name, event, convert) },
        },
        responses:
          expected.length > 0
            ? Object.fromEntries(
                expected.map(([status, r]) => [status, { description: r.description }]),
              )
            : { "2XX": { description: "Received" } },
      },
    };
  }
  return webhooks;
}

/** Part 3: each machine on its resource's schema. */
function drawMachines(contract: Contract, schemas: Json): void {
  for (const [name, machine] of Object.entries(contract.states)) {
    const component = schemas[machine.resource] as Json | undefined;
    if (!component) continue;
    const { resource: _onThisSchema, ...declared } = machine;
    component[STATE_MACHINES] = [
      ...((component[STATE_MACHINES] as Json[] | undefined) ?? []),
      { name, ...declared },
    ];
  }
}

/** What `contract` declares with schemas, documented; `sandbox`, what the document says of its operations. */
export function documentContract(
  context: DocumentContext,
  sandbox: SandboxMarks,
): ContractDocumentation {
  const { contract } = context;
  const { convert, schemas } = schemaComponents(contract, context.jsonSchema);
  const responses = errorResponses(contract, convert);
  const failure = failureDocumenter(contract, convert);
  const { paths, securitySchemes } = documentOperations(sandbox, {
    ...context,
    convert,
    failure,
    failureFor: (operationId) => failureDocumenter(contract, convert, operationId),
    errorResponse: (name, form) =>
      form === "inline" ? (responses[name] as Json) : { $ref: `#/components/responses/${name}` },
  });
  const webhooks = webhooksOf(contract, convert);
  drawMachines(contract, schemas);
  // Read last: converting the paths and webhooks may have added derived schemas.
  return {
    paths,
    webhooks,
    schemas,
    responses,
    securitySchemes,
    failure,
    ...(declaresXml(contract) ? { finish: (doc: Json) => withProblemXml(doc, contract) } : {}),
  };
}
