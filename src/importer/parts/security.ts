/**
 * Part 5: `components.securitySchemes` → security schemes, each with the names of the
 * secrets or vars a deployment sets, and each operation's `security` → its requirements.
 * A way in the platform cannot verify is not offered; an operation left with none is left
 * out of the import (with a finding) rather than be served open.
 */
import { isUrlReference } from "../../contract-language/urls";
import { causeOf, LeaveOut } from "../leave-out";
import { screamingSnake } from "../names";
import { literal, propertyKey } from "../schema-code";
import { absoluteUrl } from "../server-base";
import { child, follow, isObject, type Json } from "../source";
import {
  counted,
  extensionsLost,
  type ImportContext,
  type PartCode,
  plainPart,
  strings,
} from "./context";

/** What part 5 declares, for part 4's requirements and the entry. */
export interface Security {
  /** The schemes of the document. */
  readonly schemes: Json;
  /** The schemes part 5 declares (those the platform can verify). */
  readonly supported: ReadonlySet<string>;
  /** Those verified as JWTs (their requirements may name scopes). */
  readonly jwt: ReadonlySet<string>;
  readonly part: PartCode | undefined;
}

/** A request field by place and name, as credentials are matched (header names in any case). */
export const fieldKey = (location: string, name: string) =>
  `${location}\n${location === "header" ? name.toLowerCase() : name}`;

/** Hands out Worker secret and var names, unique within the contract. */
function secretNames(): (base: string) => string {
  const names = new Set<string>();
  return (base) => {
    let name = base;
    for (let n = 2; names.has(name); n += 1) name = `${base}_${n}`;
    names.add(name);
    return name;
  };
}

/** Part 5's file and what it declares; `title` is the realm of basic schemes. */
export function securityPart(ctx: ImportContext, title: string): Security {
  const { components } = ctx;
  const supported = new Set<string>();
  const jwt = new Set<string>();
  const lines: string[] = [];
  const secretName = secretNames();
  const keys: SchemeNames["keys"] = new Map();
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const named = namedSchemes(ctx.document);
  for (const [name, raw] of Object.entries(schemes)) {
    const pointer = child("#", "components", "securitySchemes", name);
    // A way in no operation offers guards nothing: declared, it would only ask the
    // deployment for secrets that nothing reads.
    if (!named.has(name)) {
      ctx.findings.lost(
        pointer,
        `security scheme ${name}: no security requirement names it, so it is not declared and asks the deployment for no secret`,
      );
      continue;
    }
    const read = schemeRead(ctx, name, raw, pointer, { title, secretName, jwt, keys });
    if (!read) continue;
    const { node, declared } = read;
    if (!declared) {
      const scheme = typeof node.scheme === "string" ? node.scheme.toLowerCase() : undefined;
      ctx.findings.lost(
        pointer,
        `security scheme ${name} (${String(node.type)}${scheme ? ` ${scheme}` : ""}): the platform cannot verify it${awsSignature(node) ? `; it is an AWS request signature (x-amazon-apigateway-authtype ${String(node["x-amazon-apigateway-authtype"])}), made anew for each request` : ""}`,
      );
      continue;
    }
    extensionsLost(ctx, node, pointer, "the scheme");
    supported.add(name);
    lines.push(`${propertyKey(name)}: ${literal(declared)},`);
  }
  const part =
    supported.size > 0
      ? plainPart(
          `export const securitySchemes = {\n${lines.join("\n")}\n} as const satisfies Readonly<Record<string, SecurityScheme>>;`,
          supported.size,
          `${counted(supported.size, "security scheme")} (${[...supported].join(", ")})`,
        )
      : undefined;
  return { schemes, supported, jwt, part };
}

/** The schemes some security requirement names: the document's own, or an operation's. */
function namedSchemes(document: Json): Set<string> {
  const named = new Set<string>();
  const read = (security: unknown) => {
    if (Array.isArray(security))
      for (const requirement of security)
        if (isObject(requirement)) for (const name of Object.keys(requirement)) named.add(name);
  };
  read(document.security);
  for (const item of Object.values(isObject(document.paths) ? document.paths : {}))
    if (isObject(item))
      for (const operation of Object.values(item))
        if (isObject(operation)) read(operation.security);
  return named;
}

interface SchemeNames {
  readonly title: string;
  readonly secretName: (base: string) => string;
  /** Schemes verified as JWTs, added to as they are declared. */
  readonly jwt: Set<string>;
  /** The first API key read from each field (place and name), and the secret it is compared with. */
  readonly keys: Map<string, { readonly scheme: string; readonly secret: string }>;
}

