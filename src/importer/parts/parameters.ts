/**
 * Part 4's parameters: the path item's, overridden by the operation's of the same name and
 * place; the path template decides the path parameters. Each is a member of its place's
 * object schema, read from text, with its style, explode and allowReserved as metadata
 * (src/contract-language/parameters.ts).
 */
import { PARAMETER_STYLES } from "../../contract-language/parameters";
import { keyPairs, pathKeyParts } from "../../contract-language/path-key";
import { lazyCode, propertyKey } from "../schema-code";
import { child, componentOf, follow, isObject, type Json } from "../source";
import { extensionsLost } from "./context";
import type { Endpoint } from "./endpoint";
import type { PageSizes } from "./limits";
import { fieldKey } from "./security";

interface Parameter {
  readonly node: Json;
  readonly pointer: string;
  /** The components parameter it refers to, by name. */
  readonly component?: string;
}

/** Where an operation is: its path, its path item, and the operation itself. */
export interface OperationSite {
  /** The path the operation is served at: its key, or the template it is the same as. */
  readonly path: string;
  /** Its path parameters' names in the key, where the served path names them otherwise. */
  readonly renamed?: ReadonlyMap<string, string>;
  /** Query values that tell it apart on its method and path, from its key's fragment. */
  readonly fixed?: Readonly<Record<string, string>>;
  readonly item: Json;
  readonly itemPointer: string;
  readonly op: Json;
  readonly pointer: string;
  readonly id: string;
}

/** The request's members by place: `params`, `query`, `headers`, `cookies`, each an object schema. */
export function requestParameters(ep: Endpoint, site: OperationSite, limits: PageSizes): string[] {
  const { findings } = ep.ctx;
  const { path, pointer } = site;
  const parameters = collected(ep, site);
  const byPlace: Record<string, string[]> = { path: [], query: [], header: [], cookie: [] };
  // The path template decides the path parameters (the platform checks both agree); a
  // `{name}` in the key's query (`?platform={platform}`) is a query parameter.
  const { path: routed, query } = pathKeyParts(path);
  const templated = [...routed.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const inQuery = new Set(query === undefined ? [] : (keyPairs(query)?.templated ?? []));
  for (const name of inQuery) {
    const declared = parameters.get(`path\n${name}`);
    if (declared) {
      parameters.delete(`path\n${name}`);
      findings.changed(
        declared.pointer,
        `path parameter ${name} stands in the key's query (${query}): read as a query parameter`,
      );
      // Not shared as a component: a query member is read and documented as the query's.
      parameters.set(`query\n${name}`, {
        node: { ...withoutPathStyle(declared.node), in: "query" },
        pointer: declared.pointer,
      });
    } else if (!parameters.has(`query\n${name}`)) {
      findings.changed(
        pointer,
        `query parameter {${name}} of the key is not declared: read as a string`,
      );
      parameters.set(`query\n${name}`, {
        node: { name, in: "query", required: false, schema: { type: "string" } },
        pointer,
      });
    }
  }
  for (const name of templated)
    if (!parameters.has(`path\n${name}`)) {
      findings.changed(pointer, `path parameter {${name}} is not declared: read as a string`);
      parameters.set(`path\n${name}`, {
        node: { name, in: "path", required: true, schema: { type: "string" } },
        pointer,
      });
    }
  const carriers = credentialCarriers(ep, site);
  for (const parameter of parameters.values()) {
    const member = memberOf(ep, parameter, { path, templated, byPlace, carriers });
    if (!member) continue;
    (byPlace[member.location] as string[]).push(member.code);
    // Part 8: a page-size bound the document makes unambiguous.
    const schema = follow(
      ep.ctx.document,
      parameter.node.schema,
      child(parameter.pointer, "schema"),
    ).node;
    limits.note(member.location, String(parameter.node.name), parameter.node, schema, site.id);
  }
  const place = { path: "params", query: "query", header: "headers", cookie: "cookies" } as const;
  return Object.entries(byPlace)
    .filter(([, members]) => members.length > 0)
    .map(
      ([location, members]) =>
        `${place[location as keyof typeof place]}: ${lazyCode(`z.object({ ${members.join(", ")} })`)}`,
    );
}

/**
 * Where the operation's API keys travel (its own security, else the document's), by place
 * and name, with the scheme of each. The platform reads such a field as the credential and
 * keeps it from the input the operation's schemas check (so no handler ever sees a key), so
 * a document that also declares it a parameter (Trello's `key` and `token`) would have it
 * required and never given.
 */
function credentialCarriers(ep: Endpoint, site: OperationSite): Map<string, string> {
  const { document } = ep.ctx;
  const security = Array.isArray(site.op.security) ? site.op.security : document.security;
  const schemes = isObject(document.components) ? document.components.securitySchemes : undefined;
  const carriers = new Map<string, string>();
  if (!Array.isArray(security) || !isObject(schemes)) return carriers;
  for (const requirement of security)
    for (const name of isObject(requirement) ? Object.keys(requirement) : []) {
      const scheme = follow(document, schemes[name], "").node;
      if (isObject(scheme) && scheme.type === "apiKey")
        carriers.set(fieldKey(String(scheme.in), String(scheme.name)), name);
    }
  return carriers;
}

/** A parameter without a style only a path has (`simple`, `label`, `matrix`). */
function withoutPathStyle(node: Json): Json {
  if (typeof node.style !== "string" || PARAMETER_STYLES.query.includes(node.style as never))
    return node;
  const { style: _style, explode: _explode, ...rest } = node;
  return rest;
}

/** The path item's parameters, then the operation's, by place and name. */
function collected(ep: Endpoint, site: OperationSite): Map<string, Parameter> {
  const parameters = new Map<string, Parameter>();
  const collect = (list: unknown, at: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const here = child(at, "parameters", i);
      const followed = follow(ep.ctx.document, raw, here);
      if (!isObject(followed.node)) return;
      const p = followed.node;
      const component =
        isObject(raw) && typeof raw.$ref === "string" ? componentOf(raw.$ref) : undefined;
      // A path parameter of a template served under another's names takes that name.
      const name = (p.in === "path" && site.renamed?.get(String(p.name))) || String(p.name);
      parameters.set(`${String(p.in)}\n${name}`, {
        node: name === p.name ? p : { ...p, name },
        pointer: component ? followed.pointer : here,
        ...(component?.kind === "parameters" ? { component: component.name } : {}),
      });
    });
  };
  collect(site.item.parameters, site.itemPointer);
  collect(site.op.parameters, site.pointer);
  return parameters;
}

