/**
 * One call as a `Request`: the operation's path with its parameters, its query, headers and
 * cookies as their styles serialise them (serialise.ts), its body in the media type chosen,
 * the credentials part 5 asks for (the first requirement the client has every credential
 * of), the version part 9 negotiates, and an `Accept` of the media types the operation
 * answers in. Reads the contract as plain data: nothing of the server is loaded.
 */
import {
  type Contract,
  type MediaDeclaration,
  type Operation,
  type SchemaDeclaration,
  type SecurityScheme,
  schemaOf,
  verifiedField,
} from "../contract-language/contract";
import { resolveSchema } from "../contract-language/lazy";
import { fixedQuery, routedPath } from "../contract-language/path-key";
import { cookiePair, headerText, membersOf, pathText, queryPieces } from "./serialise";

/** A credential: its value, or a function that gives it on each call (a token that is refreshed). */
export type CredentialValue = string | (() => string | Promise<string>);

/** Credentials by part 5's scheme name; a basic scheme's as `user-id:password` (RFC 7617 §2). */
export type Credentials<C extends Contract> = {
  readonly [S in keyof C["securitySchemes"]]?: CredentialValue;
};

/** The arguments of one call, as the runtime sees them (their types are the caller's). */
export interface CallArguments {
  readonly params?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly cookies?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly contentType?: string;
}

interface RequestSettings {
  readonly baseUrl: string;
  readonly credentials: Readonly<Record<string, CredentialValue | undefined>>;
  readonly version: string | undefined;
  readonly accept: string | undefined;
  readonly signal: AbortSignal | undefined;
}

const PROBLEM = "application/problem+json";

/** The URL of a call: the base URL, the version's segment (part 9, `path`), the path with its parameters. */
function urlOf(contract: Contract, op: Operation, args: CallArguments, settings: RequestSettings) {
  const members = membersOf(resolveSchema(op.request?.params));
  const path = routedPath(op.path).replace(/\{([^}]+)\}/g, (_, name: string) =>
    pathText(name, members[name], args.params?.[name]),
  );
  const placement = contract.versioning?.placement;
  const prefix =
    placement?.in === "path" && settings.version !== undefined
      ? `/${encodeURIComponent(settings.version)}`
      : "";
  const url = new URL(`${settings.baseUrl.replace(/\/+$/, "")}${prefix}${path}`);
  const pieces: string[] = [];
  const query = membersOf(resolveSchema(op.request?.query));
  // The values that say which operation of its path this is, unless the call gives them.
  for (const [name, value] of Object.entries(fixedQuery(op)))
    if (args.query?.[name] === undefined)
      pieces.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  for (const [name, value] of Object.entries(args.query ?? {}))
    if (value !== undefined && value !== null)
      pieces.push(...queryPieces(name, query[name], value));
  if (placement?.in === "query" && settings.version !== undefined)
    pieces.push(`${encodeURIComponent(placement.name)}=${encodeURIComponent(settings.version)}`);
  url.search = pieces.join("&");
  return url;
}

/** The media types the operation answers in, each once, and RFC 9457's for its problems. */
function acceptOf(contract: Contract, op: Operation, settings: RequestSettings): string {
  const types = new Set<string>();
  if (settings.accept !== undefined) types.add(settings.accept);
  else
    for (const response of Object.values(op.responses))
      for (const type of Object.keys(response?.content ?? {})) types.add(type);
  types.add(PROBLEM);
  const placement = contract.versioning?.placement;
  // Part 9, `media-type`: the version is a parameter of each range asked for.
  const parameter =
    placement?.in === "media-type" && settings.version !== undefined
      ? `; ${placement.parameter}=${settings.version}`
      : "";
  return [...types].map((type) => `${type}${parameter}`).join(", ");
}

/** The body and its `Content-Type`, written as the media type chosen says. */
function bodyOf(
  op: Operation,
  args: CallArguments,
): { body: BodyInit | undefined; type: string | undefined } {
  const declared = op.request?.body;
  if (args.body === undefined || declared === undefined)
    return { body: undefined, type: undefined };
  const type = args.contentType ?? Object.keys(declared)[0] ?? "application/json";
  const essence = (type.split(";")[0] ?? "").trim().toLowerCase();
  const value = args.body;
  if (essence === "application/json" || essence.endsWith("+json"))
    return { body: JSON.stringify(value), type };
  if (essence === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams();
    for (const [name, item] of fields(value)) form.append(name, String(item));
    return { body: form, type };
  }
  if (essence === "multipart/form-data") {
    if (value instanceof FormData) return { body: value, type: undefined };
    const form = new FormData();
    for (const [name, item] of fields(value))
      form.append(name, item instanceof Blob ? item : String(item));
    // fetch writes the Content-Type, with the boundary it chose (RFC 7578 §4.1).
    return { body: form, type: undefined };
  }
  return { body: value as BodyInit, type };
}

