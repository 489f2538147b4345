/**
 * A request the served document says is valid for one operation, built from the document
 * alone: each required parameter and the body from the document's own examples where it
 * gives one, otherwise a value generated from the schema (src/mocks/examples), serialised
 * as the parameter's `style` and `explode` say (OpenAPI 3.1 §4.8.12.4), with a credential
 * of one of the operation's security requirements. What cannot be built is a reason, so
 * the operation is listed as not probed, never counted as passed.
 */
import { routedPath } from "../../../src/contract-language/path-key";
import { generateValue } from "../../../src/mocks/examples/generate";

type Json = Record<string, unknown>;

/** How a request presents a credential of one security scheme. */
export interface Presented {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** A credential made per request (a request signature): the request, signed. */
  readonly sign?: (request: Request) => Promise<Request>;
}

export interface BuiltRequest {
  /** The path with its query string. */
  readonly path: string;
  readonly headers: Record<string, string>;
  /** A multipart body is FormData (the runtime writes its boundary), bytes as bytes. */
  readonly body?: string | FormData | Uint8Array<ArrayBuffer>;
  /** The media type of the body, as declared. */
  readonly mediaType?: string;
  /** Signs the request, where its credential is a signature made per request. */
  readonly sign?: (request: Request) => Promise<Request>;
}

export type Built =
  | { readonly ok: true; readonly request: BuiltRequest }
  | { readonly ok: false; readonly reason: string };

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The value at a local `$ref`, followed until it is not one. */
function deref(document: Json, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 16; hops++) {
    const pointer = current.$ref;
    if (!pointer.startsWith("#/")) return current;
    let target: unknown = document;
    for (const raw of pointer.slice(2).split("/")) {
      const token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isObject(target) ? target[token] : undefined;
    }
    current = target;
  }
  return current;
}

/** A parameter's or a body's own example, if it gives one: `example`, then the first `examples`. */
function givenExample(node: Json): { value: unknown } | undefined {
  if ("example" in node) return { value: node.example };
  if (isObject(node.examples)) {
    const first = Object.values(node.examples)[0];
    if (isObject(first) && "value" in first) return { value: first.value };
  }
  return undefined;
}

/** A value for `schema`: generated, valid for it (an example may not be). */
function valueFor(
  document: Json,
  schema: unknown,
  seed: string,
  example: { value: unknown } | undefined,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  const candidate =
    example === undefined
      ? (schema as Json)
      : // The example first, if the schema accepts it: examples says what a real client sends.
        { ...(schema as Json), examples: [example.value] };
  const made = generateValue(candidate as Json, { root: document, seed, direction: "request" });
  return made.ok ? made : { ok: false, reason: made.reason };
}

const isList = (node: unknown): node is Json =>
  isObject(node) &&
  (node.type === "array" || (Array.isArray(node.type) && node.type.includes("array")));

/**
 * `schema`, with at least one item where it is a list: a query, header, cookie or form
 * (WHATWG URL §5, application/x-www-form-urlencoded) writes a list as one field per item,
 * so an empty list is the field's absence, which a required field may not be.
 */
function someItems(document: Json, schema: unknown): unknown {
  const node = deref(document, schema);
  return isList(node) ? { ...node, minItems: Math.max(1, Number(node.minItems ?? 0)) } : schema;
}

/** A form body's schema, each required list field with at least one item (`someItems`). */
function formSchema(document: Json, schema: unknown): unknown {
  const node = deref(document, schema);
  if (!isObject(node) || !isObject(node.properties) || !Array.isArray(node.required)) return schema;
  const properties = { ...node.properties };
  for (const name of node.required)
    if (typeof name === "string" && name in properties)
      properties[name] = someItems(document, properties[name]);
  return { ...node, properties };
}

const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * A parameter's value in `style` (OpenAPI 3.1 §4.8.12.4.1), as the pieces of the query (each
 * `name=value`, encoded) or as one string for a path, header or cookie.
 */
