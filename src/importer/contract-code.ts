/**
 * An OpenAPI document as the contract's part files: the code of each part the document
 * declares, written with zod/mini, and every finding about what could not be carried.
 * Mapping (src/contract/README.md, "Importing an OpenAPI document", says it in prose):
 * `info` → part 1 (with tags, servers, externalDocs); `components.schemas` → part 2;
 * `paths` → part 4; `securitySchemes` and `security` → part 5; `webhooks` and `callbacks`
 * → part 6; problem responses → part 7; a bounded page-size parameter → part 8;
 * `info.version` → part 9. Part 3 is not something OpenAPI carries.
 */
import type { PlatformProblem } from "../contract-language/contract";
import {
  DEPRECATION,
  EMITS,
  ENVELOPE as ENVELOPE_MARKER,
  ERROR_TYPE,
  PLATFORM,
  PRESENTS as PRESENTS_MARKER,
  STATE_MACHINES,
  TRANSITION,
} from "../contract-language/document-marks";
import { bodyKind } from "../contract-language/media-types";
import { PARAMETER_STYLES } from "../contract-language/parameters";
import { RESERVED_PROBLEM_SLUGS, RESERVED_SCHEMA_NAMES } from "../contract-language/reserved";

import { carriesOf, type ErrorMedia, errorMediaOf } from "./error-bodies";
import { isEnvelope } from "./event-envelopes";
import { type Finding, Findings } from "./findings";
import { derivedOperationId, Identifiers, pascal, RENAMED_FROM, screamingSnake } from "./names";
import {
  IMPORT_ERRORS,
  ownProblemParts,
  servedHere,
  unspecifiedParts,
  withoutPlatformParts,
} from "./platform-parts";
import {
  type Helper,
  literal,
  type Mode,
  propertyKey,
  type SchemaContext,
  SchemaWriter,
} from "./schema-code";
import { child, componentOf, follow, isObject, type Json, type OpenApiSource } from "./source";
import { normaliseDocument } from "./walk";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const UNSERVED_METHODS = ["head", "options", "trace"] as const;
const PROBLEM_JSON = "application/problem+json";
/** Marks where an operation's own `presents` goes, until part 7 is known (a private-use character). */
const PRESENTS_MARK = "\uE001";
/** RFC 9457 Appendix B's XML form of a problem, which the platform serves when asked for. */
const PROBLEM_XML = "application/problem+xml";
/** The members RFC 9457 §3.1 defines; the platform fills them in every problem. */
const STANDARD_MEMBERS = new Set(["type", "title", "status", "detail", "instance"]);
/** A query parameter that bounds a page, by the names APIs give it. */
const PAGE_SIZE = /^(?:limit|page[-_]?size|per[-_]?page|max[-_]?results|page[-_]?limit)$/i;

/** Which platform failures an error type at each status presents (the spec's error model over the platform's). */
const PRESENTS: Readonly<Record<number, readonly PlatformProblem[]>> = {
  400: ["malformed-request", "validation-failed"],
  401: ["authentication-required"],
  403: ["insufficient-scope"],
  404: ["not-found"],
  405: ["method-not-allowed"],
  406: ["not-acceptable"],
  413: ["content-too-large"],
  415: ["unsupported-media-type"],
  422: ["validation-failed"],
  429: ["rate-limit-exceeded"],
  500: ["internal-error"],
};

/** The code of one part file's declarations, with what it needs imported. */
export interface PartCode {
  /** The declarations: consts, then `export const <part> = …`. */
  readonly body: string;
  readonly count: number;
  /** What the part declares, in a few words, for the summary. */
  readonly summary: string;
  readonly uses: ReadonlySet<Helper>;
  /** Component schemas it refers to (imported from `./resources`). */
  readonly referenced: ReadonlySet<string>;
}

export interface ImportResult {
  /** The parts the document declares, by part name. */
  readonly parts: ReadonlyMap<string, PartCode>;
  readonly findings: readonly Finding[];
  /** The identifier of each component schema (its const in `./resources`), by component name. */
  readonly identifiers: ReadonlyMap<string, string>;
  /** The key of each component schema in `resources`, by component name (renamed if reserved). */
  readonly resourceKeys: ReadonlyMap<string, string>;
  readonly operations: number;
  /** The ids of part 4's operations, as written. */
  readonly operationIds: readonly string[];
  /** Part 5 declares a JWT scheme: the entry passes the JWT verifier. */
  readonly jwt: boolean;
  /** Part 4 declares an XML media type (RFC 7303): the entry passes the XML codec. */
  readonly xml: boolean;
}

export interface ImportOptions {
  /** Called as the import goes, for a progress line. */
  readonly progress?: (what: string, done: number, total: number) => void;
}

/** Tokens in code stand for shared declarations until they are resolved (a private-use character). */
const MARK = "\uE000";
const TOKEN = /\uE000([^\uE000]*)\uE000/g;

interface SharedEntry {
  readonly id: string;
  readonly code: string;
  count: number;
}

/** Declarations used more than once (a components parameter, response, example): one const each. */
class Shared {
  readonly #entries = new Map<string, SharedEntry>();
  readonly #ids: Identifiers;

  constructor(ids: Identifiers) {
    this.#ids = ids;
  }

  /** A token standing for `code`; `key` identifies the component it came from. */
  use(key: string, name: string, suffix: string, code: () => string): string {
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { id: this.#ids.take(`${name}${suffix}`, suffix), code: code(), count: 0 };
      this.#entries.set(key, entry);
    }
    entry.count += 1;
    return `${MARK}${key}${MARK}`;
  }

