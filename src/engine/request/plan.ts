/**
 * Validating a request against a declared operation, in a fixed order: the body's media
 * type (415), its size (413), its well-formedness (400), then every declared schema (422,
 * all violations at once). The input a handler receives is the schemas' output. Each
 * failure is a refusal the operation's model answers (as part 7 presents it, where it does).
 */
import type { Context } from "hono";
import {
  type Operation,
  resolveSchema,
  type Schema,
  schemaOf,
} from "../../contract-language/contract";
import { type BodyKind, bodyKind } from "../../contract-language/media-types";
import {
  CONTENT_TOO_LARGE,
  MALFORMED_REQUEST,
  UNSUPPORTED_MEDIA_TYPE,
  VALIDATION_FAILED,
} from "../../contract-language/problem-catalogue";
import type { AppEnv } from "../../platform/env";
import { VIOLATION_KEYWORD } from "../../platform/error-body";
import { type ProblemDetails, typedProblem } from "../../platform/problem";
import type { XmlMapping } from "../../platform/xml-seam";
import type { Refusal } from "../refusal";
import {
  jsonPointer,
  type RequestLocation,
  type ValidationError,
  validationErrors,
} from "../zod/issues";
import { parseWith } from "../zod/parse";
import { viewOf } from "../zod/views";
import type { XmlMappings } from "../zod/xml-mappings";
import { decodeBody, type FormReader, readBodyBytes } from "./body";
import { acceptHint, matchMediaType } from "./content-negotiation";
import type { FormsFeature } from "./forms";
import {
  type ParameterPlan,
  planParameters,
  type ReadParameters,
  readParameters,
} from "./parameters";

/**
 * Request fields kept from the schemas, so a handler never receives them: those that carry
 * credentials, and those that state the version (part 9), which the platform reads itself.
 */
export interface HiddenFields {
  readonly path?: ReadonlySet<string>;
  readonly header: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  readonly cookie: ReadonlySet<string>;
}

/** One declared media type of the body: how it is read, and the schema's request view. */
interface BodyPlan {
  readonly kind: BodyKind;
  readonly schema: Schema;
  /** For a form: the fields its schema declares as arrays. */
  readonly lists: ReadonlySet<string>;
  /** For XML: how the body is read into the value its schema describes. */
  readonly xml: XmlMapping | undefined;
  /** For a form: how it is read (the engine's forms feature). */
  readonly form: FormReader | undefined;
}

/** The schemas of a request's parameters, by where they are sent, built when it is planned. */
interface ParameterSchemas {
  readonly params: Schema | undefined;
  readonly query: Schema | undefined;
  readonly headers: Schema | undefined;
  readonly cookies: Schema | undefined;
}

/** What is decided about an operation once, on its first request. */
export interface RequestPlan {
  readonly operation: Operation;
  /** Its parameters' schemas, built (the operation may declare each as a function that builds it). */
  readonly schemas: ParameterSchemas;
  readonly bodyTypes: readonly string[];
  readonly bodies: ReadonlyMap<string, BodyPlan>;
  /** Whether a request may come without a body (OpenAPI `requestBody.required: false`). */
  readonly bodyOptional: boolean;
  readonly maxBodyBytes: number;
  /** Problems whose every member is known in advance. */
  readonly unsupportedMediaType: ProblemDetails;
  readonly tooLarge: ProblemDetails;
  /** The header a 415 names the accepted types in, where it does (`acceptHint`). */
  readonly acceptHint: Readonly<Record<string, string>>;
  /** Fields that carry credentials: kept from the schemas, so a handler never receives them. */
  readonly hidden: HiddenFields;
  /** How each location's parameters are read (their styles, OpenAPI 3.1 §4.8.12.4). */
  readonly parameters: {
    readonly path?: ParameterPlan;
    readonly query?: ParameterPlan;
    readonly header?: ParameterPlan;
    readonly cookie?: ParameterPlan;
  };
  /** The path template's parameters, as their text stands in the path the router matched. */
  readonly pathParameters: (path: string) => Record<string, string>;
}