function serialise(
  name: string,
  location: string,
  value: unknown,
  style: string,
  explode: boolean,
): string | string[] {
  const enc = encodeURIComponent;
  if (location === "query") {
    if (Array.isArray(value)) {
      if (style === "spaceDelimited")
        return [`${enc(name)}=${value.map((v) => enc(text(v))).join("%20")}`];
      if (style === "pipeDelimited")
        return [`${enc(name)}=${value.map((v) => enc(text(v))).join("|")}`];
      return explode
        ? value.map((v) => `${enc(name)}=${enc(text(v))}`)
        : [`${enc(name)}=${value.map((v) => enc(text(v))).join(",")}`];
    }
    if (isObject(value)) {
      if (style === "deepObject")
        return Object.entries(value).map(([k, v]) => `${enc(name)}%5B${enc(k)}%5D=${enc(text(v))}`);
      // Keys and values alternate, as for an array (OpenAPI 3.1.2's Style Examples).
      const pairs = Object.entries(value).flatMap(([k, v]) => [enc(k), enc(text(v))]);
      if (style === "spaceDelimited") return [`${enc(name)}=${pairs.join("%20")}`];
      if (style === "pipeDelimited") return [`${enc(name)}=${pairs.join("|")}`];
      return explode
        ? Object.entries(value).map(([k, v]) => `${enc(k)}=${enc(text(v))}`)
        : [
            `${enc(name)}=${Object.entries(value)
              .flatMap(([k, v]) => [enc(k), enc(text(v))])
              .join(",")}`,
          ];
    }
    return [`${enc(name)}=${enc(text(value))}`];
  }
  const piece = location === "path" ? (v: unknown) => enc(text(v)) : (v: unknown) => text(v);
  const items = Array.isArray(value)
    ? value.map(piece)
    : isObject(value)
      ? Object.entries(value).flatMap(([k, v]) => (explode ? [`${k}=${piece(v)}`] : [k, piece(v)]))
      : [piece(value)];
  if (style === "label") return `.${items.join(explode ? "." : ",")}`;
  if (style === "matrix") {
    if (explode && Array.isArray(value)) return items.map((item) => `;${name}=${item}`).join("");
    // An exploded object's pairs are named by their keys: ;R=100;G=200;B=150.
    if (explode && isObject(value)) return items.map((item) => `;${item}`).join("");
    return `;${name}=${items.join(",")}`;
  }
  return items.join(",");
}

