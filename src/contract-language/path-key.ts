/**
 * An operation's path as a Paths Object key may write it (OpenAPI 3.1 §4.8.8): a path
 * template, then perhaps a query with fixed values (`/rest?method=photos.search`) and a
 * fragment (`/#Action=AddTags`). Only the path is routed; a query or a fragment is no part
 * of it (RFC 3986 §3.3). Operations on one method and path are told apart by fixed query
 * values: those the key's query gives, and the operation's `fixed` (where a document writes
 * them in the fragment, which a client never sends, RFC 3986 §3.5).
 */

/** The parts of a key: what is routed, its query (without `?`) and its fragment (without `#`). */
export interface PathKeyParts {
  readonly path: string;
  readonly query: string | undefined;
  readonly fragment: string | undefined;
}

/** Splits a key at its first `?` (the query) and first `#` (the fragment, RFC 3986 §3.5). */
export function pathKeyParts(key: string): PathKeyParts {
  const hash = key.indexOf("#");
  const beforeFragment = hash === -1 ? key : key.slice(0, hash);
  const fragment = hash === -1 ? undefined : key.slice(hash + 1);
  const mark = beforeFragment.indexOf("?");
  return mark === -1
    ? { path: beforeFragment, query: undefined, fragment }
    : { path: beforeFragment.slice(0, mark), query: beforeFragment.slice(mark + 1), fragment };
}

/** The routed path of a key: `/rest` of `/rest?method=x`, `/` of `/#Action=X`. */
export function routedPath(key: string): string {
  return pathKeyParts(key).path;
}

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return undefined;
  }
};

/**
 * The `name=value` pairs of a query or a fragment, as `application/x-www-form-urlencoded`
 * reads them (a name alone has the value ""), or undefined where one is not of that form. A
 * value `{name}` is a template's parameter, not a fixed value: it is in `templated`.
 */
export function keyPairs(
  text: string,
): { readonly fixed: Record<string, string>; readonly templated: string[] } | undefined {
  const fixed: Record<string, string> = {};
  const templated: string[] = [];
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const name = decode(at === -1 ? pair : pair.slice(0, at));
    const raw = at === -1 ? "" : pair.slice(at + 1);
    if (name === undefined || name === "" || Object.hasOwn(fixed, name)) return undefined;
    const parameter = /^\{([^{}]+)\}$/.exec(raw)?.[1];
    if (parameter !== undefined) {
      templated.push(parameter);
      continue;
    }
    const value = decode(raw);
    if (value === undefined || raw.includes("{")) return undefined;
    Object.defineProperty(fixed, name, { value, enumerable: true, writable: true });
  }
  return { fixed, templated };
}

/**
 * The query values a request must carry to be this operation's: those of its key's query and
 * its own `fixed`. Empty for an operation its method and path alone identify.
 */
export function fixedQuery(operation: {
  readonly path: string;
  readonly fixed?: Readonly<Record<string, string>>;
}): Readonly<Record<string, string>> {
  const { query } = pathKeyParts(operation.path);
  const fromKey = query === undefined ? {} : (keyPairs(query)?.fixed ?? {});
  return operation.fixed ? { ...fromKey, ...operation.fixed } : fromKey;
}

/** A base path: one segment or more, each after a `/`, none empty, and no `/` at the end. */
type BasePath<B extends string> = B extends `/${string}/`
  ? never
  : B extends `/${string}`
    ? B
    : never;

/**
 * The paths of operations that share a base (a spec's "every path is under /v1"), declared
 * once: `const v1 = under("/v1")`, then `path: v1("/invoices/{id}")`, which is the literal
 * `/v1/invoices/{id}` (so the compiler still checks its `{parameters}`). A base that is not
 * `/` and segments (`v1`, `/v1/`) does not compile, and is refused when the contract loads.
 */
export function under<const B extends string>(
  base: B & BasePath<B>,
): <const P extends `/${string}`>(path: P) => `${B}${P}` {
  if (!/^(?:\/[^/?#]+)+$/.test(base))
    throw new Error(
      `under(${JSON.stringify(base)}): a base path is / and segments, with no / at its end`,
    );
  return (path) => `${base}${path}`;
}