/**
 * A scheme (its `$ref` followed) and its declaration; undefined, with a finding, when it
 * cannot be read: it is then not offered, like a way in the platform cannot verify.
 */
function schemeRead(
  ctx: ImportContext,
  name: string,
  raw: unknown,
  pointer: string,
  names: SchemeNames,
): { node: Json; declared: Json | undefined } | undefined {
  try {
    const { node } = follow(ctx.document, raw, pointer);
    if (!isObject(node)) return undefined;
    return { node, declared: declaredScheme(ctx, name, node, pointer, names) };
  } catch (error) {
    names.jwt.delete(name);
    ctx.findings.lost(pointer, `security scheme ${name} could not be read (${causeOf(error)})`);
    return undefined;
  }
}

/** One scheme as part 5 declares it; undefined for a way in the platform cannot verify. */
function declaredScheme(
  ctx: ImportContext,
  name: string,
  node: Json,
  pointer: string,
  names: SchemeNames,
): Json | undefined {
  const snake = screamingSnake(name);
  const { secretName } = names;
  const description = typeof node.description === "string" ? { description: node.description } : {};
  const scheme = typeof node.scheme === "string" ? node.scheme.toLowerCase() : undefined;
  const jwt = () => {
    names.jwt.add(name);
    return {
      jwt: {
        jwksUrl: secretName(`${snake}_JWKS_URL`),
        issuer: secretName(`${snake}_ISSUER`),
        audience: secretName(`${snake}_AUDIENCE`),
      },
    };
  };
  if (awsSignature(node)) {
    const accessKeys = secretName(`${snake}_ACCESS_KEYS`);
    ctx.findings.changed(
      pointer,
      `an AWS request signature (Signature Version 4): verified by the platform with the access keys in the Worker secret ${accessKeys}, one <access key id>:<secret access key> per line`,
    );
    return {
      type: "verified",
      verifiedBy: "aws-sigv4",
      declared: { type: "apiKey", in: "header", name: node.name },
      ...description,
      accessKeys,
    };
  }
  // A client certificate: verified by Cloudflare at the edge (OpenAPI 3.1's mutualTLS; 3.0
  // documents often write it as an http scheme named so).
  if (node.type === "mutualTLS" || (node.type === "http" && scheme === "mutual")) {
    ctx.findings.changed(
      pointer,
      "mutual TLS: the client certificate Cloudflare verifies for the zone (request.cf.tlsClientAuth); where the zone verifies none, every request is refused",
    );
    return {
      type: "verified",
      verifiedBy: "mutual-tls",
      declared: { type: node.type, ...(node.type === "http" ? { scheme: node.scheme } : {}) },
      ...description,
    };
  }
  // An http scheme of the API's own (an HMAC, a signature of some fields): only code can check it.
  if (
    node.type === "http" &&
    scheme !== "basic" &&
    scheme !== "bearer" &&
    typeof node.scheme === "string"
  ) {
    ctx.findings.changed(
      pointer,
      `http scheme ${node.scheme}: verified by code the deployment gives (verifiers, src/handlers.ts); until it does, every request is refused (401)`,
    );
    return {
      type: "verified",
      verifiedBy: "code",
      declared: { type: "http", scheme: node.scheme },
      ...description,
    };
  }
  if (node.type === "apiKey" && ["header", "query", "cookie"].includes(String(node.in))) {
    // Two schemes that read the same field are one credential (the FEC's document names its
    // query key twice, and requires both together): they are compared with one secret.
    const field = fieldKey(String(node.in), String(node.name));
    const first = names.keys.get(field);
    if (first)
      ctx.findings.changed(
        pointer,
        `security scheme ${name} reads the same ${String(node.in)} field ${String(node.name)} as ${first.scheme}: one credential, compared with one secret (${first.secret})`,
      );
    const secret = first?.secret ?? secretName(snake);
    if (!first) names.keys.set(field, { scheme: name, secret });
    return { type: "apiKey", in: node.in, name: node.name, ...description, secret };
  }
  if (node.type === "http" && scheme === "basic")
    return {
      type: "http",
      scheme: "basic",
      realm: names.title,
      ...description,
      secret: secretName(snake),
    };
  if (node.type === "http" && scheme === "bearer")
    return bearerScheme(ctx, node, pointer, { snake, secretName, description, jwt });
  if (node.type === "oauth2" && isObject(node.flows)) {
    const declared = {
      type: "oauth2",
      flows: oauthFlows(ctx, node.flows, pointer),
      ...description,
      ...jwt(),
    };
    ctx.findings.changed(
      pointer,
      "OAuth 2 access tokens are verified as JWTs (RFC 9068) against a key set the deployment names",
    );
    return declared;
  }
  if (node.type === "openIdConnect" && typeof node.openIdConnectUrl === "string") {
    const openIdConnectUrl = flowUrl(
      ctx,
      node.openIdConnectUrl,
      child(pointer, "openIdConnectUrl"),
    );
    if (openIdConnectUrl === undefined)
      throw new Error(
        "its openIdConnectUrl is neither an http(s) URL nor relative to an absolute server",
      );
    const declared = {
      type: "openIdConnect",
      openIdConnectUrl,
      ...description,
      ...jwt(),
    };
    ctx.findings.changed(
      pointer,
      "OpenID Connect tokens are verified as JWTs against a key set the deployment names",
    );
    return declared;
  }
  return undefined;
}

