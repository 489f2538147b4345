/**
 * Credentials for local work only: what `npm run dev` needs so that every operation of the
 * contract answers as documented (never 500 for a missing secret), and nothing more.
 *
 * - Each Worker secret part 5 names gets a random value in `.dev.vars` (gitignored), unless
 *   the file already holds a value for it.
 * - JWT schemes (OAuth 2, OpenID Connect, bearer JWTs) trust a local issuer: an ES256 key
 *   pair made once in `.wrangler/dev-issuer.json` (gitignored, never deployed), whose public
 *   key set is written inline into the scheme's key-set setting, so nothing is fetched and
 *   no `http:` URL is ever trusted. `npm run dev:token` mints its tokens.
 *
 * A deployed Worker never sees any of this: `wrangler deploy` reads neither file, and the
 * deployment sets its own values (`wrangler secret put`), which are held to the same rules.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type Contract,
  introspectionOf,
  jwtOf,
  type SecurityScheme,
} from "../../src/contract-language/contract";
import { requiredSettings } from "../support/deployment";
import { accessToken, keySetOf, type LocalIssuer, newIssuer } from "../support/issuer";
import { type Presented, presented as presentedAs } from "./conformance/credentials";

export const DEV_VARS = ".dev.vars";
export const ISSUER_FILE = ".wrangler/dev-issuer.json";
/** The local issuer's identifiers: URNs, so no one mistakes them for a real host. */
export const LOCAL_ISSUER = "urn:contract-edge-service:local-issuer";
export const LOCAL_AUDIENCE = "urn:contract-edge-service:local-api";

/** `.dev.vars` as wrangler reads it (dotenv): `NAME=value`, a value possibly quoted. */
export function parseDevVars(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match?.[1]) continue;
    let value = match[2] ?? "";
    const quote = value[0];
    if ((quote === "'" || quote === '"') && value.endsWith(quote) && value.length >= 2)
      value = value.slice(1, -1);
    values.set(match[1], value);
  }
  return values;
}

/** A value `.dev.vars.example` writes in place of one: not a value at all. */
const isPlaceholder = (value: string | undefined) =>
  value === undefined || value === "" || /^<[A-Z_]+>$/.test(value);

