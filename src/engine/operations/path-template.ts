/**
 * OpenAPI path templates (`/items/{id}`, OpenAPI 3.1 §4.8.2) and their Hono form
 * (`/items/:id`). A template the platform could route wrongly is refused when the app
 * starts, with the operation's id in the message.
 */
import { keyPairs, pathKeyParts } from "../../contract-language/path-key";
import { SERVICE_PREFIX } from "../../platform/paths";

// A parameter's name: what real documents use (`{id}`, `{user-id}`, `{user.id}`), none of
// the characters that end a template expression or a segment, or are Hono's route syntax.
const PARAMETER_SEGMENT = /^\{([A-Za-z0-9_][A-Za-z0-9_.-]*)\}$/;
// RFC 3986 §3.3 pchar, without Hono's own syntax (`*`, and `:` that starts a segment).
// A `:` inside a segment is text to Hono (`/hashes:search`, AIP-136's custom methods).
const LITERAL_SEGMENT = /^(?!:)[A-Za-z0-9\-._~!$&'()+,;=:@%]*$/;
// RFC 3986 §3.3 pchar, all of it: a literal segment Hono would read as its syntax (`*`, a
// leading `:`) is routed by a pattern that matches its text alone.
const PCHAR_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;

interface RoutePath {
  /** The path as Hono routes it: `{id}` becomes `:id`. */
  readonly path: string;
  /** The template's parameter names, in order. */
  readonly parameters: readonly string[];
  /** Parameters with a segment of their own (`/{id}`); those beside text are half literal. */
  readonly ownSegments: number;
  /** Segments of text beside parameters (`{id}.json`): less concrete than a literal one. */
  readonly mixedSegments: number;
  /**
   * The template's parameters, each as its text stands in `path`, the path the router
   * matched (Hono's, where only escapes of unreserved characters are decoded): a value's
   * own `,` `;` `=` stay `%2C` `%3B` `%3D`, so a `label` or `matrix` value is split before
   * it is decoded (src/engine/request/parameters.ts). A segment that mixes text and
   * parameters (`{id}.json`, `{name}:cancel`) is taken apart.
   */
  readonly read: (path: string) => Record<string, string>;
}

/** A segment such as `{id}.json`: Hono matches it whole, under `key`, and `split` takes it apart. */
interface MixedSegment {
  readonly key: string;
  readonly split: RegExp;
  readonly names: readonly string[];
}

const EXPRESSION = /\{([^{}]*)\}/g;
const PARAMETER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
/** An own, enumerable property: a parameter named `__proto__` stays a plain member. */
const own = (value: string): PropertyDescriptor => ({
  value,
  enumerable: true,
  writable: true,
  configurable: true,
});

/**
 * Checks a path template and turns it into a Hono path. A key's query (fixed `name=value`
 * pairs, or `name={parameter}`) and fragment are not routed (src/contract-language/path-key.ts).
 */
export function routePath(id: string, key: string): RoutePath {
  const fail = (why: string) => new Error(`operation ${id}: path ${JSON.stringify(key)} ${why}`);
  const { path: template, query } = pathKeyParts(key);
  if (query !== undefined && keyPairs(query) === undefined)
    throw fail("has a query that is not name=value pairs, each name once");
  if (!template.startsWith("/")) throw fail("must start with /");
  if (template === SERVICE_PREFIX || template.startsWith(`${SERVICE_PREFIX}/`)) {
    throw fail(`is inside the platform's reserved prefix ${SERVICE_PREFIX}`);
  }
  const parameters: string[] = [];
  const mixed: MixedSegment[] = [];
  const add = (name: string) => {
    if (parameters.includes(name)) throw fail(`repeats the parameter ${name}`);
    parameters.push(name);
  };
  const segments = template
    .split("/")
    .slice(1)
    .map((segment) => {
      const parameter = PARAMETER_SEGMENT.exec(segment)?.[1];
      if (parameter) {
        add(parameter);
        return `:${parameter}`;
      }
      // Text and parameters in one segment (OpenAPI 3.1 §4.8.2 allows it): Hono matches the
      // segment whole with a pattern, and the parameters are read from it afterwards. Each
      // takes at least one character and as few as it can, so `{a}.{b}` splits at the first dot.
      const names = [...segment.matchAll(EXPRESSION)].map((m) => m[1] ?? "");
      const text = segment.split(EXPRESSION).filter((_, i) => i % 2 === 0);
      if (
        !names.every((name) => PARAMETER_NAME.test(name)) ||
        !text.every((part) => PCHAR_SEGMENT.test(part))
      )
        throw fail("has a segment that is neither literal nor {name}, nor text with {name}s");
      if (names.length === 0 && LITERAL_SEGMENT.test(segment)) return segment;
      for (const name of names) add(name);
      const pattern = text.map(escapeRegExp).join("([^/]+?)");
      const key = `__segment${mixed.length}`;
      mixed.push({ key, split: new RegExp(`^${pattern}$`), names });
      return `:${key}{${pattern.replaceAll("([^/]+?)", "[^/]+?")}}`;
    });
  // The template's segments, from the last: a prefix the template does not have (part 9's
  // version segment) stands before them.
  const parts = segments.map((segment, index) => {
    const name = PARAMETER_SEGMENT.exec(template.split("/")[index + 1] ?? "")?.[1];
    if (name) return { names: [name] };
    const beside = mixed.find((m) => segment.startsWith(`:${m.key}{`));
    return beside ? { names: beside.names, split: beside.split } : { names: [] };
  });
  const read = (path: string) => {
    const params: Record<string, string> = {};
    const texts = path.split("/").slice(-parts.length);
    parts.forEach((part, i) => {
      const text = texts[i] ?? "";
      if (!part.split) {
        if (part.names[0] !== undefined) Object.defineProperty(params, part.names[0], own(text));
        return;
      }
      const found = part.split.exec(text);
      part.names.forEach((name, j) => {
        Object.defineProperty(params, name, own(found?.[j + 1] ?? ""));
      });
    });
    return params;
  };
  const beside = mixed.reduce((n, segment) => n + segment.names.length, 0);
  return {
    path: `/${segments.join("/")}`,
    parameters,
    ownSegments: parameters.length - beside,
    mixedSegments: mixed.length,
    read,
  };
}

/** Two templates that route alike: the same path once parameter names are set aside. */
export function routeShape(path: string): string {
  return path.replace(/(?<=\/):[^/{]+(\{[^}]*\})?/g, ":$1");
}
