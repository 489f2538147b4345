/**
 * What a declared media type means for a body: JSON (and any `+json` type), XML (RFC 7303),
 * a form, multipart, text, or bytes. The engine reads and writes bodies by it
 * (src/engine/media-type.ts); the importer (src/importer) decides by it how a document's
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