/**
 * An AWS request signature (SigV4), which AWS's documents declare as an API key in the
 * Authorization header marked `x-amazon-apigateway-authtype`: a signature of each request,
 * never one value a secret can be compared with, so the platform cannot verify it. Any other
 * API key in that header is its whole value, compared with a secret as any API key is.
 */
const awsSignature = (node: Json) =>
  node.type === "apiKey" &&
  node.in === "header" &&
  String(node.name).toLowerCase() === "authorization" &&
  "x-amazon-apigateway-authtype" in node;

/**
 * A bearer scheme: a token the document says is a JWT is verified here against its
 * issuer's keys; any other is opaque to the Worker, and its issuer is asked (RFC 7662),
 * never compared with one shared secret.
 */
function bearerScheme(
  ctx: ImportContext,
  node: Json,
  pointer: string,
  names: {
    readonly snake: string;
    readonly secretName: (base: string) => string;
    readonly description: Json;
    readonly jwt: () => Json;
  },
): Json {
  const { snake, secretName } = names;
  const format = typeof node.bearerFormat === "string" ? node.bearerFormat : undefined;
  const isJwt = format?.toUpperCase() === "JWT";
  const declared = {
    type: "http",
    scheme: "bearer",
    ...(format ? { bearerFormat: format } : {}),
    ...names.description,
    ...(isJwt
      ? names.jwt()
      : {
          introspection: {
            endpoint: secretName(`${snake}_INTROSPECTION_URL`),
            clientId: secretName(`${snake}_CLIENT_ID`),
            clientSecret: secretName(`${snake}_CLIENT_SECRET`),
          },
        }),
  };
  ctx.findings.changed(
    pointer,
    isJwt
      ? "bearer JWTs are verified against a key set the deployment names (JWKS URL, issuer, audience secrets)"
      : "opaque bearer tokens are verified by token introspection (RFC 7662) at the endpoint the deployment names, with its client id and secret; until they are set this way in is closed",
  );
  return declared;
}

/** The OAuth flows OpenAPI defines, with their URLs and scopes. */
function oauthFlows(ctx: ImportContext, raw: Json, pointer: string): Json {
  const flows: Json = {};
  for (const [flow, value] of Object.entries(raw)) {
    if (!isObject(value)) continue;
    if (!["implicit", "password", "clientCredentials", "authorizationCode"].includes(flow)) {
      ctx.findings.lost(
        child(pointer, "flows", flow),
        `OAuth flow ${flow}: not one OpenAPI defines`,
      );
      continue;
    }
    const kept: Json = {};
    for (const key of ["authorizationUrl", "tokenUrl", "refreshUrl"])
      if (typeof value[key] === "string")
        kept[key] = flowUrl(ctx, value[key], child(pointer, "flows", flow, key));
    if (Object.values(kept).includes(undefined)) {
      ctx.findings.lost(
        child(pointer, "flows", flow),
        `OAuth flow ${flow}: left out, a URL of it is neither an http(s) URL nor a relative reference (RFC 3986 §4.2)`,
      );
      continue;
    }
    kept.scopes = flowScopes(ctx, value.scopes, child(pointer, "flows", flow, "scopes"));
    flows[flow] = kept;
  }
  // Read by schemeRead, which reports the scheme and offers none of its ways in.
  if (Object.keys(flows).length === 0) throw new Error("it has no flow the platform can declare");
  return flows;
}

/** A scope token (RFC 6749 §3.3: printable ASCII but space, `"` and `\\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The scope tokens a scope value names: RFC 6749 §3.3 separates them by spaces. */
const scopeTokens = (scope: string) => scope.split(" ").filter((token) => token !== "");

