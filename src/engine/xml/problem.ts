/**
 * A problem in RFC 9457's XML format (Appendix B): the root element `problem` in the
 * namespace `urn:ietf:rfc:7807`, each member an element of that name in the same namespace;
 * an object member's members as its child elements, and an array's items as elements named
 * `i` ("elements that contain only child element(s) named 'i' ... are considered arrays").
 */
import { DECLARATION, escapeText, NCNAME } from "./text";

/** The problem document's namespace (RFC 9457 Appendix B). */
const PROBLEM_NAMESPACE = "urn:ietf:rfc:7807";

class NotAnElementName extends Error {}

function member(name: string, value: unknown): string {
  if (value === undefined) return "";
  if (!NCNAME.test(name)) throw new NotAnElementName(name);
  if (value === null) return `<${name}/>`;
  let content: string;
  if (Array.isArray(value)) content = value.map((item) => member("i", item)).join("");
  else if (typeof value === "object")
    content = Object.entries(value)
      .map(([key, item]) => member(key, item))
      .join("");
  else if (typeof value === "number" && !Number.isFinite(value)) content = "";
  else content = escapeText(String(value));
  return content === "" ? `<${name}/>` : `<${name}>${content}</${name}>`;
}

/**
 * The problem as XML; undefined when a member (at any depth) has a name no element can
 * have, or holds a character XML cannot carry, so the problem is sent as JSON instead.
 */
export function problemXml(problem: Readonly<Record<string, unknown>>): string | undefined {
  try {
    const members = Object.entries(problem)
      .map(([name, value]) => member(name, value))
      .join("");
    return `${DECLARATION}<problem xmlns="${PROBLEM_NAMESPACE}">${members}</problem>`;
  } catch (error) {
    if (error instanceof NotAnElementName || error instanceof TypeError) return undefined;
    throw error;
  }
}
