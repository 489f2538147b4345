/**
 * The path the document's servers put in front of every path (OpenAPI 3.1 §4.8.5: an
 * operation's URL is a server's URL followed by its path): SendGrid's
 * `https://api.sendgrid.com/v3` serves `/alerts` at `/v3/alerts`. The service is deployed as
 * that server, so a caller's client, configured with the Worker's origin and that path as
 * its base, reaches each operation where it reached the API. The import writes each
 * operation's path with the base in front and each server without it: the same URLs.
 *
 * Only a base every server shares, written without a variable, is moved; servers whose
 * paths differ or are templated leave every path as the document writes it, with a finding.
 */
import { isHttpUrl } from "../contract-language/urls";
import { servedHere } from "./platform-additions";
import { isObject, type Json } from "./source";

interface ServerBase {
  /** The path every server shares, `/v3`, with no trailing slash; "" when none is moved. */
  readonly base: string;
  /** Why no base is moved although a server has a path; undefined when none has one or one is moved. */
  readonly kept?: string;
}

/** An absolute URL's scheme and authority (RFC 3986 §3). */
const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/** A server URL's path: after the authority of an absolute URL, or the URL itself when relative. */
function pathOf(url: string): string {
  const authority = ORIGIN.exec(url);
  const rest = authority ? url.slice(authority[0].length) : url;
  const path = rest.split(/[?#]/)[0] ?? "";
  return path.replace(/\/+$/, "");
}

/** The base the document's servers share, or why none is moved. */
export function serverBase(document: Json): ServerBase {
  // A document this platform served is read back as the contract it was served from: its
  // paths are where that contract put them.
  if (servedHere(document)) return { base: "" };
  const urls = (Array.isArray(document.servers) ? document.servers : [])
    .filter(isObject)
    .map((server) => server.url)
    .filter((url): url is string => typeof url === "string");
  const bases = new Set(urls.map(pathOf));
  if (bases.size === 0 || (bases.size === 1 && bases.has(""))) return { base: "" };
  if (bases.size > 1)
    return {
      base: "",
      kept: `the servers' paths differ (${[...bases].map((b) => b || "/").join(", ")}): each operation is served at its own path`,
    };
  const [base] = bases as Set<string> & { size: 1 };
  if (base === undefined || base.includes("{") || !base.startsWith("/"))
    return {
      base: "",
      kept: `the servers' path ${base} is not a fixed path: each operation is served at its own path`,
    };
  return { base };
}

/** A server's URL without the base the import moved in front of every path: its origin, or `/`. */
export function withoutBase(url: string, base: string): string {
  if (base === "") return url;
  return ORIGIN.exec(url)?.[0] ?? "/";
}

/**
 * A URL of the document made absolute: a relative reference (Vimeo's OAuth `tokenUrl` is
 * `/oauth/access_token`) is resolved against the first absolute server URL, its variables at
 * their defaults (OpenAPI 3.1 §4.7, §4.8.6; RFC 3986 §5.2). `from` names that server; the
 * URL is undefined when no server is absolute.
 */
export function absoluteUrl(document: Json, url: string): { url?: string; from?: string } {
  if (isHttpUrl(url)) return { url };
  for (const server of Array.isArray(document.servers) ? document.servers : []) {
    if (!isObject(server) || typeof server.url !== "string") continue;
    const variables = isObject(server.variables) ? server.variables : {};
    const base = server.url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && typeof variable.default === "string" ? variable.default : whole;
    });
    if (!isHttpUrl(base)) continue;
    const resolved = new URL(url, base).href;
    return isHttpUrl(resolved) ? { url: resolved, from: base } : {};
  }
  return {};
}