async function localIssuer(root: string): Promise<LocalIssuer> {
  const file = join(root, ISSUER_FILE);
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as LocalIssuer;
  const issuer = await newIssuer();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(issuer, null, 2)}\n`, { mode: 0o600 });
  return issuer;
}

/** A random credential of the form the scheme compares (basic: `user-id:password`). */
function madeSecret(scheme: SecurityScheme): string {
  const random = randomBytes(18).toString("base64url");
  // An AWS access key pair: an id of AWS's form, and its secret.
  if (scheme.type === "verified")
    return `AKIALOCAL${randomBytes(6).toString("hex").toUpperCase()}:${random}`;
  return scheme.type === "http" && scheme.scheme === "basic"
    ? `local-user:${random}`
    : `local-${random}`;
}

export interface DevVars {
  /** The names given a value now. */
  readonly made: readonly string[];
  /** Every value `.dev.vars` holds afterwards. */
  readonly values: ReadonlyMap<string, string>;
}

/**
 * Gives every secret and setting part 5 names a local value in `.dev.vars`, keeping every
 * value already there (a placeholder copied from `.dev.vars.example` is not a value).
 */
export async function ensureDevVars(contract: Contract, root = "."): Promise<DevVars> {
  const file = join(root, DEV_VARS);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const values = parseDevVars(text);
  const settings = requiredSettings(contract).filter(({ name }) => isPlaceholder(values.get(name)));
  if (settings.length === 0) return { made: [], values };
  const issuer = settings.some((s) => "kind" in s && ["jwksUrl", "issuer"].includes(s.kind))
    ? await localIssuer(root)
    : undefined;
  const lines = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => !settings.some(({ name }) => line.trimStart().startsWith(`${name}=`)));
  if (!lines.some((line) => line.includes("npm run dev")))
    lines.unshift(
      "# Local values made by `npm run dev` for wrangler dev only: never deployed, never",
      "# committed (.gitignore). Replace any of them with a real value to try it.",
    );
  for (const setting of settings) {
    let value: string;
    if ("kind" in setting && setting.kind === "introspectionUrl") {
      // RFC 7662's answer for the one local token, pinned: nothing is asked of any server.
      const scheme = contract.securitySchemes[setting.scheme] as SecurityScheme;
      const token = opaqueToken(root, setting.scheme);
      value = JSON.stringify({
        tokens: {
          [createHash("sha256").update(token).digest("hex")]: {
            active: true,
            sub: "local-user",
            client_id: "local-client",
            scope: askedScopes(contract, setting.scheme).join(" "),
            ...(introspectionOf(scheme)?.audience ? { aud: LOCAL_AUDIENCE } : {}),
          },
        },
      });
    } else if (
      "kind" in setting &&
      (setting.kind === "clientId" || setting.kind === "clientSecret")
    ) {
      value =
        setting.kind === "clientId"
          ? "local-client"
          : `local-${randomBytes(18).toString("base64url")}`;
    } else if ("kind" in setting) {
      const local = issuer as LocalIssuer;
      value =
        setting.kind === "jwksUrl"
          ? keySetOf(local)
          : setting.kind === "issuer"
            ? LOCAL_ISSUER
            : LOCAL_AUDIENCE;
    } else {
      value = madeSecret(contract.securitySchemes[setting.scheme] as SecurityScheme);
    }
    values.set(setting.name, value);
    // Single quotes: dotenv takes the value as written, JSON's double quotes included.
    lines.push(`${setting.name}='${value}'`);
  }
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  return { made: settings.map((s) => s.name), values };
}

/** Where local opaque tokens of introspection schemes are kept (gitignored, never deployed). */
export const TOKENS_FILE = ".wrangler/dev-tokens.json";

/** The local opaque token of an introspection scheme: made once, then kept. */
export function opaqueToken(root: string, scheme: string): string {
  const file = join(root, TOKENS_FILE);
  const tokens = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>)
    : {};
  const known = tokens[scheme];
  if (known) return known;
  const token = `local-${randomBytes(24).toString("base64url")}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...tokens, [scheme]: token }, null, 2)}\n`, {
    mode: 0o600,
  });
  return token;
}

/** Every scope an operation asks of a scheme, so a local token grants what any needs. */
export function askedScopes(contract: Contract, scheme: string): string[] {
  const declared = contract.securitySchemes[scheme];
  const asked = Object.values(contract.operations).flatMap((op) =>
    (op.security ?? []).flatMap((requirement) => [...(requirement[scheme] ?? [])]),
  );
  return [...new Set([...(declared ? schemeScopes(declared) : []), ...asked])];
}

/** The JWT schemes of the contract, by name. */
export function jwtSchemes(contract: Contract): [string, SecurityScheme & { jwt: object }][] {
  return Object.entries(contract.securitySchemes).filter(
    (entry): entry is [string, SecurityScheme & { jwt: object }] => "jwt" in entry[1],
  ) as [string, SecurityScheme & { jwt: object }][];
}

/** Every scope a scheme can grant, as OAuth 2 flows declare them. */
export function schemeScopes(scheme: SecurityScheme): string[] {
  if (scheme.type !== "oauth2") return [];
  return [
    ...new Set(Object.values(scheme.flows).flatMap((flow) => Object.keys(flow?.scopes ?? {}))),
  ];
}

export interface TokenOptions {
  readonly scopes?: readonly string[];
  readonly subject?: string;
  readonly ttlSeconds?: number;
}

/**
 * An access token of the local issuer for a JWT scheme, as RFC 9068 shapes one: `typ:
 * at+jwt`, with `iss`, `aud`, `sub`, `client_id`, `iat`, `exp`, `jti` and `scope`. Refused
 * when the scheme's settings in `.dev.vars` trust another issuer.
 */
export async function mintToken(
  contract: Contract,
  schemeName: string,
  options: TokenOptions = {},
  root = ".",
): Promise<string> {
  const scheme = contract.securitySchemes[schemeName];
  const jwt = scheme && jwtOf(scheme);
  if (!scheme || !jwt)
    throw new Error(
      `${schemeName} is not a JWT scheme of part 5 (those are: ${jwtSchemes(contract)
        .map(([name]) => name)
        .join(", ")})`,
    );
  const values = parseDevVars(
    existsSync(join(root, DEV_VARS)) ? readFileSync(join(root, DEV_VARS), "utf8") : "",
  );
  const issuer = await localIssuer(root);
  if (values.get(jwt.jwksUrl) !== keySetOf(issuer))
    throw new Error(
      `${schemeName} trusts another key set (${jwt.jwksUrl} in .dev.vars): only the local issuer's tokens can be made here`,
    );
  return accessToken(issuer, {
    issuer: values.get(jwt.issuer) ?? LOCAL_ISSUER,
    audience: values.get(jwt.audience) ?? LOCAL_AUDIENCE,
    scopes: options.scopes ?? schemeScopes(scheme),
    ...(options.subject ? { subject: options.subject } : {}),
    ...(options.ttlSeconds ? { ttlSeconds: options.ttlSeconds } : {}),
  });
}

/**
 * A working credential's value for each scheme of part 5, from `.dev.vars` and the local
 * issuer (a JWT with every scope the scheme declares): a secret, a token, or `user:password`.
 */
export async function devCredentialValues(
  contract: Contract,
  root = ".",
): Promise<Record<string, string>> {
  const { values } = await ensureDevVars(contract, root);
  const credentials: Record<string, string> = {};
  for (const [name, scheme] of Object.entries(contract.securitySchemes)) {
    if ("jwt" in scheme) {
      try {
        credentials[name] = await mintToken(contract, name, {}, root);
      } catch {
        // A real issuer is configured: no token can be made here.
      }
      continue;
    }
    if ("introspection" in scheme) {
      // The local token, where .dev.vars pins it (a real endpoint's tokens are its own).
      if (values.get(scheme.introspection.endpoint)?.startsWith("{"))
        credentials[name] = opaqueToken(root, name);
      continue;
    }
    // A signature or a certificate is made per request, never one value to send.
    if (!("secret" in scheme)) continue;
    const first = typeof scheme.secret === "string" ? scheme.secret : scheme.secret[0];
    const value = values.get(first);
    if (value !== undefined) credentials[name] = value;
  }
  return credentials;
}

/**
 * A working credential for each scheme of part 5, as it is sent (`devCredentialValues`):
 * what a person or a checker sends locally.
 */
export async function devCredentials(
  contract: Contract,
  root = ".",
): Promise<Record<string, Presented>> {
  const presented: Record<string, Presented> = {};
  for (const [name, value] of Object.entries(await devCredentialValues(contract, root))) {
    const scheme = contract.securitySchemes[name];
    if (scheme) presented[name] = presentedAs(scheme, value);
  }
  return presented;
}