/** One parameter as its place's member, or undefined where it is not one (reported). */
function memberOf(
  ep: Endpoint,
  { node: p, pointer: at, component }: Parameter,
  where: {
    path: string;
    templated: readonly string[];
    byPlace: Record<string, string[]>;
    carriers: ReadonlyMap<string, string>;
  },
): { location: string; code: string } | undefined {
  const { findings } = ep.ctx;
  const location = String(p.in);
  const name = String(p.name);
  const scheme = where.carriers.get(fieldKey(location, name));
  if (scheme !== undefined) {
    findings.changed(
      at,
      `${location} parameter ${name}: the credential of security scheme ${scheme}, read as that credential and kept from the operation's input`,
    );
    return undefined;
  }
  if (location === "path" && !where.templated.includes(name)) {
    findings.lost(at, `path parameter ${name} is not in the path ${where.path}`);
    return undefined;
  }
  if (!(location in where.byPlace)) {
    findings.lost(at, `a parameter in ${location}`);
    return undefined;
  }
  if (
    location === "header" &&
    ["accept", "content-type", "authorization"].includes(name.toLowerCase())
  ) {
    findings.changed(
      at,
      `header ${name}: OpenAPI says such a parameter is ignored (3.1 §4.8.12.1); the platform handles it`,
    );
    return undefined;
  }
  const key = location === "header" ? name.toLowerCase() : name;
  const code = component
    ? ep.shared.schema(`parameters/${component}`, component, "Parameter", () =>
        parameterMember(ep, p, at),
      )
    : parameterMember(ep, p, at);
  return { location, code: `${propertyKey(key)}: ${code}` };
}