/** An object's fields as name, value pairs; a list is one pair per item (a repeated name). */
function fields(value: unknown): [string, unknown][] {
  return Object.entries((value ?? {}) as Record<string, unknown>).flatMap(([name, item]) =>
    item === undefined
      ? []
      : Array.isArray(item)
        ? item.map((i): [string, unknown] => [name, i])
        : [[name, item] as [string, unknown]],
  );
}

/** RFC 7617 §2: `Basic`, then base64 of the UTF-8 bytes of `user-id:password`. */
function basic(credentials: string): string {
  const bytes = new TextEncoder().encode(credentials);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** Where each credential goes, as its scheme says (RFC 6750 §2.1, RFC 7617, OpenAPI's apiKey). */
function place(
  scheme: SecurityScheme,
  value: string,
  headers: Headers,
  url: URL,
  cookies: string[],
): void {
  if (scheme.type === "verified") {
    // A signature or a scheme of the API's own: the caller makes the value, sent as it is
    // where the scheme reads it (a client certificate travels in TLS, not here).
    const field = verifiedField(scheme);
    if (field?.in === "header") headers.set(field.name, value);
    else if (field?.in === "query") url.searchParams.append(field.name, value);
    else if (field) cookies.push(`${field.name}=${value}`);
  } else if (scheme.type === "apiKey") {
    if (scheme.in === "header") headers.set(scheme.name, value);
    else if (scheme.in === "query") url.searchParams.append(scheme.name, value);
    else cookies.push(`${scheme.name}=${value}`);
  } else if (scheme.type === "http" && scheme.scheme === "basic") {
    headers.set("authorization", basic(value));
  } else headers.set("authorization", `Bearer ${value}`);
}

/** The first of the operation's requirements the client holds every credential of (any suffices). */
async function authenticate(
  contract: Contract,
  op: Operation,
  settings: RequestSettings,
  headers: Headers,
  url: URL,
  cookies: string[],
): Promise<void> {
  const requirement = (op.security ?? []).find((r) =>
    Object.keys(r).every((name) => settings.credentials[name] !== undefined),
  );
  for (const name of Object.keys(requirement ?? {})) {
    const scheme = contract.securitySchemes[name];
    const given = settings.credentials[name];
    if (scheme === undefined || given === undefined) continue;
    place(scheme, typeof given === "function" ? await given() : given, headers, url, cookies);
  }
}

/** The `Request` of one call of `op`. */
export async function requestOf(
  contract: Contract,
  op: Operation,
  args: CallArguments,
  settings: RequestSettings,
): Promise<Request> {
  const url = urlOf(contract, op, args, settings);
  const headers = new Headers({ accept: acceptOf(contract, op, settings) });
  const declaredHeaders = membersOf(resolveSchema(op.request?.headers));
  for (const [name, value] of Object.entries(args.headers ?? {}))
    if (value !== undefined && value !== null)
      headers.set(name, headerText(declaredHeaders[name], value));
  const placement = contract.versioning?.placement;
  if (placement?.in === "header" && settings.version !== undefined)
    headers.set(placement.name, settings.version);
  const declaredCookies = membersOf(resolveSchema(op.request?.cookies));
  const cookies = Object.entries(args.cookies ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => cookiePair(name, declaredCookies[name], value));
  await authenticate(contract, op, settings, headers, url, cookies);
  // RFC 6265 §5.4: one Cookie field, pairs separated by "; ".
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
  const { body, type } = bodyOf(op, args);
  if (type !== undefined) headers.set("content-type", type);
  return new Request(url, {
    method: op.method,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(settings.signal ? { signal: settings.signal } : {}),
  });
}

/**
 * The schema of one media type of a body, whichever way it was declared (a schema, a
 * function that builds it, `{ schema }`): read as the server reads it (`schemaOf`, through
 * `resolveSchema`), so a schema declared as a function is built once, on first use.
 */
export function mediaSchema(declared: unknown): unknown {
  return declared === undefined
    ? undefined
    : schemaOf(declared as SchemaDeclaration | MediaDeclaration);
}
