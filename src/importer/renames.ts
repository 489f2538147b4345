/**
 * What the import named otherwise than the source did, as the served document says it. The
 * round-trip report (compare.ts) maps the source's names through it, so a rename is one
 * item, where the import made it, and not a loss again at everything that refers to the
 * renamed thing: a client that follows a `$ref` to the renamed component finds the same
 * schema under its new name.
 *
 * A component schema that takes the name of one of the platform's own (`Problem`) is served
 * under another (`SpecProblem`), which says the source's name in `x-renamed-from`
 * (contract-code.ts). An operationId another operation has is numbered (`list2`).
 */
import { VIEW_OF } from "../contract-language/document-marks";
import { RENAMED_FROM } from "./names";
import { isObject, type Json } from "./source";

const SCHEMAS = "#/components/schemas/";

/** The component name a `#/components/schemas/<name>` reference names (RFC 6901 unescaped). */
function schemaName(ref: string): string | undefined {
  if (!ref.startsWith(SCHEMAS) || ref.slice(SCHEMAS.length).includes("/")) return undefined;
  let token = ref.slice(SCHEMAS.length);
  try {
    token = decodeURIComponent(token);
  } catch {
    // Not percent-encoded after all: the name as written.
  }
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Whether `name` is `base`, or `base` numbered: the importer's way to give a second thing
 * a name already taken (an operationId used twice, a second callback named alike).
 */
export const numbered = (name: string, base: string): boolean =>
  name.startsWith(base) && /^\d*$/.test(name.slice(base.length));

/** A reference to the component schema `name`, escaped as a JSON Pointer. */
const schemaRef = (name: string) => `${SCHEMAS}${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;

/** The names the served document gives what the source names otherwise, read once. */
export class Renames {
  /** The served name of each renamed component schema, by its source name. */
  readonly #schemas = new Map<string, string>();
  /** The resource each served view (`X-Input`, `X-Output`, `x-view-of`) is one direction of. */
  readonly #views = new Map<string, string>();
  readonly #served: Json;
  /** Every operationId the served document's paths use. */
  readonly #operationIds = new Set<string>();

  constructor(served: Json) {
    this.#served =
      isObject(served.components) && isObject(served.components.schemas)
        ? served.components.schemas
        : {};
    for (const [name, schema] of Object.entries(this.#served)) {
      if (isObject(schema) && typeof schema[RENAMED_FROM] === "string")
        this.#schemas.set(schema[RENAMED_FROM], name);
      const view = isObject(schema) ? schema[VIEW_OF] : undefined;
      if (isObject(view) && typeof view.resource === "string") this.#views.set(name, view.resource);
    }
    for (const item of Object.values(isObject(served.paths) ? served.paths : {}))
      for (const op of Object.values(isObject(item) ? item : {}))
        if (isObject(op) && typeof op.operationId === "string")
          this.#operationIds.add(op.operationId);
  }

  /**
   * Why an operation is served under `servedId` rather than the source's `id`, when the
   * importer's naming explains it: another served operation has the id (the source used it
   * twice, or an id derived from a method and path took it first), so this one is numbered.
   */
  operationId(id: string, servedId: string): string | undefined {
    if (servedId === id || !numbered(servedId, id) || !this.#operationIds.has(id)) return undefined;
    return `served as ${servedId}: another operation is ${id}`;
  }

  /**
   * A served reference as the resource it reaches: a reference to one of a resource's views
   * is to the resource (the view is that resource in one direction, its keywords the same).
   */
  resource(ref: string): string {
    const name = schemaName(ref);
    const resource = name === undefined ? undefined : this.#views.get(name);
    return resource === undefined ? ref : schemaRef(resource);
  }

  /** The name a source component schema is served under: its own, unless the import renamed it. */
  schema(name: string): string {
    return this.#schemas.get(name) ?? name;
  }

  /**
   * Whether the served schema named `name` is the platform's own (`x-platform`): the
   * source's schema of that name, if it has one, is not the one served there.
   */
  isPlatformSchema(name: string): boolean {
    const schema = this.#served[name];
    return isObject(schema) && schema["x-platform"] === true;
  }

  /**
   * The served reference for a source one: a reference to a whole renamed component is to
   * its new name; any other (a component of the same name, a pointer into one) is as written.
   */
  ref(ref: string): string {
    const name = schemaName(ref);
    if (name === undefined) return ref;
    const served = this.schema(name);
    return served === name ? ref : schemaRef(served);
  }

  /**
   * Whether a source reference to a whole component lands, in the served document, on the
   * platform's own schema of that name (the source's was not served under another).
   */
  landsOnPlatformSchema(ref: string): boolean {
    const name = schemaName(ref);
    return name !== undefined && this.schema(name) === name && this.isPlatformSchema(name);
  }

  /**
   * A discriminator as the served document should say it: a mapping to a renamed component
   * (a reference or a bare name, OpenAPI 3.1 §4.8.25) names it by its new name.
   */
  discriminator(discriminator: unknown): unknown {
    if (!isObject(discriminator) || !isObject(discriminator.mapping)) return discriminator;
    // (The served mapping may name a resource's view; `servedDiscriminator` reads it back.)
    const mapping = Object.entries(discriminator.mapping).map(([key, target]) => [
      key,
      typeof target !== "string"
        ? target
        : target.startsWith("#")
          ? this.ref(target)
          : this.schema(target),
    ]);
    return { ...discriminator, mapping: Object.fromEntries(mapping) };
  }
}

/**
 * A resource only its direction views stand for in a served document (its own component
 * left out), read back from them: their members, each required where either view requires
 * it (each view leaves out only what its direction may omit). Undefined without a view.
 */
export function resourceFromViews(schemas: Json, resource: string): Json | undefined {
  const views = Object.values(schemas).filter(
    (schema): schema is Json =>
      isObject(schema) && isObject(schema[VIEW_OF]) && schema[VIEW_OF].resource === resource,
  );
  const [first] = views;
  if (!first) return undefined;
  const required = new Set(
    views.flatMap((view) => (Array.isArray(view.required) ? view.required : [])),
  );
  const { [VIEW_OF]: _view, "x-derived": _derived, ...own } = first;
  return { ...own, ...(required.size > 0 ? { required: [...required] } : {}) };
}

/** A served discriminator with each mapping to a resource's view read as to the resource. */
export function servedDiscriminator(renames: Renames, discriminator: unknown): unknown {
  if (!isObject(discriminator) || !isObject(discriminator.mapping)) return discriminator;
  const mapping = Object.entries(discriminator.mapping).map(([key, target]) => [
    key,
    typeof target === "string" && target.startsWith("#") ? renames.resource(target) : target,
  ]);
  return { ...discriminator, mapping: Object.fromEntries(mapping) };
}
