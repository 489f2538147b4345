/**
 * A handler's result as an HTTP answer, written as its media type says (never with
 * `String(value)`): JSON as JSON text, XML from the same object by its schema's `xml`
 * objects (OpenAPI 3.1 §4.8.26), text as the string given, a form from an object of
 * strings, bytes as they are. The platform's headers are on every answer, and a
 * handler cannot replace them (it may set its own Content-Security-Policy).
 */

import type { BodyKind } from "../../contract-language/media-types";
import { apiHeaders, complete, platformAnswer } from "../../platform/security-headers";
import type { XmlMapping } from "../../platform/xml-seam";

const FORCED = new Set(["content-type", "content-length", ...Object.keys(apiHeaders(""))]);
FORCED.delete("content-security-policy");

/** The platform's headers, with the handler's own added where they do not replace one. */
export function answerHeaders(
  requestId: string,
  own: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const headers = apiHeaders(requestId);
  // OWASP REST: an answer is not stored unless the handler says otherwise.
  headers["cache-control"] = "no-store";
  for (const [name, value] of Object.entries(own ?? {})) {
    const key = name.toLowerCase();
    if (!FORCED.has(key) && key !== "__proto__") headers[key] = value;
  }
  return headers;
}

const isText = (value: unknown): value is string => typeof value === "string";

/** A form's fields from an object whose values are strings (or lists of them). */
function formOf(value: unknown): URLSearchParams {
  if (value === null || typeof value !== "object")
    throw new TypeError("a form body must be an object");
  const form = new URLSearchParams();
  for (const [name, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) ? field : [field]) {
      if (!isText(item)) throw new TypeError(`form field ${name} is not a string`);
      form.append(name, item);
    }
  }
  return form;
}

/** A multipart form from an object whose values are strings or Blobs (or lists of them). */
function multipartOf(value: unknown): FormData {
  if (value === null || typeof value !== "object")
    throw new TypeError("a multipart body must be an object");
  const form = new FormData();
  for (const [name, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) ? field : [field]) {
      if (!isText(item) && !(item instanceof Blob))
        throw new TypeError(`part ${name} is neither a string nor a Blob`);
      form.append(name, item);
    }
  }
  return form;
}

function bodyOf(kind: BodyKind, value: unknown, xml: XmlMapping | undefined): BodyInit {
  switch (kind) {
    case "json":
      return JSON.stringify(value);
    case "xml":
      if (!xml) throw new TypeError("an XML answer, and no XML mapping for its schema");
      return xml.write(value);
    case "text":
      if (!isText(value)) throw new TypeError("a text body must be a string");
      return value;
    case "form":
      return formOf(value);
    case "multipart":
      return multipartOf(value);
    case "binary":
      if (
        value instanceof Uint8Array ||
        value instanceof ArrayBuffer ||
        value instanceof Blob ||
        value instanceof ReadableStream
      )
        return value;
      throw new TypeError("a binary body must be bytes, a Blob or a stream");
  }
}

interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The Content-Type of a body of `kind` in `mediaType`; none for multipart (its boundary). */
function contentTypeOf(mediaType: string, kind: BodyKind): string | undefined {
  // A multipart body's Content-Type carries its boundary, which only the runtime knows.
  if (kind === "multipart") return undefined;
  // A declared range (`image/*`) is no Content-Type: the answer is then plain bytes.
  const type = mediaType.includes("*") ? "application/octet-stream" : mediaType;
  // RFC 7303 §3.2, §9.1: XML is said to be UTF-8 in its charset, as text is.
  return (kind === "text" || kind === "xml") && !type.includes(";")
    ? `${type}; charset=utf-8`
    : type;
}

/** The answer, its body written as `mediaType` of `kind` says; `extra` are the platform's own (Vary). */
export function serialise(
  answer: Answer,
  body:
    | { readonly mediaType: string; readonly kind: BodyKind; readonly xml?: XmlMapping }
    | undefined,
  requestId: string,
  extra?: { readonly vary?: string },
): Response {
  const written = answer.body === undefined || !body;
  const contentType = written ? undefined : contentTypeOf(body.mediaType, body.kind);
  const payload = written ? null : bodyOf(body.kind, answer.body, body.xml);
  if (answer.headers === undefined || Object.keys(answer.headers).length === 0)
    // The common answer: the platform's headers and its kind's, built once per kind.
    return platformAnswer(payload, answer.status, requestId, {
      contentType,
      cacheControl: "no-store",
      vary: extra?.vary,
    });
  const headers = answerHeaders(requestId, answer.headers);
  if (extra?.vary !== undefined) headers.vary = extra.vary;
  if (contentType !== undefined) headers["content-type"] = contentType;
  return complete(new Response(payload, { status: answer.status, headers }));
}
