/**
 * OpenAPI path templates (`/items/{id}`, OpenAPI 3.1 §4.8.2) and their Hono form
 * (`/items/:id`). A template the platform could route wrongly is refused when the app
 * starts, with the operation's id in the message.
 */
import { SERVICE_PREFIX } from "../../platform/paths";

const PARAMETER_SEGMENT = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
// RFC 3986 §3.3 pchar, without Hono's own syntax (`:`, `*`, `{`, `}`, `?`).
const LITERAL_SEGMENT = /^[A-Za-z0-9\-._~!$&'()+,;=@%]*$/;

export interface RoutePath {
  /** The path as Hono routes it: `{id}` becomes `:id`. */
  readonly path: string;
  /** The template's parameter names, in order. */
  readonly parameters: readonly string[];
}

/** Checks a path template and turns it into a Hono path. */
export function routePath(id: string, template: string): RoutePath {
  const fail = (why: string) =>
    new Error(`operation ${id}: path ${JSON.stringify(template)} ${why}`);
  if (!template.startsWith("/")) throw fail("must start with /");
  if (template === SERVICE_PREFIX || template.startsWith(`${SERVICE_PREFIX}/`)) {
    throw fail(`is inside the platform's reserved prefix ${SERVICE_PREFIX}`);
  }
  const parameters: string[] = [];
  const segments = template
    .split("/")
    .slice(1)
    .map((segment) => {
      const parameter = PARAMETER_SEGMENT.exec(segment)?.[1];
      if (parameter) {
        if (parameters.includes(parameter)) throw fail(`repeats the parameter ${parameter}`);
        parameters.push(parameter);
        return `:${parameter}`;
      }
      if (!LITERAL_SEGMENT.test(segment))
        throw fail("has a segment that is neither literal nor {name}");
      return segment;
    });
  return { path: `/${segments.join("/")}`, parameters };
}

/** Two templates that route alike: the same path once parameter names are set aside. */
export function routeShape(path: string): string {
  return path.replace(/:[^/]+/g, ":");
}
