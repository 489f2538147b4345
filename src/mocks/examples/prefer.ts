/**
 * The `Prefer` request header (RFC 7240), read for the preferences the examples setting
 * honours, as Stoplight Prism reads them: `code=<status>`, `example=<name>`,
 * `dynamic=true`. RFC 7240 §2: preference names are case-insensitive, only the first
 * instance of a preference counts, an empty value is no value, parameters after `;` are
 * ignored here, and a preference the server cannot honour is ignored, never an error.
 */

/** The preferences of one request, by lower-case name, each with its value ("" for none). */
type Preferences = ReadonlyMap<string, string>;

/** Splits `text` on `separator` outside quoted strings (RFC 9110 §5.6.4). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted && char === "\\" && i + 1 < text.length) {
      current += char + text[i + 1];
      i += 1;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** A `word` (RFC 7240 §2): a token as it is, a quoted string without its quotes and escapes. */
function wordOf(text: string): string {
  const word = text.trim();
  if (word.length < 2 || !word.startsWith('"') || !word.endsWith('"')) return word;
  return word.slice(1, -1).replace(/\\(.)/g, "$1");
}

/** The preferences a `Prefer` header (several are joined with commas) states. */
export function readPreferences(header: string | null): Preferences {
  const preferences = new Map<string, string>();
  if (!header) return preferences;
  for (const preference of splitOutsideQuotes(header, ",")) {
    const [head = ""] = splitOutsideQuotes(preference, ";");
    const equals = head.indexOf("=");
    const name = (equals === -1 ? head : head.slice(0, equals)).trim().toLowerCase();
    if (name === "" || preferences.has(name)) continue;
    preferences.set(name, equals === -1 ? "" : wordOf(head.slice(equals + 1)));
  }
  return preferences;
}

/**
 * The `Preference-Applied` value for the preferences honoured (RFC 7240 §3), each written as
 * it was asked; a value that is not a token is quoted.
 */
export function preferenceApplied(applied: readonly (readonly [string, string])[]): string {
  const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
  return applied
    .map(([name, value]) =>
      token.test(value) ? `${name}=${value}` : `${name}="${value.replace(/(["\\])/g, "\\$1")}"`,
    )
    .join(", ");
}