/** The parameters of the operation and of its path item (the operation's win, §4.8.10.1). */
function parametersOf(document: Json, pathItem: Json, operation: Json): Json[] {
  const byKey = new Map<string, Json>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = deref(document, raw);
      if (isObject(parameter) && typeof parameter.name === "string")
        byKey.set(`${String(parameter.in)}:${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()];
}

/** A credential for the first requirement whose every scheme has one; undefined: none needed. */
function credentialFor(
  document: Json,
  operation: Json,
  credentials: Readonly<Record<string, Presented>>,
): Presented | string | undefined {
  const requirements = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.security)
      ? document.security
      : [];
  if (requirements.length === 0) return undefined;
  const wanted: string[] = [];
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    const names = Object.keys(requirement);
    if (names.length === 0) return undefined;
    if (names.every((name) => credentials[name])) {
      const headers: Record<string, string> = {};
      const query: Record<string, string> = {};
      const signers: ((request: Request) => Promise<Request>)[] = [];
      for (const name of names) {
        Object.assign(headers, credentials[name]?.headers);
        Object.assign(query, credentials[name]?.query);
        const sign = credentials[name]?.sign;
        if (sign) signers.push(sign);
      }
      if (signers.length === 0) return { headers, query };
      const sign = async (request: Request) => {
        let signed = request;
        for (const signer of signers) signed = await signer(signed);
        return signed;
      };
      return { headers, query, sign };
    }
    wanted.push(names.join(" and "));
  }
  return `it needs a credential of ${wanted.join(", or ")}, and the checker was given none (--credential <scheme>=<value>)`;
}

/** Whether the credential is presented in the parameter `name` in `location`. */
function carries(credential: Presented | undefined, location: string, name: string): boolean {
  if (!credential) return false;
  if (location === "query") return name in credential.query;
  const header = (wanted: string) =>
    Object.entries(credential.headers).find(([key]) => key.toLowerCase() === wanted)?.[1];
  if (location === "header") return header(name.toLowerCase()) !== undefined;
  if (location === "cookie")
    return (header("cookie") ?? "").split(";").some((pair) => pair.trim().startsWith(`${name}=`));
  return false;
}

/** Bytes any binary body schema without bounds takes: the PNG signature, then text. */
const SOME_BYTES = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x63, 0x6e, 0x66,
]);

/** A type within each range the checker sends bytes for (`SOME_BYTES` begin as a PNG's). */
const WITHIN_RANGE: Readonly<Record<string, string>> = {
  "*/*": "application/octet-stream",
  "application/*": "application/octet-stream",
  "image/*": "image/png",
};

/** What a body of `mediaType` is written as, from a value its schema accepts. */
type BodyWriter = (
  value: unknown,
  schema: Json,
) => string | FormData | Uint8Array<ArrayBuffer> | undefined;

const WRITERS: readonly [RegExp, BodyWriter][] = [
  [/^application\/(?:[\w.+-]+\+)?json\b/i, (value) => JSON.stringify(value)],
  [/^text\/plain\b/i, (value) => text(value)],
  [
    /^application\/x-www-form-urlencoded\b/i,
    (value) => {
      if (!isObject(value)) return undefined;
      const form = new URLSearchParams();
      for (const [name, field] of Object.entries(value))
        for (const item of Array.isArray(field) ? field : [field]) form.append(name, text(item));
      return form.toString();
    },
  ],
  [
    /^multipart\/form-data\b/i,
    (value, schema) => {
      if (!isObject(value)) return undefined;
      const form = new FormData();
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [name, field] of Object.entries(value)) {
        const declared = isObject(properties[name]) ? (properties[name] as Json) : {};
        const binary = declared.format === "binary" || "contentMediaType" in declared;
        for (const item of Array.isArray(field) ? field : [field])
          form.append(name, binary ? new Blob([SOME_BYTES]) : text(item));
      }
      return form;
    },
  ],
];

/** The body: the first media type the checker can write, with its example or a generated value. */
function bodyFor(
  document: Json,
  operation: Json,
  seed: string,
):
  | { ok: true; body?: string | FormData | Uint8Array<ArrayBuffer>; mediaType?: string }
  | { ok: false; reason: string } {
  const requestBody = deref(document, operation.requestBody);
  if (!isObject(requestBody) || !isObject(requestBody.content)) return { ok: true };
  if (requestBody.required !== true) return { ok: true };
  const types = Object.keys(requestBody.content);
  const writer = (type: string) => WRITERS.find(([pattern]) => pattern.test(type))?.[1];
  const mediaType =
    types.find((t) => /json/i.test(t) && writer(t)) ??
    types.find(writer) ??
    // Bytes of any other concrete type (an upload): a range such as image/* names none.
    types.find((t) => !t.includes("*") && !/xml/i.test(t));
  if (!mediaType) {
    // A range only (Kubernetes' `*/*`): bytes, sent as a type within it (RFC 9110 §12.5.1).
    const range = types.find((t) => Object.hasOwn(WITHIN_RANGE, t.toLowerCase()));
    if (range) return { ok: true, body: SOME_BYTES, mediaType: WITHIN_RANGE[range.toLowerCase()] };
    return {
      ok: false,
      reason: `its body is ${types.join(" or ")}, which the checker does not write`,
    };
  }
  const media = deref(document, requestBody.content[mediaType]);
  const declared = isObject(media) ? media : {};
  const write = writer(mediaType);
  if (!write) return { ok: true, body: SOME_BYTES, mediaType };
  const schema = deref(document, declared.schema ?? {});
  const form = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(mediaType);
  const made = valueFor(
    document,
    form ? formSchema(document, declared.schema ?? {}) : (declared.schema ?? {}),
    `${seed} body`,
    givenExample(declared),
  );
  if (!made.ok) return { ok: false, reason: `no valid body could be made: ${made.reason}` };
  const body = write(made.value, isObject(schema) ? schema : {});
  if (body === undefined) return { ok: false, reason: `its ${mediaType} body is not an object` };
  // multipart/form-data's Content-Type carries the boundary only the runtime knows.
  return { ok: true, body, mediaType };
}

/** A valid request for the operation at `template` and `method` of `document`. */
export function validRequest(
  document: Json,
  template: string,
  method: string,
  credentials: Readonly<Record<string, Presented>>,
): Built {
  const pathItem = deref(document, (document.paths as Json | undefined)?.[template]);
  const operation = isObject(pathItem) ? pathItem[method.toLowerCase()] : undefined;
  if (!isObject(pathItem) || !isObject(operation))
    return { ok: false, reason: `the document has no ${method} ${template}` };
  const seed = `${method} ${template}`;
  const credential = credentialFor(document, operation, credentials);
  if (typeof credential === "string") return { ok: false, reason: credential };
  // A key's query and fragment are not routed: its fixed values are required parameters.
  let path = routedPath(template);
  const query: string[] = [];
  const headers: Record<string, string> = { ...credential?.headers };
  const cookies: string[] = [];
  for (const parameter of parametersOf(document, pathItem, operation)) {
    const name = parameter.name as string;
    const location = String(parameter.in);
    if (location !== "path" && parameter.required !== true) continue;
    // A parameter that is also where the credential goes (an API key a document declares
    // as a required `key` parameter too) takes the credential's value, never a second one.
    if (carries(credential, location, name)) continue;
    // A parameter given by `content` instead of `schema` carries its media type's schema.
    const content = isObject(parameter.content) ? Object.values(parameter.content)[0] : undefined;
    const schema = parameter.schema ?? (isObject(content) ? content.schema : undefined) ?? {};
    const made = valueFor(
      document,
      content === undefined ? someItems(document, schema) : schema,
      `${seed} ${location} ${name}`,
      givenExample(parameter),
    );
    if (!made.ok)
      return { ok: false, reason: `no valid ${location} parameter ${name}: ${made.reason}` };
    const style =
      typeof parameter.style === "string"
        ? parameter.style
        : location === "query" || location === "cookie"
          ? "form"
          : "simple";
    const explode = typeof parameter.explode === "boolean" ? parameter.explode : style === "form";
    if (content !== undefined) {
      const value = encodeURIComponent(JSON.stringify(made.value));
      if (location === "query") query.push(`${encodeURIComponent(name)}=${value}`);
      else if (location === "path") path = path.replace(`{${name}}`, value);
      else if (location === "header") headers[name] = JSON.stringify(made.value);
      else cookies.push(`${name}=${value}`);
      continue;
    }
    const written = serialise(name, location, made.value, style, explode);
    // An empty segment (an object whose members a request leaves out, as Jellyfin's
    // `{version}` is) matches no `{name}` of a path template.
    if (location === "path" && written === "")
      return { ok: false, reason: `its path parameter ${name} is written as an empty segment` };
    if (location === "query") query.push(...(written as string[]));
    else if (location === "path") path = path.replace(`{${name}}`, written as string);
    else if (location === "header") headers[name] = written as string;
    else if (location === "cookie")
      cookies.push(`${name}=${encodeURIComponent(written as string)}`);
  }
  for (const [name, value] of Object.entries(credential?.query ?? {}))
    query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join("; ");
  const body = bodyFor(document, operation, seed);
  if (!body.ok) return body;
  if (body.mediaType && !(body.body instanceof FormData)) headers["content-type"] = body.mediaType;
  return {
    ok: true,
    request: {
      path: `${path}${query.length > 0 ? `?${query.join("&")}` : ""}`,
      headers,
      ...(body.body === undefined ? {} : { body: body.body }),
      ...(body.mediaType === undefined ? {} : { mediaType: body.mediaType }),
      ...(credential?.sign ? { sign: credential.sign } : {}),
    },
  };
}