const NOTHING_HIDDEN: HiddenFields = { header: new Set(), query: new Set(), cookie: new Set() };

interface RequestPlanOptions {
  readonly maxBodyBytes: number;
  readonly hidden?: HiddenFields;
  /** The path template's parameters, as their text stands in the path the router matched. */
  readonly pathParameters: (path: string) => Record<string, string>;
  /** The XML mappings, when the contract declares an XML media type. */
  readonly xml?: XmlMappings;
  /** The engine's forms feature, when the contract declares a form body. */
  readonly forms?: FormsFeature;
}

export function planRequest(operation: Operation, options: RequestPlanOptions): RequestPlan {
  const { maxBodyBytes, hidden = NOTHING_HIDDEN } = options;
  const body = operation.request?.body ?? {};
  const bodyTypes = Object.keys(body);
  const bodies = new Map(
    Object.entries(body).map(([type, declared]): [string, BodyPlan] => {
      const kind = bodyKind(type);
      const schema = schemaOf(declared);
      const form = kind === "form" || kind === "multipart";
      return [
        type,
        // Read-only members (an id the server sets) are not required of a client.
        {
          kind,
          schema: viewOf(schema, "request", "checking"),
          lists: (form && options.forms?.lists(schema)) || new Set(),
          xml: kind === "xml" ? options.xml?.(schema, "request") : undefined,
          form: form ? options.forms?.read : undefined,
        },
      ];
    }),
  );
  const hint = acceptHint(operation);
  const request = operation.request;
  // Built here, on the operation's first request: never when the Worker starts.
  const schemas: ParameterSchemas = {
    params: resolveSchema(request?.params),
    query: resolveSchema(request?.query),
    headers: resolveSchema(request?.headers),
    cookies: resolveSchema(request?.cookies),
  };
  return {
    operation,
    schemas,
    bodyTypes,
    bodies,
    bodyOptional: operation.request?.bodyRequired === false,
    maxBodyBytes,
    unsupportedMediaType: typedProblem(
      UNSUPPORTED_MEDIA_TYPE,
      bodyTypes.length === 0
        ? "This operation takes no request body."
        : `This operation accepts a body of these media types only: ${bodyTypes.join(", ")}.`,
      { acceptedMediaTypes: bodyTypes },
    ),
    tooLarge: typedProblem(
      CONTENT_TOO_LARGE,
      `The request body is larger than the ${maxBodyBytes} bytes this operation accepts.`,
      { maxBytes: maxBodyBytes },
    ),
    acceptHint: hint ? { [hint.name.toLowerCase()]: hint.value } : {},
    hidden,
    parameters: {
      path: planParameters("path", schemas.params),
      query: planParameters("query", schemas.query),
      header: planParameters("header", schemas.headers),
      cookie: planParameters("cookie", schemas.cookies),
    },
    pathParameters: options.pathParameters,
  };
}

export interface ValidatedInput {
  readonly params: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  readonly cookies: unknown;
  readonly body: { readonly mediaType: string; readonly value: unknown } | undefined;
}

type Validation =
  | { readonly ok: true; readonly input: ValidatedInput }
  | { readonly ok: false; readonly refusal: Refusal };

/** A body can hold many thousand violations; the answer must not grow with it. */
export const MAX_LISTED_ERRORS = 100;

const malformed = (detail: string): Refusal => ({
  kind: "malformed-request",
  problem: typedProblem(MALFORMED_REQUEST, detail),
});
const unsupported = (plan: RequestPlan, headers?: Readonly<Record<string, string>>): Refusal => ({
  kind: "unsupported-media-type",
  problem: plan.unsupportedMediaType,
  ...(headers ? { headers } : {}),
});

/** A body is present when the request has a stream that is not declared empty. */
function carriesBody(request: Request): boolean {
  return request.body !== null && request.headers.get("content-length") !== "0";
}

