/**
 * Reading a request body safely: counted in bytes against a cap (also when it arrives
 * chunked, without Content-Length, and for every part of a multipart form), decoded as
 * strict UTF-8 where it is text, parsed as JSON without any path to prototype pollution,
 * read as XML by its schema (src/engine/xml/codec.ts refuses a DOCTYPE and expands no entity),
 * and read as a form (urlencoded or multipart, `forms.ts`) into an object of own properties.
 */

import type { BodyKind } from "../../contract-language/media-types";
import type { XmlMapping } from "../../platform/xml-seam";

type Malformed = { readonly ok: false; readonly kind: "malformed"; readonly reason: string };
type BodyResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly kind: "too-large" }
  | Malformed;
type JsonResult = { readonly ok: true; readonly value: unknown } | Malformed;

export const fail = (reason: string): Malformed => ({ ok: false, kind: "malformed", reason });
const TOO_LARGE = { ok: false, kind: "too-large" } as const;

/**
 * The body's bytes, or a failure once more than `maxBytes` have arrived. A Content-Length
 * over the cap is refused before anything is read; a malformed one is a 400 (RFC 9112 §6.3).
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
): Promise<BodyResult<Uint8Array>> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (!/^\d{1,15}$/.test(declared)) return fail("The Content-Length header is malformed.");
    if (Number(declared) > maxBytes) return TOO_LARGE;
  }
  if (declared !== null) {
    // The length is known and within the cap: one native read (a request without a body
    // reads as empty), without making a stream object for it. The runtime's HTTP layer
    // never delivers more than Content-Length; the check below covers a Request built in
    // process whose header disagrees with its body.
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > maxBytes ? TOO_LARGE : { ok: true, value: bytes };
  }
  if (request.body === null) return { ok: true, value: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stop reading: the rest is never buffered. Not awaited: cancelling one branch of a
      // teed body (a request something cloned) settles only once every branch is cancelled
      // (WHATWG Streams, ReadableStreamTee), so waiting could hang the answer.
      reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0]) return { ok: true, value: chunks[0] };
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, value: bytes };
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

type Decoded = { readonly ok: true; readonly value: unknown } | Malformed;

/**
 * Reads a form body (urlencoded, or multipart/form-data: RFC 7578) into its fields
 * (`forms.ts`): given only to an engine whose contract declares a form body.
 */
export type FormReader = (
  kind: "form" | "multipart",
  bytes: Uint8Array,
  contentType: string,
  lists: ReadonlySet<string>,
) => Promise<Decoded>;

/** Strict UTF-8 (a byte sequence that is not UTF-8 is refused, never replaced). */
export function decodeText(
  bytes: Uint8Array,
): { readonly ok: true; readonly value: string } | Malformed {
  try {
    return { ok: true, value: UTF8.decode(bytes) };
  } catch {
    return fail("The request body is not valid UTF-8.");
  }
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The body as its schema sees it, by the kind of its media type: parsed JSON, XML read by
 * its schema's mapping (`xml`), the text, a form's fields, or the bytes. `contentType` is the
 * request's own (a multipart boundary is one of its parameters).
 */
export async function decodeBody(
  kind: BodyKind,
  bytes: Uint8Array,
  contentType: string,
  lists?: ReadonlySet<string>,
  xml?: XmlMapping,
  forms?: FormReader,
): Promise<Decoded> {
  switch (kind) {
    case "json":
      return parseJson(bytes);
    case "xml": {
      const text = decodeText(bytes);
      if (!text.ok) return text;
      if (!xml) throw new Error("an XML body, and no XML mapping for its schema");
      const read = xml.read(text.value);
      return read.ok ? read : fail(read.reason);
    }
    case "text":
      return decodeText(bytes);
    case "form":
    case "multipart":
      if (!forms) throw new Error("a form body, and no form reader (the engine's forms feature)");
      return forms(kind, bytes, contentType, lists ?? NONE);
    case "binary":
      return { ok: true, value: bytes };
  }
}

/**
 * JSON text to a value (RFC 8259): strict UTF-8, not empty, well-formed, and with no
 * member named `__proto__` and no `constructor.prototype`, at any depth, however escaped.
 */
export function parseJson(bytes: Uint8Array): JsonResult {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return decoded;
  const text = decoded.value;
  if (text.trim() === "") return fail("The request body is empty.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // A SyntaxError, or a RangeError from nesting deeper than the parser allows.
    return fail("The request body is not well-formed JSON.");
  }
  // A key can only be dangerous if its name, or an escape that could spell it, is present.
  if (/__proto__|constructor|\\u/.test(text) && hasPollutingKey(value)) {
    return fail(
      "The request body contains a member name that is not allowed (__proto__ or constructor.prototype).",
    );
  }
  return { ok: true, value };
}

/** Walks the parsed value without recursion, so depth cannot exhaust the stack. */
function hasPollutingKey(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (key === "__proto__") return true;
      if (
        key === "constructor" &&
        child !== null &&
        typeof child === "object" &&
        Object.hasOwn(child, "prototype")
      ) {
        return true;
      }
      stack.push(child);
    }
  }
  return false;
}
