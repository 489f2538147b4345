/**
 * XML's lexical rules the codec needs on both sides: what a name may be (XML 1.0 §2.3, and
 * without a colon, Namespaces in XML 1.0 §3's NCName), which characters a document may hold
 * at all (XML 1.0 §2.2), and how text and attribute values are escaped (§2.4, §3.3.3).
 */

const NAME_START =
  "A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}";
const NAME_REST = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;

/** A name without a colon (Namespaces in XML 1.0 §3, NCName): an element's, an attribute's, a prefix. */
export const NCNAME = new RegExp(`^[${NAME_START}][${NAME_REST}]*$`, "u");

/** Characters XML 1.0 §2.2 does not allow anywhere in a document, even escaped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** The XML Schema instance namespace, whose `nil` attribute says an element stands for null. */
export const XSI = "http://www.w3.org/2001/XMLSchema-instance";
/** The namespace the `xml` prefix is bound to, always (Namespaces in XML 1.0 §3). */
export const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";

/** The text of an element, escaped (XML 1.0 §2.4); a character XML cannot hold is an error. */
export function escapeText(text: string): string {
  if (NOT_XML_CHAR.test(text))
    throw new TypeError("a string holds a character XML 1.0 cannot carry (XML 1.0 §2.2)");
  return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

/**
 * An attribute's value, escaped; tabs and line ends as character references, so that
 * attribute-value normalisation (XML 1.0 §3.3.3) gives them back.
 */
export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/["\t\n\r]/g, (c) =>
    c === '"' ? "&quot;" : `&#${c.charCodeAt(0)};`,
  );
}

/** The declaration every document the codec writes starts with (RFC 7303 §9.1: UTF-8). */
export const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