/**
 * A flow's scopes, each a scope token: a key that lists several (`accounts offline_access`)
 * declares each of them; what is no scope token at all is left out. Both with a finding.
 */
function flowScopes(ctx: ImportContext, raw: unknown, pointer: string): Json {
  const scopes: Json = {};
  for (const [scope, description] of Object.entries(isObject(raw) ? raw : {})) {
    const tokens = scopeTokens(scope);
    const kept = tokens.filter((token) => SCOPE_TOKEN.test(token));
    for (const token of kept) if (!Object.hasOwn(scopes, token)) scopes[token] = description;
    if (kept.length === 1 && kept[0] === scope) continue;
    if (kept.length === tokens.length && kept.length > 0)
      ctx.findings.changed(
        child(pointer, scope),
        `scope ${JSON.stringify(scope)} lists ${kept.length} scope tokens (RFC 6749 §3.3): each is declared, and a requirement of it asks for all`,
      );
    else
      ctx.findings.lost(
        child(pointer, scope),
        `scope ${JSON.stringify(scope)}: ${kept.length > 0 ? `only ${kept.join(", ")} declared; the rest is` : "it is"} no scope token (RFC 6749 §3.3), and a requirement of it is not offered`,
      );
  }
  return scopes;
}

/**
 * A URL of a flow: a relative one resolved against the first absolute server, with a finding;
 * one no server resolves kept as written (OpenAPI 3.1 §4.3: it is read against where the
 * document is served, which is the service's own origin). Only what is no URL reference at
 * all is refused: the flow's URLs document how a client gets a token, and the platform
 * verifies the token, never the URL.
 */
function flowUrl(ctx: ImportContext, url: string, pointer: string): string | undefined {
  const resolved = absoluteUrl(ctx.document, url);
  if (resolved.from !== undefined)
    ctx.findings.changed(
      pointer,
      `${url}: a relative URL, resolved against the server ${resolved.from} as ${resolved.url}`,
    );
  if (resolved.url !== undefined) return resolved.url;
  if (!isUrlReference(url)) return undefined;
  ctx.findings.changed(
    pointer,
    `${url}: a relative URL no absolute server resolves, kept as written: clients read it against where the served document is (OpenAPI 3.1 §4.3)`,
  );
  return url;
}

/** Part 4's `security` for an operation: explicit, and never opened by a scheme that cannot be verified. */
export function operationSecurity(
  ctx: ImportContext,
  security: Security,
  op: Json,
  pointer: string,
  id: string,
): string | undefined {
  const { supported, jwt } = security;
  if (supported.size === 0 && Object.keys(security.schemes).length === 0) return undefined;
  const own = Array.isArray(op.security);
  const requirements = (own ? op.security : ctx.document.security) as unknown;
  const where = own ? child(pointer, "security") : "#/security";
  if (!Array.isArray(requirements)) return "[]";
  const kept: string[] = [];
  requirements.forEach((requirement, i) => {
    if (!isObject(requirement)) return;
    const names = Object.keys(requirement);
    const unknown = names.filter((n) => !supported.has(n));
    if (unknown.length > 0) {
      ctx.findings.lost(
        child(where, i),
        `${id}: this way in needs ${unknown.join(", ")}, which the platform cannot verify, so it is not offered`,
      );
      return;
    }
    const asked = names.filter((n) => jwt.has(n)).flatMap((n) => strings(requirement[n]));
    if (asked.some((scope) => !scopeTokens(scope).every((token) => SCOPE_TOKEN.test(token)))) {
      ctx.findings.lost(
        child(where, i),
        `${id}: this way in asks for a scope that is no scope token (RFC 6749 §3.3), so it is not offered`,
      );
      return;
    }
    const entries = names.map((n) => {
      let scopes = strings(requirement[n]).flatMap(scopeTokens);
      if (scopes.length > 0 && !jwt.has(n)) {
        ctx.findings.lost(
          child(where, i, n),
          `${id}: roles ${scopes.join(", ")} for ${n}: only OAuth 2, OpenID Connect and JWT schemes check scopes`,
        );
        scopes = [];
      }
      return `${propertyKey(n)}: ${literal(scopes)}`;
    });
    kept.push(`{ ${entries.join(", ")} }`);
  });
  // Fail closed: an operation no way in is left for is left out, never served open.
  if (requirements.length > 0 && kept.length === 0)
    throw new LeaveOut(
      `operation ${id} can only be reached with credentials the platform cannot verify, and is not served open`,
    );
  return `[${kept.join(", ")}]`;
}
