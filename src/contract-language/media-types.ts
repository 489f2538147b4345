/**
 * What a declared media type means for a body: JSON (and any `+json` type), XML (RFC 7303),
 * a form, multipart, text, or bytes. The engine reads and writes bodies by it
 * (src/engine/request/content-negotiation.ts); the importer (src/importer) decides by it how a document's
 * media type is declared.
 */
import { isXmlMediaType } from "./contract";

/**
 * `application/json`, any `+json` structured syntax suffix (RFC 6839 §3.1), and `text/json`,
 * which real documents still declare (ASP.NET's, Azure's) and the WHATWG MIME Sniffing
 * Standard (§4.6, "JSON MIME type") counts as JSON.
 */
export function isJsonMediaType(essence: string): boolean {
  return (
    essence === "application/json" ||
    essence === "text/json" ||
    (essence.endsWith("+json") && essence.includes("/"))
  );
}

/**
 * How the platform reads and writes a body of a media type: parsed JSON, XML read by its
 * schema into the object it stands for, a form as an object, text, or bytes for any other
 * type.
 */
export type BodyKind = "json" | "xml" | "form" | "multipart" | "text" | "binary";

export function bodyKind(essence: string): BodyKind {
  const type = essence.toLowerCase();
  if (isJsonMediaType(type)) return "json";
  // RFC 7303 §3, §9.2: application/xml, text/xml and any +xml type are XML.
  if (isXmlMediaType(type)) return "xml";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type === "multipart/form-data") return "multipart";
  if (type.startsWith("text/")) return "text";
  return "binary";
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})$`);
const PARAMETER = new RegExp(`^(${TOKEN})=(?:(${TOKEN})|"((?:[^"\\\\]|\\\\.)*)")$`);

export interface MediaType {
  /** `type/subtype`, lower-cased. */
  readonly essence: string;
  /** Parameters by lower-cased name. */
  readonly parameters: ReadonlyMap<string, string>;
}

/** A media range an operation may declare: any type, or any subtype of one (RFC 9110 §12.5.1). */
const RANGE = /^(?:\*\/\*|[!#$%&'*+.^_`|~0-9A-Za-z-]+\/\*)$/;

/**
 * Whether `type` is what an operation may declare a body in: one media type without
 * parameters (`type/subtype`, RFC 9110 §8.3.1), or a range.
 */
export function isDeclarableMediaType(type: string): boolean {
  if (RANGE.test(type)) return true;
  const parsed = parseMediaType(type);
  return (
    parsed !== undefined && parsed.parameters.size === 0 && parsed.essence === type.toLowerCase()
  );
}

/** Parses a Content-Type value; `undefined` when it is not one well-formed media type. */
export function parseMediaType(value: string): MediaType | undefined {
  const [head = "", ...rest] = value.split(";");
  const match = MEDIA_TYPE.exec(head.trim());
  if (!match) return undefined;
  const parameters = new Map<string, string>();
  for (const raw of rest) {
    const param = PARAMETER.exec(raw.trim());
    if (!param?.[1]) return undefined;
    parameters.set(param[1].toLowerCase(), param[2] ?? param[3]?.replace(/\\(.)/g, "$1") ?? "");
  }
  return { essence: `${match[1]}/${match[2]}`.toLowerCase(), parameters };
}
