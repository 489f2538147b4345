/**
 * Names the importer gives what it writes: TypeScript identifiers for component schemas
 * and shared declarations, operation ids derived from method and path, Worker secret and
 * var names from a security scheme's name. Each is deterministic, so importing the same
 * document twice writes the same contract.
 */

/**
 * On a component schema the import renamed: the name the source document gave it. The
 * round-trip report (compare.ts) reads it to map the source's references to the new name.
 */
export const RENAMED_FROM = "x-renamed-from";

/** Names the generated modules use themselves, globals a module should not shadow, and reserved words. */
const TAKEN = new Set([
  "z",
  "resources",
  "operations",
  "securitySchemes",
  "events",
  "errors",
  "limits",
  "purpose",
  "versioning",
  "states",
  "Schema",
  "readOnly",
  "writeOnly",
  "numberFromText",
  "booleanFromText",
  "dateTimeFormat",
  "emailFormat",
  "uriFormat",
  "pattern",
  "Array",
  "ArrayBuffer",
  "BigInt",
  "Blob",
  "Boolean",
  "Date",
  "Error",
  "Event",
  "File",
  "FormData",
  "Function",
  "Headers",
  "Infinity",
  "Intl",
  "JSON",
  "Map",
  "Math",
  "NaN",
  "Number",
  "Object",
  "Promise",
  "Proxy",
  "Reflect",
  "RegExp",
  "Request",
  "Response",
  "Set",
  "String",
  "Symbol",
  "TypeError",
  "RangeError",
  "URL",
  "URLSearchParams",
  "Uint8Array",
  "WeakMap",
  "WeakSet",
  "WebSocket",
  "Env",
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "undefined",
  "var",
  "void",
  "while",
  "with",
  "yield",
]);

/** The words of a name: split at anything not a letter or digit. */
const words = (name: string) => name.split(/[^A-Za-z0-9]+/).filter(Boolean);

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** PascalCase of a name's words (`pet-status` → `PetStatus`; `SpecialEvent` stays). */
export function pascal(name: string): string {
  return words(name).map(capitalised).join("");
}

/** Hands out identifiers, unique within one module. */
export class Identifiers {
  readonly #used = new Set<string>(TAKEN);

  /** An identifier for `name`, with `suffix` when the name alone cannot be one. */
  take(name: string, suffix: string): string {
    let base = pascal(name);
    if (base === "" || /^[0-9]/.test(base) || TAKEN.has(base)) base = `${base}${suffix}`;
    if (/^[0-9]/.test(base)) base = `${suffix}${base}`;
    let id = base;
    for (let n = 2; this.#used.has(id); n += 1) id = `${base}${n}`;
    this.#used.add(id);
    return id;
  }
}

/** `getSpecialEventsByEventId` for `GET /special-events/{eventId}`: an id from method and path. */
export function derivedOperationId(method: string, path: string): string {
  const segments = path.split("/").filter(Boolean);
  const fixed = segments.filter((s) => !s.startsWith("{")).flatMap(words);
  const params = segments.filter((s) => s.startsWith("{")).flatMap(words);
  const by = params.length > 0 ? `By${params.map(capitalised).join("And")}` : "";
  return `${method.toLowerCase()}${fixed.map(capitalised).join("")}${by}` || method.toLowerCase();
}

/**
 * `MUSEUM_PLACEHOLDER_AUTH` for `MuseumPlaceholderAuth`: a Worker secret or var name that
 * reads as the scheme's name does. A word starts at a capital after a lower-case letter or
 * digit, or at the last capital of an acronym of two or more (`APIKey` is API_KEY), so a
 * single leading capital stays with its word (`OAuth2` is OAUTH2, not O_AUTH2), and so
 * does a single leading lower-case letter (`oAuthToken` is OAUTH_TOKEN).
 */
export function screamingSnake(name: string): string {
  const spaced = name
    .replace(/(?<!^)([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]{2,})([A-Z][a-z])/g, "$1_$2");
  const snake = words(spaced).join("_").toUpperCase();
  return /^[A-Z]/.test(snake) ? snake : `KEY_${snake}`;
}
