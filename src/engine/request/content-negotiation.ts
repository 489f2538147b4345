/**
 * Media types, matched the way RFC 9110 §8.3.1 defines them: `type "/" subtype` are
 * case-insensitive tokens, parameters follow after ";". Anything that is not exactly that
 * shape (a list, a quoted trick, a stray character) matches nothing.
 */
import type { Operation } from "../../contract-language/contract";
import { type BodyKind, bodyKind, parseMediaType } from "../../contract-language/media-types";

/** Kinds whose text is decoded as UTF-8, so a charset parameter must say utf-8 if present. */
const TEXTUAL: ReadonlySet<BodyKind> = new Set(["json", "xml", "form", "text"]);

/** Whether a declared media type range (`image/*`, `*\/*`) covers a media type's essence. */
function covers(declared: string, essence: string): boolean {
  const range = declared.toLowerCase();
  if (range === essence || range === "*/*") return true;
  return range.endsWith("/*") && essence.startsWith(range.slice(0, -1));
}

/**
 * Which of the declared media types `contentType` is, if any: an exact match first, then a
 * declared range (`image/*`). The platform decodes text as UTF-8 only: JSON has no charset
 * parameter (RFC 8259 §11), but `charset=utf-8` is commonly sent and harmless; any other
 * charset is a different encoding and does not match.
 */
export function matchMediaType(
  contentType: string,
  declared: readonly string[],
): string | undefined {
  // The common case, a declared type sent exactly as declared, needs no parsing.
  if (declared.includes(contentType)) return contentType;
  const parsed = parseMediaType(contentType);
  if (!parsed) return undefined;
  const match =
    declared.find((type) => type.toLowerCase() === parsed.essence) ??
    declared.find((type) => covers(type, parsed.essence));
  if (match === undefined) return undefined;
  const charset = parsed.parameters.get("charset");
  if (
    charset !== undefined &&
    TEXTUAL.has(bodyKind(parsed.essence)) &&
    charset.toLowerCase() !== "utf-8"
  )
    return undefined;
  return match;
}

/**
 * RFC 9110 §15.5.16 lets a 415 say what is accepted: `Accept-Post` for a POST (W3C LDP
 * §7.1), `Accept-Patch` for a PATCH (RFC 5789 §3.1), when the operation takes a body.
 */
export function acceptHint(op: Operation): { name: string; value: string } | undefined {
  const types = Object.keys(op.request?.body ?? {});
  const name =
    op.method === "POST" ? "Accept-Post" : op.method === "PATCH" ? "Accept-Patch" : undefined;
  return name && types.length > 0 ? { name, value: types.join(", ") } : undefined;
}
