/**
 * Validators for the documents that change only with a deployment (the OpenAPI document,
 * the status report): a strong entity tag from the bytes (RFC 9110 §8.8.3), computed once,
 * and `304 Not Modified` for a request that already holds them (RFC 9110 §13.1.2, §15.4.5).
 */
import { documentBody, type ServedDocument } from "./documents";

/** A strong entity tag: the first 128 bits of the body's SHA-256, quoted. */
export async function entityTag(body: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  const hex = [...new Uint8Array(digest).slice(0, 16)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  return `"${hex}"`;
}

/**
 * Whether `If-None-Match` names `tag` (or is `*`), by weak comparison as §13.1.2 requires:
 * a `W/` prefix is ignored on both sides.
 */
function matchesIfNoneMatch(header: string | null, tag: string): boolean {
  if (header === null) return false;
  const opaque = tag.replace(/^W\//, "");
  return header
    .split(",")
    .map((item) => item.trim())
    .some((item) => item === "*" || item.replace(/^W\//, "") === opaque);
}

/**
 * A document answered with its entity tag, or 304 with the same validator and caching
 * headers and no body when the client holds it already (so a static asset is not even
 * read); undefined when its body cannot be read (`documentBody`). The tag is the one given
 * (a document the build made, tagged then), or computed once per text.
 */
export function cachedDocument(): (
  request: Request,
  env: unknown,
  document: ServedDocument,
  headers: Readonly<Record<string, string>>,
) => Promise<Response | undefined> {
  const tags = new Map<string, Promise<string>>();
  const tagOf = (document: ServedDocument): Promise<string> | undefined => {
    if (document.etag !== undefined) return Promise.resolve(document.etag);
    if (!("body" in document)) return undefined;
    let tag = tags.get(document.body);
    if (!tag) {
      tag = entityTag(document.body);
      tags.set(document.body, tag);
    }
    return tag;
  };
  return async (request, env, document, headers) => {
    const etag = await tagOf(document);
    const all: Record<string, string> = etag === undefined ? { ...headers } : { ...headers, etag };
    if (etag !== undefined && matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
      const { "content-type": _type, ...rest } = all;
      return new Response(null, { status: 304, headers: rest });
    }
    const body = await documentBody(env, document);
    return body === undefined ? undefined : new Response(body, { headers: all });
  };
}