export async function validateRequest(plan: RequestPlan, c: Context<AppEnv>): Promise<Validation> {
  const request = c.req.raw;
  const reject = (refusal: Refusal): Validation => ({ ok: false, refusal });

  let body: ValidatedInput["body"];
  const contentType = request.headers.get("content-type");
  if (plan.bodyTypes.length === 0) {
    if (carriesBody(request)) return reject(unsupported(plan));
  } else if (contentType === null) {
    if (carriesBody(request)) return reject(unsupported(plan, plan.acceptHint));
    if (!plan.bodyOptional) return reject(malformed("This operation requires a request body."));
  } else {
    const mediaType = matchMediaType(contentType, plan.bodyTypes);
    const bodyPlan = mediaType === undefined ? undefined : plan.bodies.get(mediaType);
    if (mediaType === undefined || !bodyPlan) return reject(unsupported(plan, plan.acceptHint));
    const bytes = await readBodyBytes(request, plan.maxBodyBytes);
    if (!bytes.ok) {
      if (bytes.kind === "too-large")
        return reject({ kind: "content-too-large", problem: plan.tooLarge });
      return reject(malformed(bytes.reason));
    }
    const decoded = await decodeBody(
      bodyPlan.kind,
      bytes.value,
      contentType,
      bodyPlan.lists,
      bodyPlan.xml,
      bodyPlan.form,
    );
    if (!decoded.ok) return reject(malformed(decoded.reason));
    body = { mediaType, value: decoded.value };
  }

  const declared = plan.schemas;
  const errors: ValidationError[] = [];
  // Only the locations the operation declares are read, and a location's value is built only then.
  const check = async (location: RequestLocation, schema: Schema, value: unknown) => {
    const result = await parseWith(schema, value);
    if (result.success) return result.data;
    errors.push(...validationErrors(location, result.error.issues, value));
    return undefined;
  };
  // Parameters: a member not serialised as its style says is refused at its pointer, and
  // nothing else is said of it.
  const checkRead = async (location: RequestLocation, schema: Schema, read: ReadParameters) => {
    // Not written as its style says: of no type its schema takes.
    for (const [name, detail] of read.malformed)
      errors.push({
        in: location,
        pointer: jsonPointer([name]),
        detail,
        [VIOLATION_KEYWORD]: "type",
      });
    const result = await parseWith(schema, read.value);
    if (result.success) return read.malformed.size === 0 ? result.data : undefined;
    const issues = result.error.issues.filter(
      (issue) => !read.malformed.has(String(issue.path[0])),
    );
    errors.push(...validationErrors(location, issues, read.value));
    return undefined;
  };
  const read = readParameters(plan.parameters, plan.hidden, request, () =>
    plan.pathParameters(c.req.path),
  );
  const params =
    declared.params && read.path && (await checkRead("path", declared.params, read.path));
  const query =
    declared.query && read.query && (await checkRead("query", declared.query, read.query));
  const headers =
    declared.headers && read.header && (await checkRead("header", declared.headers, read.header));
  const cookies =
    declared.cookies && read.cookie && (await checkRead("cookie", declared.cookies, read.cookie));
  const bodySchema = body ? plan.bodies.get(body.mediaType)?.schema : undefined;
  const bodyValue = body && bodySchema ? await check("body", bodySchema, body.value) : undefined;

  if (errors.length > 0) {
    const listed = errors.slice(0, MAX_LISTED_ERRORS);
    const count = `${errors.length} violation${errors.length === 1 ? "" : "s"}`;
    return reject({
      kind: "validation-failed",
      problem: typedProblem(
        VALIDATION_FAILED,
        listed.length < errors.length
          ? `The request does not satisfy the operation's schemas (${count}; the first ${listed.length} are listed).`
          : `The request does not satisfy the operation's schemas (${count}).`,
        { errors: listed },
      ),
    });
  }
  return {
    ok: true,
    input: {
      params,
      query,
      headers,
      cookies,
      body: body ? { mediaType: body.mediaType, value: bodyValue } : undefined,
    },
  };
}