  /** The consts of entries used more than once, and `body` with every token resolved. */
  resolve(body: string): { consts: string; body: string } {
    const consts: string[] = [];
    const replace = (text: string): string =>
      text.replace(TOKEN, (_, key: string) => {
        const entry = this.#entries.get(key) as SharedEntry;
        return entry.count > 1 ? entry.id : replace(entry.code);
      });
    for (const entry of this.#entries.values())
      if (entry.count > 1) consts.push(`const ${entry.id} = ${replace(entry.code)};`);
    return { consts: consts.join("\n"), body: replace(body) };
  }
}

/** A writer of one part file: its own record of helpers and referenced components. */
function fileWriter(
  document: Json,
  findings: Findings,
  identifiers: ReadonlyMap<string, string>,
  resourceKeys: ReadonlyMap<string, string>,
  deferred: (name: string) => boolean = () => false,
) {
  const context: SchemaContext = {
    document,
    findings,
    identifiers,
    resourceKeys,
    deferred,
    uses: new Set(),
    referenced: new Set(),
  };
  return { writer: new SchemaWriter(context), context };
}

/** `1 operation`, `2 operations`. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** The statuses an error type can have: 400 to 599. */
const errorStatus = (key: string) => /^[45]\d\d$/.test(key);

export function importContract(source: OpenApiSource, options: ImportOptions = {}): ImportResult {
  const progress = options.progress ?? (() => {});
  const findings = new Findings();
  // A document this platform served is read without what the platform adds to it.
  const ours = servedHere(source.document);
  // What a document served here says is not specified stays so (its info.version, say).
  const unspecified = ours ? unspecifiedParts(source.document) : new Set<number>();
  const document = withoutPlatformParts(normaliseDocument(source.document, source.major), findings);
  const parts = new Map<string, PartCode>();
  const components = isObject(document.components) ? document.components : {};

  for (const key of Object.keys(document))
    if (key.startsWith("x-"))
      findings.lost(child("#", key), `${key}: an extension of the document`);
  if (
    typeof document.jsonSchemaDialect === "string" &&
    document.jsonSchemaDialect !== "https://spec.openapis.org/oas/3.1/dialect/base"
  )
    findings.lost(
      "#/jsonSchemaDialect",
      "another JSON Schema dialect: schemas are read as OpenAPI 3.1's",
    );

  // ---- Part 2: component schemas, in an order where each follows what it uses. ----
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const schemaIds = new Identifiers();
  const identifiers = new Map<string, string>();
  const resourceKeys = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    identifiers.set(name, schemaIds.take(name, "Schema"));
    let key = name;
    if ((RESERVED_SCHEMA_NAMES as readonly string[]).includes(name)) {
      // A name neither the platform nor the document itself uses (it may have a SpecProblem).
      const taken = (candidate: string) =>
        Object.hasOwn(schemas, candidate) ||
        (RESERVED_SCHEMA_NAMES as readonly string[]).includes(candidate) ||
        [...resourceKeys.values()].includes(candidate);
      key = `Spec${name}`;
      for (let n = 2; taken(key); n += 1) key = `Spec${name}${n}`;
      findings.changed(
        child("#", "components", "schemas", name),
        `renamed ${key}: the platform's own schema is called ${name}`,
      );
    }
    resourceKeys.set(name, key);
  }
  const order = dependencyOrder(schemas);
  const emitted = new Set<string>();
  const resources = fileWriter(
    document,
    findings,
    identifiers,
    resourceKeys,
    (name) => !emitted.has(name),
  );
  const resourceLines: string[] = [];
  order.forEach((name, i) => {
    progress("schemas", i + 1, order.length);
    const pointer = child("#", "components", "schemas", name);
    const schema = schemas[name];
    const id = identifiers.get(name) as string;
    let code =
      isObject(schema) && schema.type === "string" && schema.format === "binary"
        ? resources.writer.binaryCode(schema, pointer)
        : resources.writer.schema(schema, pointer, "json");
    // An alias of another component is a copy of it (zod writes `$ref` to it), not the
    // same schema under a second name.
    if (/^[A-Za-z_$][\w$]*$/.test(code) && code !== id) code = `${code}.check(z.meta({}))`;
    // Renamed, it says the name the document gave it (the round-trip report reads it).
    if (resourceKeys.get(name) !== name)
      code = `${code}.check(z.meta(${literal({ [RENAMED_FROM]: name })}))`;
    resourceLines.push(`const ${id} = ${code};`);
    emitted.add(name);
  });
  // ---- Part 3: the machines the service's own document puts on resources' schemas. ----
  const machines: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const declared = isObject(schema) ? schema[STATE_MACHINES] : undefined;
    if (!Array.isArray(declared)) continue;
    for (const machine of declared) {
      if (!isObject(machine) || typeof machine.name !== "string") continue;
      const { name: machineName, ...rest } = machine;
      machines.push(
        `${propertyKey(machineName)}: ${literal({ resource: resourceKeys.get(name) ?? name, ...rest })},`,
      );
    }
  }
  if (machines.length > 0)
    parts.set("states", {
      body: `export const states = { ${machines.join(" ")} } as const satisfies Readonly<Record<string, StateMachine>>;`,
      count: machines.length,
      summary: counted(machines.length, "state machine"),
      uses: new Set(),
      referenced: new Set(),
    });

  if (order.length > 0)
    parts.set("resources", {
      body: `${resourceLines.join("\n")}\n\nexport const resources = { ${[...resourceKeys]
        .map(([name, key]) => {
          const id = identifiers.get(name) as string;
          return id === key ? id : `${propertyKey(key)}: ${id}`;
        })
        .join(", ")} } as const satisfies Readonly<Record<string, Schema>>;`,
      count: order.length,
      summary: counted(order.length, "component schema"),
      uses: new Set([...resources.context.uses, "Schema"]),
      referenced: new Set(),
    });

  // ---- Part 5: security schemes. ----
  const title =
    isObject(document.info) && typeof document.info.title === "string"
      ? document.info.title
      : "API";
  const supported = new Set<string>();
  const jwtSchemes = new Set<string>();
  const schemeLines: string[] = [];
  const secretNames = new Set<string>();
  const secretName = (base: string) => {
    let name = base;
    for (let n = 2; secretNames.has(name); n += 1) name = `${base}_${n}`;
    secretNames.add(name);
    return name;
  };
  const securitySchemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const [name, raw] of Object.entries(securitySchemes)) {
    const pointer = child("#", "components", "securitySchemes", name);
    const { node } = follow(document, raw, pointer);
    if (!isObject(node)) continue;
    const snake = screamingSnake(name);
    const description =
      typeof node.description === "string" ? { description: node.description } : {};
    const jwt = () => {
      jwtSchemes.add(name);
      return {
        jwt: {
          jwksUrl: secretName(`${snake}_JWKS_URL`),
          issuer: secretName(`${snake}_ISSUER`),
          audience: secretName(`${snake}_AUDIENCE`),
        },
      };
    };
    let declared: Json | undefined;
    const scheme = typeof node.scheme === "string" ? node.scheme.toLowerCase() : undefined;
    if (node.type === "apiKey" && ["header", "query", "cookie"].includes(String(node.in)))
      declared = {
        type: "apiKey",
        in: node.in,
        name: node.name,
        ...description,
        secret: secretName(snake),
      };
    else if (node.type === "http" && scheme === "basic")
      declared = {
        type: "http",
        scheme: "basic",
        realm: title,
        ...description,
        secret: secretName(snake),
      };
    else if (node.type === "http" && scheme === "bearer") {
      const format = typeof node.bearerFormat === "string" ? node.bearerFormat : undefined;
      // A token the document says is a JWT is verified here against its issuer's keys; any
      // other is opaque to the Worker, and its issuer is asked (RFC 7662), never compared
      // with one shared secret.
      const isJwt = format?.toUpperCase() === "JWT";
      declared = {
        type: "http",
        scheme: "bearer",
        ...(format ? { bearerFormat: format } : {}),
        ...description,
        ...(isJwt
          ? jwt()
          : {
              introspection: {
                endpoint: secretName(`${snake}_INTROSPECTION_URL`),
                clientId: secretName(`${snake}_CLIENT_ID`),
                clientSecret: secretName(`${snake}_CLIENT_SECRET`),
              },
            }),
      };
      findings.changed(
        pointer,
        isJwt
          ? "bearer JWTs are verified against a key set the deployment names (JWKS URL, issuer, audience secrets)"
          : "opaque bearer tokens are verified by token introspection (RFC 7662) at the endpoint the deployment names, with its client id and secret; until they are set this way in is closed",
      );
    } else if (node.type === "oauth2" && isObject(node.flows)) {
      const flows: Json = {};
      for (const [flow, value] of Object.entries(node.flows)) {
        if (!isObject(value)) continue;
        if (!["implicit", "password", "clientCredentials", "authorizationCode"].includes(flow)) {
          findings.lost(
            child(pointer, "flows", flow),
            `OAuth flow ${flow}: not one OpenAPI defines`,
          );
          continue;
        }
        const kept: Json = {};
        for (const key of ["authorizationUrl", "tokenUrl", "refreshUrl"])
          if (typeof value[key] === "string") kept[key] = value[key];
        kept.scopes = isObject(value.scopes) ? value.scopes : {};
        flows[flow] = kept;
      }
      declared = { type: "oauth2", flows, ...description, ...jwt() };
      findings.changed(
        pointer,
        "OAuth 2 access tokens are verified as JWTs (RFC 9068) against a key set the deployment names",
      );
    } else if (node.type === "openIdConnect" && typeof node.openIdConnectUrl === "string") {
      declared = {
        type: "openIdConnect",
        openIdConnectUrl: node.openIdConnectUrl,
        ...description,
        ...jwt(),
      };
      findings.changed(
        pointer,
        "OpenID Connect tokens are verified as JWTs against a key set the deployment names",
      );
    }
    if (!declared) {
      findings.lost(
        pointer,
        `security scheme ${name} (${String(node.type)}${scheme ? ` ${scheme}` : ""}): the platform cannot verify it`,
      );
      continue;
    }
    for (const key of Object.keys(node))
      if (key.startsWith("x-"))
        findings.lost(child(pointer, key), `${key}: an extension of the scheme`);
    supported.add(name);
    schemeLines.push(`${propertyKey(name)}: ${literal(declared)},`);
  }
  if (supported.size > 0)
    parts.set("authentication", {
      body: `export const securitySchemes = {\n${schemeLines.join("\n")}\n} as const satisfies Readonly<Record<string, SecurityScheme>>;`,
      count: supported.size,
      summary: `${counted(supported.size, "security scheme")} (${[...supported].join(", ")})`,
      uses: new Set(),
      referenced: new Set(),
    });

  /** Part 4's `security` for an operation: explicit, and never opened by a scheme that cannot be verified. */
  const securityOf = (op: Json, pointer: string, id: string): string | undefined => {
    if (supported.size === 0 && Object.keys(securitySchemes).length === 0) return undefined;
    const own = Array.isArray(op.security);
    const requirements = (own ? op.security : document.security) as unknown;
    const where = own ? child(pointer, "security") : "#/security";
    if (!Array.isArray(requirements)) return "[]";
    const kept: string[] = [];
    requirements.forEach((requirement, i) => {
      if (!isObject(requirement)) return;
      const names = Object.keys(requirement);
      const unknown = names.filter((n) => !supported.has(n));
      if (unknown.length > 0) {
        findings.lost(
          child(where, i),
          `${id}: this way in needs ${unknown.join(", ")}, which the platform cannot verify, so it is not offered`,
        );
        return;
      }
      const entries = names.map((n) => {
        let scopes = strings(requirement[n]);
        if (scopes.length > 0 && !jwtSchemes.has(n)) {
          findings.lost(
            child(where, i, n),
            `${id}: roles ${scopes.join(", ")} for ${n}: only OAuth 2, OpenID Connect and JWT schemes check scopes`,
          );
          scopes = [];
        }
        return `${propertyKey(n)}: ${literal(scopes)}`;
      });
      kept.push(`{ ${entries.join(", ")} }`);
    });
    if (requirements.length > 0 && kept.length === 0)
      throw new Error(
        `${pointer}: operation ${id} can only be reached with credentials the platform cannot verify; the import stops rather than leave it open`,
      );
    return `[${kept.join(", ")}]`;
  };

  // ---- Part 7 (collected while reading responses) and part 4. ----
  const endpoint = fileWriter(document, findings, identifiers, resourceKeys);
  const endpointIds = new Identifiers();
  for (const id of identifiers.values()) endpointIds.take(id, "");
  const shared = new Shared(endpointIds);
  interface ErrorUse {
    name: string;
    status: number;
    response: Json;
    pointer: string;
    operations: Set<string>;
    /** How its body is declared: RFC 9457's, the API's own JSON, or none. */
    media: ErrorMedia;
  }
  /** Each operation's error types, by status: what its own failures are answered as. */
  const errorsByOperation = new Map<string, Map<number, string>>();
  /** Where each operation is in the source, for its findings. */
  const operationPointers = new Map<string, string>();
  /** In a document served here, each operation's own presents, as it says them (`x-presents`). */
  const operationPresents = new Map<string, string>();
  const errorTypes = new Map<string, ErrorUse>();
  const errorKeys = new Map<string, string>();
  const reservedSlugs = new Set<string>(RESERVED_PROBLEM_SLUGS);
  const errorName = (base: string, status: number): string => {
    let name = base.replace(/[^A-Za-z0-9._-]/g, "") || `Error${status}`;
    if (reservedSlugs.has(name)) name = `${name}-${status}`;
    let unique = name;
    for (let n = 2; [...errorTypes.values()].some((e) => e.name === unique); n += 1)
      unique = `${name}${n}`;
    return unique;
  };
  /** The error type a problem response becomes (one per component and status, or per identical inline response). */
  const errorTypeFor = (
    raw: unknown,
    response: Json,
    status: number,
    pointer: string,
    operation: string,
    media: ErrorMedia,
  ) => {
    const component =
      isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
    const key =
      component?.kind === "responses"
        ? `${component.name}\n${status}`
        : `${status}\n${literal(response)}`;
    let name = errorKeys.get(key);
    if (!name) {
      const base =
        component?.kind === "responses"
          ? component.name
          : pascal(
              String(response.description ?? "")
                .split(/\s+/)
                .slice(0, 4)
                .join(" "),
            ) || `Error${status}`;
      name = errorName(base, status);
      if (component?.kind !== "responses")
        findings.changed(pointer, `an inline problem response: part 7's error type ${name}`);
      errorKeys.set(key, name);
      errorTypes.set(name, {
        name,
        status,
        response,
        pointer: component ? `#/components/responses/${component.name}` : pointer,
        operations: new Set(),
        media,
      });
    }
    errorTypes.get(name)?.operations.add(operation);
    const own = errorsByOperation.get(operation) ?? new Map<number, string>();
    if (!own.has(status)) own.set(status, name);
    errorsByOperation.set(operation, own);
    return name;
  };

  // A document served here declares every error type in components.responses, with its status.
  if (ours && isObject(components.responses))
    for (const [name, response] of Object.entries(components.responses)) {
      const own = isObject(response) ? response[ERROR_TYPE] : undefined;
      const status = isObject(own) ? Number(own.status) : Number.NaN;
      if (!isObject(response) || !Number.isInteger(status)) continue;
      errorKeys.set(`${name}\n${status}`, name);
      errorTypes.set(name, {
        name,
        status,
        response,
        pointer: child("#/components/responses", name),
        operations: new Set(),
        media: errorMediaOf(isObject(response.content) ? Object.keys(response.content) : []) ?? {
          kind: "none",
        },
      });
    }

  const examplesOf = (holder: Json, pointer: string): string | undefined => {
    const entries: string[] = [];
    if ("example" in holder) entries.push(`example: ${literal({ value: holder.example })}`);
    if (isObject(holder.examples))
      for (const [name, raw] of Object.entries(holder.examples)) {
        const at = child(pointer, "examples", name);
        const { node } = follow(document, raw, at);
        if (!isObject(node)) continue;
        if (!("value" in node)) {
          findings.lost(at, "an example given by externalValue only: examples carry values");
          continue;
        }
        const value: Json = {};
        for (const key of ["summary", "description", "value"])
          if (key in node) value[key] = node[key];
        const component =
          isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
        const code = component
          ? shared.use(`examples/${component.name}`, component.name, "Example", () =>
              literal(value),
            )
          : literal(value);
        entries.push(`${propertyKey(name)}: ${code}`);
      }
    return entries.length > 0 ? `{ ${entries.join(", ")} }` : undefined;
  };

  /** Whether a body or an answer is XML, so the entry must pass the XML codec. */
  let usesXml = false;
  /** A body's or response's media types. */
  const contentOf = (
    holder: Json,
    pointer: string,
    direction: "request" | "response",
  ): string | undefined => {
    if (!isObject(holder.content)) return undefined;
    const entries: string[] = [];
    for (const [type, raw] of Object.entries(holder.content)) {
      const at = child(pointer, "content", type);
      if (!isObject(raw)) continue;
      const kind = bodyKind(type.split(";")[0]?.trim() ?? type);
      if (type.includes(";"))
        findings.changed(
          at,
          `media type ${type}: its parameters are not part of what the platform matches`,
        );
      // XML is read by its schema, as JSON is: its xml objects are carried with it.
      if (kind === "xml") usesXml = true;
      const mode: Mode =
        kind === "json" || kind === "xml"
          ? "json"
          : kind === "form"
            ? "form"
            : kind === "multipart"
              ? "multipart"
              : kind === "binary"
                ? "binary"
                : "plain";
      const schema =
        raw.schema === undefined
          ? kind === "binary"
            ? "z.instanceof(Uint8Array)"
            : kind === "text"
              ? "z.string()"
              : "z.unknown()"
          : endpoint.writer.schema(
              raw.schema,
              child(at, "schema"),
              direction === "response" && mode === "form" ? "form" : mode,
            );
      if (isObject(raw.encoding) && !defaultEncoding(raw.encoding))
        findings.lost(
          child(at, "encoding"),
          "encoding: the platform reads form fields as OpenAPI's defaults say",
        );
      for (const key of Object.keys(raw))
        if (key.startsWith("x-"))
          findings.lost(child(at, key), `${key}: an extension of the media type`);
      const examples = examplesOf(raw, at);
      entries.push(
        `${literal(type.split(";")[0]?.trim() ?? type)}: ${examples ? `{ schema: ${schema}, examples: ${examples} }` : schema}`,
      );
    }
    return `{ ${entries.join(", ")} }`;
  };

  /** A parameter as a member of its part's object schema. */
  const parameterMember = (p: Json, pointer: string): string => {
    let schema: unknown = p.schema;
    if (schema === undefined && isObject(p.content)) {
      const [type, media] = Object.entries(p.content)[0] ?? [];
      findings.lost(child(pointer, "content"), `a parameter serialised as ${type}: read as text`);
      schema = isObject(media) && isObject(media.schema) ? { type: "string" } : undefined;
    }
    const annotated: Json = isObject(schema) ? { ...schema } : {};
    if (typeof p.description === "string") {
      if (typeof annotated.description === "string" && annotated.description !== p.description)
        findings.lost(
          child(pointer, "schema", "description"),
          "the schema's own description (the parameter's is kept)",
        );
      annotated.description = p.description;
    }
    if (p.deprecated === true) annotated.deprecated = true;
    const examples: unknown[] = [];
    if ("example" in p) examples.push(p.example);
    if (isObject(p.examples))
      for (const [name, raw] of Object.entries(p.examples)) {
        const { node } = follow(document, raw, child(pointer, "examples", name));
        if (isObject(node) && "value" in node) examples.push(node.value);
      }
    if (examples.length > 0) annotated.examples = examples;
    const location = String(p.in);
    Object.assign(annotated, serialisationOf(p, pointer, location, schema));
    if ("allowEmptyValue" in p)
      findings.lost(child(pointer, "allowEmptyValue"), "allowEmptyValue: not read");
    for (const key of Object.keys(p))
      if (key.startsWith("x-"))
        findings.lost(child(pointer, key), `${key}: an extension of the parameter`);
    const required = location === "path" || p.required === true;
    return endpoint.writer.member(annotated, child(pointer, "schema"), required, "parameter");
  };

  /**
   * A parameter's `style`, `explode` and `allowReserved`, as the source says them, to be
   * carried as its schema's metadata (src/contract-language/parameters.ts); what OpenAPI 3.1
   * §4.8.12.4 does not define for its location or its kind of value is reported instead,
   * and the parameter is read by its location's defaults.
   */
  const serialisationOf = (p: Json, pointer: string, location: string, schema: unknown): Json => {
    const carried: Json = {};
    const styles = (PARAMETER_STYLES as Readonly<Record<string, readonly string[]>>)[location];
    if (typeof p.style === "string") {
      const types = endpoint.writer.typesOf(schema);
      if (!styles?.includes(p.style))
        findings.lost(
          child(pointer, "style"),
          `style ${p.style}: not a style of ${location} parameters (OpenAPI 3.1 §4.8.12.4); read as ${styles?.[0] ?? "text"}`,
        );
      else if (p.style === "deepObject" && !types.has("object"))
        findings.lost(
          child(pointer, "style"),
          "style deepObject for a value that is no object (OpenAPI 3.1 §4.8.12.4): read as form",
        );
      else carried.style = p.style;
    }
    if (typeof p.explode === "boolean") carried.explode = p.explode;
    if (typeof p.allowReserved === "boolean") {
      if (location === "query") carried.allowReserved = p.allowReserved;
      else
        findings.lost(
          child(pointer, "allowReserved"),
          "allowReserved: it applies to query parameters only (OpenAPI 3.1 §4.8.12.4)",
        );
    }
    return carried;
  };

  const pageSizes = new Map<
    string,
    {
      parameter: string;
      minimum: number;
      maximum: number;
      operations: string[];
      description?: string;
    }
  >();
  const events: string[] = [];
  const eventNames = new Set<string>();
  const eventWriter = fileWriter(document, findings, identifiers, resourceKeys);

  /** One event from a webhook or callback operation. */
  const eventFrom = (name: string, op: Json, pointer: string, writer: SchemaWriter) => {
    const fields: string[] = [];
    if (typeof op.summary === "string") fields.push(`summary: ${literal(op.summary)}`);
    if (typeof op.description === "string") fields.push(`description: ${literal(op.description)}`);
    if (Array.isArray(op.tags) && op.tags.length > 0)
      fields.push(`tags: ${literal(strings(op.tags))}`);
    if (typeof op.operationId === "string" && op.operationId !== name)
      findings.changed(
        child(pointer, "operationId"),
        `operationId ${op.operationId}: the event is named ${name}`,
      );
    const body = follow(document, op.requestBody, child(pointer, "requestBody"));
    const content = isObject(body.node) && isObject(body.node.content) ? body.node.content : {};
    const json = Object.entries(content).find(([type]) => bodyKind(type) === "json");
    for (const [type] of Object.entries(content))
      if (type !== json?.[0])
        findings.lost(
          child(pointer, "requestBody", "content", type),
          `payload as ${type}: events are delivered as JSON`,
        );
    const media = isObject(json?.[1]) ? (json[1] as Json) : {};
    const mediaPointer = child(pointer, "requestBody", "content", json?.[0] ?? "application/json");
    // The service's own document wraps each payload in the Standard Webhooks envelope and
    // marks it so; any other document's body is the payload, which deliveries then wrap.
    const envelope =
      isObject(media.schema) &&
      media.schema[PLATFORM] === "standard-webhooks-envelope" &&
      isObject(media.schema.properties)
        ? media.schema.properties
        : undefined;
    const payload = envelope ? envelope.data : media.schema;
    const payloadPointer = envelope
      ? child(mediaPointer, "schema", "properties", "data")
      : child(mediaPointer, "schema");
    // A payload that already is an envelope ({ type, created_at, data }) is sent as it is:
    // wrapped again, a receiver written for the source would read data.data.
    const bare = ours
      ? op[ENVELOPE_MARKER] === "payload"
      : !envelope && isEnvelope(document, media.schema, child(mediaPointer, "schema"));
    if (bare) {
      fields.push('envelope: "payload"');
      if (!ours)
        findings.changed(
          child(mediaPointer, "schema"),
          `${name}: its payload is an envelope already (a type and its data): each delivery carries it as it is, with the Standard Webhooks headers`,
        );
    } else if (!envelope && media.schema !== undefined)
      findings.changed(
        child(mediaPointer, "schema"),
        `${name}: each delivery carries this payload as the data of the Standard Webhooks envelope (type, timestamp, data)`,
      );
    fields.push(
      `payload: ${payload === undefined ? "z.unknown()" : writer.schema(payload, payloadPointer, "json")}`,
    );
    const examples = (() => {
      const entries: string[] = [];
      if ("example" in media)
        entries.push(
          `example: ${literal({ value: envelope && isObject(media.example) ? media.example.data : media.example })}`,
        );
      if (isObject(media.examples))
        for (const [exampleName, raw] of Object.entries(media.examples)) {
          const { node } = follow(document, raw, child(mediaPointer, "examples", exampleName));
          if (!isObject(node) || !("value" in node)) continue;
          const value: Json = {};
          for (const key of ["summary", "description", "value"])
            if (key in node) value[key] = node[key];
          // The service's own examples show the whole envelope; the payload is its data.
          if (envelope && isObject(node.value) && "data" in node.value)
            value.value = node.value.data;
          entries.push(`${propertyKey(exampleName)}: ${literal(value)}`);
        }
      return entries.length > 0 ? `{ ${entries.join(", ")} }` : undefined;
    })();
    if (examples) fields.push(`examples: ${examples}`);
    if (isObject(op.responses)) {
      const responses: string[] = [];
      for (const [status, raw] of Object.entries(op.responses)) {
        const { node } = follow(document, raw, child(pointer, "responses", status));
        const key = /^[2-5]\d\d$/.test(status)
          ? status
          : /^[2-5]XX$/i.test(status)
            ? literal(status.toUpperCase())
            : status === "default"
              ? "default"
              : undefined;
        if (!key || !isObject(node)) {
          findings.lost(child(pointer, "responses", status), `response ${status}`);
          continue;
        }
        responses.push(`${key}: { description: ${literal(String(node.description ?? ""))} }`);
        if (isObject(node.content) || isObject(node.headers))
          findings.lost(
            child(pointer, "responses", status),
            "what a receiver's answer carries: only its status and description are kept",
          );
      }
      if (responses.length > 0) fields.push(`responses: { ${responses.join(", ")} }`);
    }
    // `security: []` says what the service serves anyway: no scheme of part 5 applies.
    const signatureHeaders = (list: unknown) =>
      Array.isArray(list) &&
      list.every((p) => {
        const { node } = follow(document, p, pointer);
        return (
          isObject(node) &&
          node.in === "header" &&
          ["webhook-id", "webhook-timestamp", "webhook-signature"].includes(String(node.name))
        );
      });
    for (const key of ["parameters", "security", "callbacks", "servers"])
      if (
        key in op &&
        !(key === "security" && Array.isArray(op.security) && op.security.length === 0) &&
        !(key === "parameters" && signatureHeaders(op.parameters))
      )
        findings.lost(
          child(pointer, key),
          `${key} of a webhook: deliveries carry the platform's signature headers`,
        );
    events.push(`${propertyKey(name)}: { ${fields.join(", ")} },`);
    eventNames.add(name);
  };

  const operationLines: string[] = [];
  const operationIds = new Set<string>();
  const tagsUsed = new Set<string>();
  const paths = isObject(document.paths) ? document.paths : {};
  const pathEntries = Object.entries(paths);
  let operationCount = 0;
  pathEntries.forEach(([path, rawItem], index) => {
    progress("paths", index + 1, pathEntries.length);
    const itemPointer = child("#", "paths", path);
    const { node: item } = follow(document, rawItem, itemPointer);
    if (!isObject(item)) return;
    for (const key of ["summary", "description", "servers"])
      if (key in item)
        findings.lost(child(itemPointer, key), `${key} of a path: operations carry their own`);
    for (const key of Object.keys(item))
      if (key.startsWith("x-"))
        findings.lost(child(itemPointer, key), `${key}: an extension of the path`);
    for (const method of UNSERVED_METHODS)
      if (isObject(item[method]))
        findings.lost(
          child(itemPointer, method),
          method === "trace"
            ? "a TRACE operation: not served"
            : `a ${method.toUpperCase()} operation: the platform answers ${method.toUpperCase()} itself (RFC 9110 §9.3)`,
        );
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const pointer = child(itemPointer, method);
      let id =
        typeof op.operationId === "string" && op.operationId !== ""
          ? op.operationId
          : derivedOperationId(method, path);
      if (typeof op.operationId !== "string")
        findings.changed(pointer, `no operationId: named ${id} from its method and path`);
      if (operationIds.has(id)) {
        const base = id;
        for (let n = 2; operationIds.has(id); n += 1) id = `${base}${n}`;
        findings.changed(
          child(pointer, "operationId"),
          `operationId ${base} is used twice: this one is ${id}`,
        );
      }
      operationIds.add(id);
      operationCount += 1;

      const fields: string[] = [
        `method: ${literal(method.toUpperCase())}`,
        `path: ${literal(path)}`,
      ];
      if (typeof op.summary === "string") fields.push(`summary: ${literal(op.summary)}`);
      if (typeof op.description === "string")
        fields.push(`description: ${literal(op.description)}`);
      const tags = strings(op.tags);
      if (tags.length > 0) {
        fields.push(`tags: ${literal(tags)}`);
        for (const tag of tags) tagsUsed.add(tag);
      }
      // The service's own document dates an operation's retirement (part 9).
      const retirement = op[DEPRECATION];
      if (isObject(retirement) && typeof retirement.deprecated === "string") {
        const dated = Object.fromEntries(
          ["deprecated", "sunset", "migration"]
            .filter((key) => typeof retirement[key] === "string")
            .map((key) => [key, retirement[key]]),
        );
        fields.push(`deprecated: ${literal(dated)}`);
      } else if (op.deprecated === true) fields.push("deprecated: true");
      if (isObject(op.externalDocs)) fields.push(`externalDocs: ${literal(op.externalDocs)}`);
      const security = securityOf(op, pointer, id);
      if (security !== undefined) fields.push(`security: ${security}`);
      for (const key of ["servers"])
        if (key in op)
          findings.lost(
            child(pointer, key),
            "servers of an operation: the service has one set of servers",
          );
      for (const key of Object.keys(op))
        if (key.startsWith("x-") && key !== EMITS && key !== TRANSITION && key !== DEPRECATION)
          findings.lost(child(pointer, key), `${key}: an extension of the operation`);

      // Parameters: the path item's, overridden by the operation's of the same name and place.
      const parameters = new Map<string, { node: Json; pointer: string; component?: string }>();
      const collect = (list: unknown, at: string) => {
        if (!Array.isArray(list)) return;
        list.forEach((raw, i) => {
          const here = child(at, "parameters", i);
          const followed = follow(document, raw, here);
          if (!isObject(followed.node)) return;
          const p = followed.node;
          const component =
            isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
          parameters.set(`${String(p.in)}\n${String(p.name)}`, {
            node: p,
            pointer: component ? followed.pointer : here,
            ...(component?.kind === "parameters" ? { component: component.name } : {}),
          });
        });
      };
      collect(item.parameters, itemPointer);
      collect(op.parameters, pointer);
      const byPlace: Record<string, string[]> = { path: [], query: [], header: [], cookie: [] };
      // The path template decides the path parameters (the platform checks both agree).
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
      for (const name of templated)
        if (!parameters.has(`path\n${name}`)) {
          findings.changed(pointer, `path parameter {${name}} is not declared: read as a string`);
          parameters.set(`path\n${name}`, {
            node: { name, in: "path", required: true, schema: { type: "string" } },
            pointer,
          });
        }
      for (const { node: p, pointer: at, component } of parameters.values()) {
        const location = String(p.in);
        const name = String(p.name);
        if (location === "path" && !templated.includes(name)) {
          findings.lost(at, `path parameter ${name} is not in the path ${path}`);
          continue;
        }
        if (!(location in byPlace)) {
          findings.lost(at, `a parameter in ${location}`);
          continue;
        }
        if (
          location === "header" &&
          ["accept", "content-type", "authorization"].includes(name.toLowerCase())
        ) {
          findings.changed(
            at,
            `header ${name}: OpenAPI says such a parameter is ignored (3.1 §4.8.12.1); the platform handles it`,
          );
          continue;
        }
        const key = location === "header" ? name.toLowerCase() : name;
        const code = component
          ? shared.use(`parameters/${component}`, component, "Parameter", () =>
              parameterMember(p, at),
            )
          : parameterMember(p, at);
        (byPlace[location] as string[]).push(`${propertyKey(key)}: ${code}`);
        // Part 8: a page-size bound the document makes unambiguous.
        const schema = follow(document, p.schema, child(at, "schema")).node;
        if (
          location === "query" &&
          PAGE_SIZE.test(name) &&
          isObject(schema) &&
          schema.type === "integer" &&
          Number.isSafeInteger(schema.minimum) &&
          Number.isSafeInteger(schema.maximum) &&
          (schema.minimum as number) >= 0 &&
          (schema.minimum as number) <= (schema.maximum as number) &&
          (schema.maximum as number) < Number.MAX_SAFE_INTEGER &&
          schema.multipleOf === undefined
        ) {
          const limitKey = `${name}\n${schema.minimum}\n${schema.maximum}`;
          const limit = pageSizes.get(limitKey) ?? {
            parameter: name,
            minimum: schema.minimum as number,
            maximum: schema.maximum as number,
            operations: [] as string[],
            ...(typeof p.description === "string" ? { description: p.description } : {}),
          };
          limit.operations.push(id);
          pageSizes.set(limitKey, limit);
        }
      }
      const request: string[] = [];
      const place = {
        path: "params",
        query: "query",
        header: "headers",
        cookie: "cookies",
      } as const;
      for (const [location, members] of Object.entries(byPlace))
        if (members.length > 0)
          request.push(
            `${place[location as keyof typeof place]}: z.object({ ${members.join(", ")} })`,
          );
      if (op.requestBody !== undefined) {
        const bodyPointer = child(pointer, "requestBody");
        const { node: body } = follow(document, op.requestBody, bodyPointer);
        if (isObject(body)) {
          const content = contentOf(body, bodyPointer, "request");
          if (content && content !== "{  }") {
            request.push(`body: ${content}`);
            if (typeof body.description === "string")
              request.push(`bodyDescription: ${literal(body.description)}`);
            if (body.required !== true) request.push("bodyRequired: false");
          }
        }
      }
      if (request.length > 0) fields.push(`request: { ${request.join(", ")} }`);

      const responses: string[] = [];
      const errors: string[] = [];
      const responsesPointer = child(pointer, "responses");
      for (const [status, raw] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        const at = child(responsesPointer, status);
        const followed = follow(document, raw, at);
        const response = followed.node;
        if (!isObject(response)) continue;
        const key = /^[2-5]\d\d$/.test(status)
          ? status
          : /^[2-5]XX$/i.test(status)
            ? literal(status.toUpperCase())
            : status === "default"
              ? "default"
              : undefined;
        if (!key) {
          findings.lost(at, `response ${status}: a Worker cannot answer it`);
          continue;
        }
        const types = isObject(response.content) ? Object.keys(response.content) : [];
        // An error answer without a body is an error type only where the platform has a
        // failure it could present so; a document served here marks its error types itself.
        const found = errorStatus(status) ? errorMediaOf(types) : undefined;
        const media =
          found?.kind === "none" && (ours || !(Number(status) in PRESENTS)) ? undefined : found;
        if (media) {
          errors.push(errorTypeFor(raw, response, Number(status), at, id, media));
          continue;
        }
        const component =
          isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
        const where = component?.kind === "responses" ? followed.pointer : at;
        const code = () => {
          const parts: string[] = [`description: ${literal(String(response.description ?? ""))}`];
          if (isObject(response.headers)) {
            const members: string[] = [];
            for (const [name, rawHeader] of Object.entries(response.headers)) {
              const headerAt = child(where, "headers", name);
              const { node: header } = follow(document, rawHeader, headerAt);
              if (!isObject(header)) continue;
              if (name.toLowerCase() === "content-type") {
                findings.changed(
                  headerAt,
                  "Content-Type: OpenAPI says such a header is ignored (3.1 §4.8.17.1); the platform sets it",
                );
                continue;
              }
              members.push(
                `${propertyKey(name.toLowerCase())}: ${parameterMember({ ...header, in: "header" }, headerAt)}`,
              );
            }
            if (members.length > 0) parts.push(`headers: z.object({ ${members.join(", ")} })`);
          }
          const content = contentOf(response, where, "response");
          if (content && content !== "{  }") parts.push(`content: ${content}`);
          if (isObject(response.links)) findings.lost(child(where, "links"), "links: not carried");
          return `{ ${parts.join(", ")} }`;
        };
        const value =
          component?.kind === "responses"
            ? shared.use(`responses/${component.name}`, component.name, "Response", code)
            : code();
        responses.push(`${key}: ${value}`);
      }
      fields.push(`responses: { ${responses.join(", ")} }`);
      errors.push(...strings(op[IMPORT_ERRORS]));
      if (errors.length > 0) fields.push(`errors: ${literal([...new Set(errors)])}`);
      // Which of its error types answer the platform's failures: known once every operation
      // is read (part 7, below), so a mark stands in for it until then.
      fields.push(`${PRESENTS_MARK}${id}${PRESENTS_MARK}`);
      operationPointers.set(id, pointer);
      const served = op[PRESENTS_MARKER];
      if (ours && isObject(served) && Object.keys(served).length > 0)
        operationPresents.set(id, `presents: ${literal(served)}`);

      // The service's own document names what an operation emits (x-emits).
      const emits: string[] = strings(op[EMITS]);
      if (isObject(op.callbacks))
        for (const [name, rawCallback] of Object.entries(op.callbacks)) {
          const cbPointer = child(pointer, "callbacks", name);
          const { node: callback } = follow(document, rawCallback, cbPointer);
          if (!isObject(callback)) continue;
          for (const [expression, rawItem] of Object.entries(callback)) {
            const { node: cbItem } = follow(document, rawItem, child(cbPointer, expression));
            if (!isObject(cbItem)) continue;
            for (const [cbMethod, cbOp] of Object.entries(cbItem)) {
              if (
                !isObject(cbOp) ||
                !(METHODS as readonly string[]).concat(UNSERVED_METHODS).includes(cbMethod)
              )
                continue;
              const at = child(cbPointer, expression, cbMethod);
              if (cbMethod !== "post") {
                findings.lost(
                  at,
                  `a callback by ${cbMethod.toUpperCase()}: events are delivered by POST`,
                );
                continue;
              }
              let eventName = name;
              for (let n = 2; eventNames.has(eventName); n += 1) eventName = `${name}${n}`;
              findings.changed(
                at,
                `callback ${name} of ${id}: event ${eventName}; where it is sent (${expression}) is deployment configuration`,
              );
              eventFrom(eventName, cbOp, at, eventWriter.writer);
              emits.push(eventName);
            }
          }
        }
      // A callback is sent because of this operation: its handler may emit it.
      if (emits.length > 0) fields.push(`emits: ${literal(emits)}`);
      // The service's own document names the part 3 transition an operation performs.
      const transition = op[TRANSITION];
      if (isObject(transition) && typeof transition.machine === "string")
        fields.push(
          `transition: ${literal({ machine: transition.machine, trigger: transition.trigger })}`,
        );
      operationLines.push(`${propertyKey(id)}: { ${fields.join(", ")} },`);
    }
  });

  // ---- Part 6: webhooks. ----
  const webhooks = isObject(document.webhooks) ? document.webhooks : {};
  for (const [name, rawItem] of Object.entries(webhooks)) {
    const pointer = child("#", "webhooks", name);
    const { node: item } = follow(document, rawItem, pointer);
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op)) continue;
      if (method !== "post") {
        findings.lost(
          child(pointer, method),
          `a webhook by ${method.toUpperCase()}: events are delivered by POST`,
        );
        continue;
      }
      let eventName = name;
      for (let n = 2; eventNames.has(eventName); n += 1) eventName = `${name}${n}`;
      eventFrom(eventName, op, child(pointer, method), eventWriter.writer);
    }
  }

  // ---- Part 7: error types, each presenting the platform's failures at its status. ----
  /**
   * The failures the type that presents at `status` answers for every operation: only those
   * no operation could document (a path no operation has, a method a path lacks). An
   * operation's own failures are answered as it documents them, and where it documents
   * nothing the platform's own answer stands.
   */
  const globalPresents = (status: number, _name: string): PlatformProblem[] =>
    (PRESENTS[status] ?? []).filter(
      (kind) => kind === "not-found" || kind === "method-not-allowed",
    );
  const errorsWriter = fileWriter(document, findings, identifiers, resourceKeys);
  const errorLines: string[] = [];
  const presenting = new Map<number, string>();
  for (const error of errorTypes.values()) {
    const current = presenting.get(error.status);
    const other = current ? errorTypes.get(current) : undefined;
    if (!other || error.operations.size > other.operations.size)
      presenting.set(error.status, error.name);
  }
  /** Error types that could answer the platform's failures: nothing required is left unfilled. */
  const presentable = new Set<string>();
  for (const error of errorTypes.values()) {
    const { response, pointer } = error;
    const mediaType = error.media.kind === "none" ? undefined : error.media.mediaType;
    const media = mediaType ? (response.content as Json)[mediaType] : undefined;
    const schemaRaw = isObject(media) ? media.schema : undefined;
    const xmlType = Object.keys(response.content as Json).find(
      (type) => type.toLowerCase() === PROBLEM_XML,
    );
    if (!ours && xmlType && mediaType !== xmlType)
      findings.changed(
        child(pointer, "content", xmlType),
        "application/problem+xml: served in RFC 9457 Appendix B's format when a request's Accept asks for it (once part 4 declares an XML media type); the error type's schema is the problem+json one",
      );
    // A document served here says the type's own title and description apart.
    const own = isObject(response[ERROR_TYPE]) ? (response[ERROR_TYPE] as Json) : undefined;
    const ownTitle = typeof own?.title === "string" ? own.title : undefined;
    const ownDescription = typeof own?.description === "string" ? own.description : undefined;
    const fields: string[] = [
      `status: ${error.status}`,
      `title: ${literal(ownTitle ?? (String(response.description ?? "").trim() || `Error ${error.status}`))}`,
      ...(ownDescription ? [`description: ${literal(ownDescription)}`] : []),
    ];
    const mediaPointer = child(pointer, "content", mediaType ?? PROBLEM_JSON);
    const schemaPointer = child(mediaPointer, "schema");
    // An error body of the API's own shape: where the platform's facts go in it.
    const carried =
      error.media.kind === "json" && schemaRaw !== undefined
        ? carriesOf(document, schemaRaw, schemaPointer)
        : undefined;
    if (carried && error.media.kind === "json")
      fields.push(
        `body: ${literal({ mediaType: error.media.mediaType, carries: carried.carries })}`,
      );
    let requiredMembers = 0;
    const memberLines = (object: Json, at: string, shapeOf?: string) => {
      const required = new Set(strings(object.required));
      const lines: string[] = [];
      for (const [member, sub] of Object.entries(
        isObject(object.properties) ? object.properties : {},
      )) {
        // RFC 9457's members, or in a body of its own those the platform fills, are not
        // given by a handler.
        if (
          carried
            ? carried.members.has(member)
            : STANDARD_MEMBERS.has(member) || member === "requestId"
        )
          continue;
        if (required.has(member)) requiredMembers += 1;
        lines.push(
          `${propertyKey(member)}: ${shapeOf ? `${shapeOf}.shape${/^[A-Za-z_$][\w$]*$/.test(member) ? `.${member}` : `[${literal(member)}]`}` : errorsWriter.writer.member(sub, child(at, "properties", member), required.has(member), "json")}`,
        );
      }
      return lines;
    };
    if (schemaRaw !== undefined && ours) {
      // A document served here: the spec's schema and the members, around the platform's Problem.
      const problem = ownProblemParts(document, schemaRaw);
      if (problem.schema !== undefined)
        fields.push(`schema: ${errorsWriter.writer.schema(problem.schema, schemaPointer, "json")}`);
      const members = problem.members ? memberLines(problem.members, schemaPointer) : [];
      if (members.length > 0) fields.push(`members: { ${members.join(", ")} }`);
    } else if (schemaRaw !== undefined) {
      const followed = follow(document, schemaRaw, schemaPointer);
      const problem = followed.node;
      if (isObject(problem)) {
        const typeMember = isObject(problem.properties)
          ? follow(document, problem.properties.type, schemaPointer).node
          : undefined;
        const typeUri = isObject(typeMember)
          ? "const" in typeMember
            ? typeMember.const
            : Array.isArray(typeMember.enum) && typeMember.enum.length === 1
              ? typeMember.enum[0]
              : typeMember.default
          : undefined;
        if (typeof typeUri === "string" && /^[a-z][a-z0-9+.-]*:/i.test(typeUri))
          fields.push(`type: ${literal(typeUri)}`);
        fields.push(`schema: ${errorsWriter.writer.schema(schemaRaw, schemaPointer, "json")}`);
        const component = componentOf(followed.pointer);
        const id = component?.kind === "schemas" ? identifiers.get(component.name) : undefined;
        // A component object lends its members as they are (the same schema, by reference).
        const lend =
          id !== undefined &&
          isObject(problem.properties) &&
          !("allOf" in problem) &&
          !("oneOf" in problem) &&
          !("anyOf" in problem);
        const members = memberLines(problem, followed.pointer, lend ? id : undefined);
        if (lend && members.length > 0 && component)
          errorsWriter.context.referenced.add(component.name);
        if (members.length > 0) fields.push(`members: { ${members.join(", ")} }`);
      }
    }
    if (own && typeof own.type === "string") fields.push(`type: ${literal(own.type)}`);
    for (const key of ["headers", "links"])
      if (isObject(response[key]))
        findings.lost(
          child(pointer, key),
          `${key} of a problem response: error types carry neither`,
        );
    if (isObject(media) && ("examples" in media || "example" in media))
      findings.lost(
        child(mediaPointer, "examples"),
        "examples of a problem response: error types carry none",
      );
    for (const type of Object.keys(isObject(response.content) ? response.content : {}))
      if (type !== mediaType)
        findings.changed(
          child(pointer, "content", type),
          `${type}: the error type is answered as ${mediaType}${/xml/i.test(type) ? " (an XML alternative is served as RFC 9457 Appendix B's problem+xml where negotiated)" : ""}`,
        );
    if (requiredMembers === 0) presentable.add(error.name);
    if (ours) {
      // A document served here says what each type presents.
      const presents = own && Array.isArray(own.presents) ? own.presents : [];
      if (presents.length > 0) fields.push(`presents: ${literal(presents)}`);
      errorLines.push(`${propertyKey(error.name)}: { ${fields.join(", ")} },`);
      continue;
    }
    const presents = globalPresents(error.status, error.name);
    if (presenting.get(error.status) === error.name && presents.length > 0) {
      if (requiredMembers > 0)
        findings.changed(
          pointer,
          `${error.name} requires members the platform's own failures do not have, so it does not present them`,
        );
      else {
        fields.push(`presents: ${literal(presents)}`);
        findings.changed(
          pointer,
          `${error.name} also answers the platform's own ${presents.join(" and ")} failures (its status, type and title)`,
        );
      }
    }
    errorLines.push(`${propertyKey(error.name)}: { ${fields.join(", ")} },`);
  }
  // Each operation's own error answers, where they differ from the error model's.
  const presentsOf = (id: string): string => {
    if (ours) return operationPresents.get(id) ?? "";
    const model = new Map<PlatformProblem, string>();
    for (const [status, name] of presenting)
      if (presentable.has(name))
        for (const kind of globalPresents(status, name)) model.set(kind, name);
    const declared = errorsByOperation.get(id) ?? new Map<number, string>();
    const own: Partial<Record<PlatformProblem, string>> = {};
    for (const [status, name] of declared) {
      if (!presentable.has(name)) continue;
      for (const kind of PRESENTS[status] ?? []) {
        // Validation failures are the 422 an operation declares, else its 400.
        if (kind === "validation-failed" && status === 400 && declared.has(422)) continue;
        if (model.get(kind) !== name) own[kind] = name;
      }
    }
    const kinds = Object.keys(own);
    if (kinds.length === 0) return "";
    findings.changed(
      operationPointers.get(id) ?? "#",
      `${id} answers the platform's own ${kinds.join(", ")} failures as ${[...new Set(Object.values(own))].join(", ")}, as it documents them`,
    );
    return `presents: ${literal(own)}`;
  };
  for (const [i, line] of operationLines.entries())
    operationLines[i] = line.replace(
      new RegExp(`${PRESENTS_MARK}([^${PRESENTS_MARK}]*)${PRESENTS_MARK}(, )?`, "g"),
      (_mark, id: string, comma: string | undefined) => {
        const presents = presentsOf(id);
        return presents ? `${presents}${comma ?? ""}` : "";
      },
    );
  if (errorLines.length > 0)
    parts.set("errors", {
      body: `export const errors = {\n${errorLines.join("\n")}\n} as const satisfies Readonly<Record<string, ErrorType>>;`,
      count: errorLines.length,
      summary: counted(errorLines.length, "error type"),
      uses: errorsWriter.context.uses,
      referenced: errorsWriter.context.referenced,
    });

  if (operationLines.length > 0) {
    const { consts, body } = shared.resolve(
      `export const operations = {\n${operationLines.join("\n")}\n} as const satisfies Readonly<Record<string, Operation>>;`,
    );
    parts.set("endpoints", {
      body: consts ? `${consts}\n\n${body}` : body,
      count: operationLines.length,
      summary: `${counted(operationLines.length, "operation")} on ${counted(pathEntries.length, "path")}`,
      uses: endpoint.context.uses,
      referenced: endpoint.context.referenced,
    });
  }
  if (events.length > 0)
    parts.set("events", {
      body: `export const events = {\n${events.join("\n")}\n} as const satisfies Readonly<Record<string, EventDeclaration>>;`,
      count: events.length,
      summary: counted(events.length, "event"),
      uses: eventWriter.context.uses,
      referenced: eventWriter.context.referenced,
    });

  // ---- Part 8: page sizes. ----
  if (pageSizes.size > 0) {
    const names = new Set<string>();
    const lines = [...pageSizes.values()].map((limit) => {
      let name = `${limit.parameter}-${limit.minimum}-${limit.maximum}`;
      if (![...pageSizes.values()].some((l) => l !== limit && l.parameter === limit.parameter))
        name = limit.parameter;
      names.add(name);
      return `${propertyKey(name)}: ${literal({ kind: "page-size", operations: limit.operations, parameter: limit.parameter, minimum: limit.minimum, maximum: limit.maximum, ...(limit.description ? { description: limit.description } : {}) })},`;
    });
    parts.set("limits", {
      body: `export const limits = {\n${lines.join("\n")}\n} as const satisfies Readonly<Record<string, Limit>>;`,
      count: lines.length,
      summary: counted(lines.length, "page-size limit"),
      uses: new Set(),
      referenced: new Set(),
    });
  }

  // ---- Part 1: what the service does. ----
  const info = isObject(document.info) ? document.info : {};
  const purpose: Json = { title };
  for (const key of ["summary", "description", "termsOfService"])
    if (typeof info[key] === "string") purpose[key] = info[key];
  if (isObject(info.contact))
    purpose.contact = pick(
      info.contact,
      ["name", "url", "email"],
      child("#/info", "contact"),
      findings,
    );
  if (isObject(info.license))
    purpose.license = pick(
      info.license,
      ["name", "identifier", "url"],
      child("#/info", "license"),
      findings,
    );
  for (const key of Object.keys(info))
    if (key.startsWith("x-")) findings.lost(child("#/info", key), `${key}: an extension of info`);
  if (isObject(document.externalDocs))
    purpose.externalDocs = pick(
      document.externalDocs,
      ["url", "description"],
      "#/externalDocs",
      findings,
    );
  const tags: Json = {};
  (Array.isArray(document.tags) ? document.tags : []).forEach((tag, i) => {
    if (!isObject(tag) || typeof tag.name !== "string") return;
    const declared: Json = {};
    if (typeof tag.description === "string") declared.description = tag.description;
    if (isObject(tag.externalDocs))
      declared.externalDocs = pick(
        tag.externalDocs,
        ["url", "description"],
        child("#/tags", i, "externalDocs"),
        findings,
      );
    for (const key of Object.keys(tag))
      if (key.startsWith("x-"))
        findings.lost(child("#/tags", i, key), `${key}: an extension of a tag`);
    tags[tag.name] = declared;
  });
  for (const tag of tagsUsed) tags[tag] ??= {};
  if (Object.keys(tags).length > 0) purpose.tags = tags;
  if (Array.isArray(document.servers) && document.servers.length > 0)
    purpose.servers = document.servers
      .filter(isObject)
      .map((server, i) =>
        pick(server, ["url", "description", "variables"], child("#/servers", i), findings),
      );
  parts.set("purpose", {
    body: `export const purpose = ${literal(purpose)} as const satisfies Purpose;`,
    count: 1,
    summary: `"${title}"${purpose.tags ? `, ${counted(Object.keys(tags).length, "tag")}` : ""}${purpose.servers ? `, ${counted((purpose.servers as unknown[]).length, "server")}` : ""}`,
    uses: new Set(),
    referenced: new Set(),
  });

  // ---- Part 9: the document's version. ----
  if (typeof info.version === "string" && info.version !== "" && !unspecified.has(9))
    parts.set("versioning", {
      body: `export const versioning = ${literal({ current: info.version })} as const satisfies Versioning;`,
      count: 1,
      summary: `version ${info.version}`,
      uses: new Set(),
      referenced: new Set(),
    });

  for (const kind of Object.keys(components))
    if (
      ![
        "schemas",
        "responses",
        "parameters",
        "examples",
        "requestBodies",
        "headers",
        "securitySchemes",
        "callbacks",
        "pathItems",
      ].includes(kind)
    )
      findings.lost(child("#/components", kind), `components.${kind}: not carried`);
  if (isObject(components.links)) findings.lost("#/components/links", "links: not carried");
  return {
    parts,
    findings: findings.list,
    identifiers,
    resourceKeys,
    operations: operationCount,
    operationIds: [...operationIds],
    jwt: jwtSchemes.size > 0,
    xml: usesXml,
  };
}

