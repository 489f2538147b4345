/**
 * What a URL field of a contract may hold, read alike by the start-up checks and the
 * importer: an absolute `http:` or `https:` URL, or, where OpenAPI 3.1 §4.3 allows it (every
 * URL field unless said otherwise), a relative reference (RFC 3986 §4.2).
 */

/** An absolute `http:` or `https:` URL. */
export function isHttpUrl(url: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** An absolute http(s) URL, or a relative reference: no scheme of its own, no white space. */
export function isUrlReference(url: string): boolean {
  if (isHttpUrl(url)) return true;
  if (url === "" || /\s/.test(url) || /^[a-z][a-z0-9+.-]*:/i.test(url)) return false;
  try {
    return isHttpUrl(new URL(url, "https://reference.invalid/").href);
  } catch {
    return false;
  }
}