/** A parameter (or a response header) as a member of its part's object schema. */
export function parameterMember(ep: Endpoint, p: Json, pointer: string): string {
  const { findings } = ep.ctx;
  let schema: unknown = p.schema;
  if (schema === undefined && isObject(p.content)) {
    const [type, media] = Object.entries(p.content)[0] ?? [];
    findings.lost(child(pointer, "content"), `a parameter serialised as ${type}: read as text`);
    schema = isObject(media) && isObject(media.schema) ? { type: "string" } : undefined;
  }
  const annotated: Json = isObject(schema) ? { ...schema } : {};
  if (typeof p.description === "string") {
    if (typeof annotated.description === "string" && annotated.description !== p.description)
      findings.lost(
        child(pointer, "schema", "description"),
        "the schema's own description (the parameter's is kept)",
      );
    annotated.description = p.description;
  }
  if (p.deprecated === true) annotated.deprecated = true;
  const examples = parameterExamples(ep, p, pointer);
  if (examples.length > 0) annotated.examples = examples;
  const location = String(p.in);
  // A negotiation header (RFC 9110 §12.5) is a weighted list every browser and fetch sends
  // (`Accept-Language: en-US,en;q=0.9`, `*`), which an enum of single values would refuse:
  // its values are kept as examples, and any list is read.
  if (
    location === "header" &&
    NEGOTIATION.has(String(p.name).toLowerCase()) &&
    Array.isArray(annotated.enum)
  ) {
    findings.notEnforced(
      child(pointer, "schema", "enum"),
      `enum of the ${String(p.name)} header: a weighted list that clients send on their own (RFC 9110 §12.5): its values are documented as examples, not checked`,
    );
    const given = Array.isArray(annotated.examples) ? annotated.examples : [];
    annotated.examples = [...new Set([...given, ...annotated.enum])];
    delete annotated.enum;
  }
  Object.assign(annotated, serialisationOf(ep, p, pointer, location, schema));
  if ("allowEmptyValue" in p)
    findings.lost(child(pointer, "allowEmptyValue"), "allowEmptyValue: not read");
  extensionsLost(ep.ctx, p, pointer, "the parameter");
  const required = location === "path" || p.required === true;
  return ep.writer.member(annotated, child(pointer, "schema"), required, "parameter");
}

/** Request headers whose value is a weighted list of what the client accepts (RFC 9110 §12.5). */
const NEGOTIATION: ReadonlySet<string> = new Set([
  "accept-charset",
  "accept-encoding",
  "accept-language",
]);

/** A parameter's example values, as its schema's `examples`. */
function parameterExamples(ep: Endpoint, p: Json, pointer: string): unknown[] {
  const examples: unknown[] = [];
  if ("example" in p) examples.push(p.example);
  if (isObject(p.examples))
    for (const [name, raw] of Object.entries(p.examples)) {
      const { node } = follow(ep.ctx.document, raw, child(pointer, "examples", name));
      if (isObject(node) && "value" in node) examples.push(node.value);
    }
  return examples;
}

/**
 * A parameter's `style`, `explode` and `allowReserved`, as the source says them, to be
 * carried as its schema's metadata (src/contract-language/parameters.ts); what OpenAPI 3.1
 * §4.8.12.4 does not define for its location or its kind of value is reported instead,
 * and the parameter is read by its location's defaults.
 */
function serialisationOf(
  ep: Endpoint,
  p: Json,
  pointer: string,
  location: string,
  schema: unknown,
): Json {
  const { findings } = ep.ctx;
  const carried: Json = {};
  const styles = (PARAMETER_STYLES as Readonly<Record<string, readonly string[]>>)[location];
  if (typeof p.style === "string") {
    const types = ep.writer.typesOf(schema);
    if (!styles?.includes(p.style))
      findings.lost(
        child(pointer, "style"),
        `style ${p.style}: not a style of ${location} parameters (OpenAPI 3.1 §4.8.12.4); read as ${styles?.[0] ?? "text"}`,
      );
    else if (p.style === "deepObject" && !types.has("object"))
      findings.lost(
        child(pointer, "style"),
        "style deepObject for a value that is no object (OpenAPI 3.1 §4.8.12.4): read as form",
      );
    else carried.style = p.style;
  }
  if (typeof p.explode === "boolean") carried.explode = p.explode;
  if (typeof p.allowReserved === "boolean") {
    if (location === "query") carried.allowReserved = p.allowReserved;
    else
      findings.lost(
        child(pointer, "allowReserved"),
        "allowReserved: it applies to query parameters only (OpenAPI 3.1 §4.8.12.4)",
      );
  }
  return carried;
}