/** An encoding that only restates OpenAPI's default for form fields (style form, explode true). */
function defaultEncoding(encoding: Json): boolean {
  return Object.values(encoding).every(
    (e) =>
      isObject(e) &&
      Object.keys(e).every((k) => k === "style" || k === "explode") &&
      (e.style === undefined || e.style === "form") &&
      (e.explode === undefined || e.explode === true),
  );
}

/** The listed fields of an object; any other is a finding. */
function pick(value: Json, keys: readonly string[], pointer: string, findings: Findings): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (keys.includes(key)) out[key] = v;
    else findings.lost(child(pointer, key), `${key}: not carried`);
  }
  return out;
}

/** Component schemas in an order where each comes after the components it uses (cycles aside). */
function dependencyOrder(schemas: Json): string[] {
  const uses = (value: unknown, found: Set<string>) => {
    if (Array.isArray(value)) for (const item of value) uses(item, found);
    else if (isObject(value))
      for (const [key, child] of Object.entries(value)) {
        if (key === "$ref" && typeof child === "string") {
          const match = /^#\/components\/schemas\/([^/]+)/.exec(child);
          if (match?.[1]) found.add(match[1].replace(/~1/g, "/").replace(/~0/g, "~"));
        } else if (!["example", "examples", "default", "const", "enum"].includes(key))
          uses(child, found);
      }
    return found;
  };
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string) => {
    if (state.has(name) || !(name in schemas)) return;
    state.set(name, "visiting");
    for (const used of uses(schemas[name], new Set())) visit(used);
    state.set(name, "done");
    order.push(name);
  };
  for (const name of Object.keys(schemas)) visit(name);
  return order;
}
