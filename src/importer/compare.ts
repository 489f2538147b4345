/**
 * The round trip, measured: the OpenAPI document the service serves compared with the
 * source it was imported from, category by category. Every item the source states (an
 * operation, a parameter's `required`, a schema keyword, an example's value, …) is either
 * kept in the served document at the same place, or a loss, with its JSON Pointer in the
 * source. What the served document adds (the platform's problems, `/_service`, stricter
 * bounds zod writes) is not counted: only what the source says is.
 *
 * Both documents are read in OpenAPI 3.1's dialect (a 3.0 source is normalised first), and
 * `$ref`s to component schemas are compared as references: keeping one means referring to
 * the same component by name. A schema of a body, a parameter or a response counts as one
 * item (the whole of it must be carried); a component schema counts one item per keyword,
 * at any depth, so one lost keyword does not count as a lost schema.
 *
 * A change is counted once, where its cause is. What the import names otherwise is one
 * item, kept and marked `changed`, and what refers to it is compared through the new name
 * (renames.ts): a component schema renamed because the platform's own has its name (its
 * keywords are compared with the served schema of the new name; a `$ref` or a
 * discriminator's mapping to it is kept where it names the new one), an operationId the
 * import numbered or gave an event's name, a callback sent as a numbered event. A security
 * scheme the platform cannot verify is one loss, at the scheme, not one more at each
 * operation it guarded; a component the import writes out in place (a form's) is compared
 * with what is written out.
 */
import { EMITS } from "../contract-language/document-marks";
import { numbered, Renames, resourceFromViews, servedDiscriminator } from "./renames";
import { child, follow, isObject, type Json } from "./source";
import { normaliseDocument } from "./walk";

export const CATEGORIES = [
  "operations",
  "parameters",
  "request bodies",
  "responses",
  "response headers",
  "schemas",
  "security",
  "webhooks",
  "examples",
  "tags",
  "servers",
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Item {
  readonly category: Category;
  readonly pointer: string;
  readonly kept: boolean;
  /** What is lost, when it is. */
  readonly note?: string;
  /**
   * How it is carried differently, when it is kept under another name: the one item that
   * says so, where the import made the change (what refers to it is compared through it).
   */
  readonly changed?: string;
}

export interface Comparison {
  readonly items: readonly Item[];
  readonly byCategory: ReadonlyMap<Category, { kept: number; total: number }>;
  readonly kept: number;
  readonly total: number;
  /** kept / total over every item; 1 when the source states nothing. */
  readonly fidelity: number;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** The served webhook a source webhook or callback operation is sent as. */
interface Event {
  /** The event's name: the served webhook's, and its operationId. */
  readonly name: string;
  /** Why it is not the source's name, when it is not (one `changed` item). */
  readonly renamed?: string;
}

/** JSON values equal whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && sameJson(a[key], b[key]));
}

const regexSource = (pattern: unknown) => {
  if (typeof pattern !== "string") return pattern;
  try {
    return new RegExp(pattern, /\\[pP]\{/.test(pattern) ? "u" : "").source;
  } catch {
    return pattern;
  }
};

export function compareDocuments(
  sourceDocument: Json,
  sourceMajor: "3.0" | "3.1",
  servedDocument: Json,
): Comparison {
  return new DocumentComparer(normaliseDocument(sourceDocument, sourceMajor), servedDocument).run();
}

/** The figures of a list of items: per category and overall. */
function tally(items: readonly Item[]): Comparison {
  const byCategory = new Map<Category, { kept: number; total: number }>();
  for (const category of CATEGORIES) byCategory.set(category, { kept: 0, total: 0 });
  for (const item of items) {
    const figure = byCategory.get(item.category) as { kept: number; total: number };
    figure.total += 1;
    if (item.kept) figure.kept += 1;
  }
  const kept = items.filter((i) => i.kept).length;
  return {
    items,
    byCategory,
    kept,
    total: items.length,
    fidelity: items.length === 0 ? 1 : kept / items.length,
  };
}

const paths = (document: Json): Json => (isObject(document.paths) ? document.paths : {});

/** The components of one kind (`schemas`, `securitySchemes`) of a document. */
const components = (document: Json, kind: string): Json =>
  isObject(document.components) && isObject(document.components[kind])
    ? (document.components[kind] as Json)
    : {};

/**
 * The comparison of one source (in 3.1's dialect) with the served document, one method per
 * category, so each category's rules can be read on their own.
 */
class DocumentComparer {
  readonly #source: Json;
  readonly #served: Json;
  readonly #items: Item[] = [];
  readonly #schemas: SchemaComparer;
  readonly #renames: Renames;
  /** The security schemes the source declares and the served document does not. */
  readonly #unserved: ReadonlySet<string>;

  constructor(source: Json, served: Json) {
    this.#source = source;
    this.#served = served;
    this.#renames = new Renames(served);
    const servedSchemes = components(served, "securitySchemes");
    this.#unserved = new Set(
      Object.keys(components(source, "securitySchemes")).filter(
        (name) => !Object.hasOwn(servedSchemes, name),
      ),
    );
    this.#schemas = new SchemaComparer(source, served, this.#renames, this.#record);
  }

  /** Every category, in the order the report lists them. */
  run(): Comparison {
    for (const [path, rawItem] of Object.entries(paths(this.#source))) {
      const at = child("#", "paths", path);
      const { node: item } = follow(this.#source, rawItem, at);
      const servedItem = paths(this.#served)[path];
      if (!isObject(item)) continue;
      for (const method of METHODS)
        this.#operation(
          item,
          isObject(servedItem) ? servedItem : undefined,
          method,
          child(at, method),
          "operations",
        );
    }
    this.#webhooks();
    this.#callbacks();
    this.#componentSchemas();
    this.#securitySchemes();
    this.#tags();
    this.#servers();
    return tally(this.#items);
  }

  readonly #record: Record_ = (category, pointer, kept, note) => {
    this.#items.push({ category, pointer, kept, ...(kept || !note ? {} : { note }) });
  };

  /** One item kept under another name or shape: the change is counted here, once. */
  #change(category: Category, pointer: string, changed: string): void {
    this.#items.push({ category, pointer, kept: true, changed });
  }

  /** One item: the source's value (when it states one) equals the served one. */
  #same(category: Category, pointer: string, a: unknown, b: unknown, what: string): void {
    if (a === undefined) return;
    const kept = sameJson(a, b);
    this.#record(
      category,
      pointer,
      kept,
      kept ? undefined : `${what}: ${brief(a)} is ${b === undefined ? "missing" : brief(b)}`,
    );
  }

  /** As #same, for text: the whitespace around it is not what a reader reads. */
  #text(category: Category, pointer: string, a: unknown, b: unknown, what: string): void {
    this.#same(
      category,
      pointer,
      typeof a === "string" ? a.trim() : a,
      typeof b === "string" ? b.trim() : b,
      what,
    );
  }

  /**
   * One operation (or webhook, sent as `event`): it is served, and so is what it says and
   * holds. An event the import had to number is one `changed` item, here.
   */
  #operation(
    sourceItem: Json,
    servedItem: Json | undefined,
    method: string,
    pointer: string,
    category: "operations" | "webhooks",
    event?: Event,
  ): void {
    const sourceOp = sourceItem[method];
    if (!isObject(sourceOp)) return;
    const servedOp =
      servedItem && isObject(servedItem[method]) ? (servedItem[method] as Json) : undefined;
    if (servedOp && event?.renamed) this.#change(category, pointer, event.renamed);
    else
      this.#record(
        category,
        pointer,
        servedOp !== undefined,
        `${method.toUpperCase()} operation is missing`,
      );
    if (!servedOp) return;
    this.#operationFields(sourceOp, servedOp, pointer, category, event);
    if (category === "operations") this.#operationSecurity(sourceOp, servedOp, pointer);
    this.#parameters(sourceItem, sourceOp, servedOp, pointer);
    if (sourceOp.requestBody !== undefined)
      this.#requestBody(sourceOp, servedOp, child(pointer, "requestBody"), category);
    const servedResponses = isObject(servedOp.responses) ? servedOp.responses : {};
    for (const [status, raw] of Object.entries(
      isObject(sourceOp.responses) ? sourceOp.responses : {},
    ))
      this.#response(
        status,
        raw,
        servedResponses[status] ?? servedResponses[status.toUpperCase()],
        child(pointer, "responses", status),
        category === "webhooks" ? "webhooks" : "responses",
      );
  }

  /** What an operation says of itself: its id, texts, deprecation, links out and tags. */
  #operationFields(
    sourceOp: Json,
    servedOp: Json,
    pointer: string,
    category: Category,
    event: Event | undefined,
  ): void {
    this.#operationId(sourceOp.operationId, servedOp.operationId, pointer, category, event);
    for (const key of ["summary", "description"])
      this.#text(category, child(pointer, key), sourceOp[key], servedOp[key], key);
    if (sourceOp.deprecated === true)
      this.#same(category, child(pointer, "deprecated"), true, servedOp.deprecated, "deprecated");
    this.#same(
      category,
      child(pointer, "externalDocs"),
      sourceOp.externalDocs,
      servedOp.externalDocs,
      "externalDocs",
    );
    if (Array.isArray(sourceOp.servers))
      this.#record(category, child(pointer, "servers"), false, "servers of an operation");
    if (Array.isArray(sourceOp.tags))
      this.#same(
        "tags",
        child(pointer, "tags"),
        [...sourceOp.tags].sort(),
        Array.isArray(servedOp.tags) ? [...servedOp.tags].sort() : undefined,
        "tags",
      );
  }

  /**
   * An operation's id: kept, or served under another that the import's naming explains (an
   * event's operationId is its name; an id another operation has is numbered), which is
   * one `changed` item.
   */
  #operationId(
    id: unknown,
    servedId: unknown,
    pointer: string,
    category: Category,
    event: Event | undefined,
  ): void {
    const at = child(pointer, "operationId");
    const trimmed = typeof id === "string" ? id.trim() : id;
    let why: string | undefined;
    if (typeof trimmed === "string" && typeof servedId === "string" && trimmed !== servedId)
      why = event
        ? servedId === event.name
          ? `served as ${servedId}: an event's operationId is its name`
          : undefined
        : this.#renames.operationId(trimmed, servedId);
    if (why) this.#change(category, at, why);
    else this.#text(category, at, id, servedId, "operationId");
  }

  /**
   * The ways into an operation: its own requirements, or the document's. A way that needs a
   * scheme the served document does not declare is not looked for: that scheme's loss is
   * counted once, at the scheme, not again at every operation it guarded.
   */
  #operationSecurity(sourceOp: Json, servedOp: Json, pointer: string): void {
    const sourceRoot = Array.isArray(this.#source.security) ? this.#source.security : undefined;
    const servedRoot = Array.isArray(this.#served.security) ? this.#served.security : undefined;
    if (!Array.isArray(sourceOp.security) && !sourceRoot) return;
    const requirements = (op: Json, root: unknown[] | undefined) =>
      Array.isArray(op.security) ? op.security : (root ?? []);
    const offered = requirements(sourceOp, sourceRoot).filter(
      (r) => !isObject(r) || Object.keys(r).every((name) => !this.#unserved.has(name)),
    );
    this.#same(
      "security",
      child(pointer, "security"),
      canonicalSecurity(offered),
      canonicalSecurity(requirements(servedOp, servedRoot)),
      "security requirements",
    );
  }

  /** An operation's body: served, as required, described, in each media type. */
  #requestBody(sourceOp: Json, servedOp: Json, at: string, category: Category): void {
    const { node: body } = follow(this.#source, sourceOp.requestBody, at);
    const { node: servedBody } = follow(this.#served, servedOp.requestBody, at);
    const bodyCategory: Category = category === "webhooks" ? "webhooks" : "request bodies";
    if (!isObject(body)) return;
    this.#record(bodyCategory, at, isObject(servedBody), "request body is missing");
    if (!isObject(servedBody)) return;
    if (category === "operations")
      this.#same(
        bodyCategory,
        child(at, "required"),
        body.required === true,
        servedBody.required === true,
        "required",
      );
    this.#text(
      bodyCategory,
      child(at, "description"),
      body.description,
      servedBody.description,
      "description",
    );
    this.#content(body, servedBody, at, bodyCategory);
  }

  /** One response: served at its status, described, with its content and headers. */
  #response(
    status: string,
    raw: unknown,
    servedRaw: unknown,
    at: string,
    category: "responses" | "webhooks",
  ): void {
    const { node: response } = follow(this.#source, raw, at);
    const { node: servedResponse } = follow(this.#served, servedRaw, at);
    if (!isObject(response)) return;
    this.#record(category, at, isObject(servedResponse), `response ${status} is missing`);
    if (!isObject(servedResponse)) return;
    this.#text(
      category,
      child(at, "description"),
      response.description,
      firstSentence(response.description, servedResponse.description),
      "description",
    );
    if (isObject(response.links)) this.#record(category, child(at, "links"), false, "links");
    this.#content(response, servedResponse, at, category);
    const servedHeaders = lowerKeys(isObject(servedResponse.headers) ? servedResponse.headers : {});
    for (const [name, rawHeader] of Object.entries(
      isObject(response.headers) ? response.headers : {},
    )) {
      if (name.toLowerCase() === "content-type") continue;
      this.#header(name, rawHeader, servedHeaders[name.toLowerCase()], child(at, "headers", name));
    }
  }

  /** One response header: served, as required, described, deprecated, with its schema and examples. */
  #header(name: string, rawHeader: unknown, servedRaw: unknown, headerAt: string): void {
    const { node: header } = follow(this.#source, rawHeader, headerAt);
    const { node: servedHeader } = follow(this.#served, servedRaw, headerAt);
    if (!isObject(header)) return;
    this.#record("response headers", headerAt, isObject(servedHeader), `header ${name} is missing`);
    if (!isObject(servedHeader)) return;
    this.#same(
      "response headers",
      child(headerAt, "required"),
      header.required === true,
      servedHeader.required === true,
      "required",
    );
    this.#text(
      "response headers",
      child(headerAt, "description"),
      header.description,
      servedHeader.description,
      "description",
    );
    if (header.deprecated === true)
      this.#same(
        "response headers",
        child(headerAt, "deprecated"),
        true,
        servedHeader.deprecated,
        "deprecated",
      );
    if (header.schema !== undefined)
      this.#schemas.whole(
        "response headers",
        child(headerAt, "schema"),
        header.schema,
        servedHeader.schema,
        "pooled",
      );
    this.#examplePool(
      child(headerAt, "example"),
      [header, header.schema],
      [servedHeader, servedHeader.schema],
    );
  }

  /** A parameter's examples: the parameter's own and its schema's, as one pool of values. */
  #examplePool(pointer: string, sourceHolders: unknown[], servedHolders: unknown[]): void {
    const values = (holders: unknown[], document: Json) =>
      holders.flatMap((holder) => {
        if (!isObject(holder)) return [];
        const found: unknown[] = [];
        if ("example" in holder) found.push(holder.example);
        if (Array.isArray(holder.examples)) found.push(...holder.examples);
        else if (isObject(holder.examples))
          for (const raw of Object.values(holder.examples)) {
            const { node } = follow(document, raw, pointer);
            if (isObject(node) && "value" in node) found.push(node.value);
          }
        return found;
      });
    const servedValues = values(servedHolders, this.#served);
    for (const value of values(sourceHolders, this.#source))
      this.#record(
        "examples",
        pointer,
        servedValues.some((v) => sameJson(v, value)),
        `example ${brief(value)} is missing`,
      );
  }

  /** An operation's parameters, its path item's merged in, each matched by place and name. */
  #parameters(sourceItem: Json, sourceOp: Json, servedOp: Json, pointer: string): void {
    const merged = new Map<string, { node: Json; pointer: string }>();
    for (const [list, at] of [
      [sourceItem.parameters, pointer.replace(/\/[^/]+$/, "")],
      [sourceOp.parameters, pointer],
    ] as const) {
      if (!Array.isArray(list)) continue;
      list.forEach((raw, i) => {
        const here = child(at, "parameters", i);
        const { node } = follow(this.#source, raw, here);
        if (isObject(node)) merged.set(parameterKey(node), { node, pointer: here });
      });
    }
    const servedParameters = new Map<string, Json>();
    if (Array.isArray(servedOp.parameters))
      for (const raw of servedOp.parameters) {
        const { node } = follow(this.#served, raw, "#");
        if (isObject(node)) servedParameters.set(parameterKey(node), node);
      }
    for (const [key, { node, pointer: at }] of merged) {
      if (
        node.in === "header" &&
        ["accept", "content-type", "authorization"].includes(String(node.name).toLowerCase())
      )
        continue;
      const servedParameter = servedParameters.get(key);
      this.#record(
        "parameters",
        at,
        servedParameter !== undefined,
        `parameter ${String(node.name)} in ${String(node.in)} is missing`,
      );
      if (servedParameter) this.#parameter(node, servedParameter, at);
    }
  }

  /** What one served parameter carries of the source's. */
  #parameter(node: Json, servedParameter: Json, at: string): void {
    this.#same(
      "parameters",
      child(at, "required"),
      node.required === true || node.in === "path",
      servedParameter.required === true || servedParameter.in === "path",
      "required",
    );
    this.#text(
      "parameters",
      child(at, "description"),
      node.description,
      servedParameter.description,
      "description",
    );
    if (node.deprecated === true)
      this.#same(
        "parameters",
        child(at, "deprecated"),
        true,
        servedParameter.deprecated,
        "deprecated",
      );
    for (const key of ["style", "explode", "allowReserved", "allowEmptyValue"])
      if (key in node)
        this.#same(
          "parameters",
          child(at, key),
          node[key],
          servedParameter[key] ?? defaultOf(key, String(node.in), servedParameter.style),
          key,
        );
    if (node.schema !== undefined)
      this.#schemas.whole(
        "parameters",
        child(at, "schema"),
        node.schema,
        servedParameter.schema,
        "pooled",
      );
    if (isObject(node.content))
      this.#record(
        "parameters",
        child(at, "content"),
        isObject(servedParameter.content),
        "a parameter serialised by content",
      );
    this.#examplePool(
      child(at, "example"),
      [node, node.schema],
      [servedParameter, servedParameter.schema],
    );
  }

  /** A body's or a response's media types, each with its schema, encoding and examples. */
  #content(holder: Json, servedHolder: Json, pointer: string, category: Category): void {
    const servedContent = isObject(servedHolder.content) ? servedHolder.content : {};
    for (const [type, media] of Object.entries(isObject(holder.content) ? holder.content : {})) {
      const at = child(pointer, "content", type);
      const servedMedia = servedContent[type.split(";")[0]?.trim() ?? type];
      this.#record(category, at, isObject(servedMedia), `media type ${type} is missing`);
      if (!isObject(media) || !isObject(servedMedia)) continue;
      if (media.schema !== undefined)
        this.#schemas.whole(category, child(at, "schema"), media.schema, servedMedia.schema);
      if (isObject(media.encoding))
        this.#same(
          category,
          child(at, "encoding"),
          media.encoding,
          servedMedia.encoding,
          "encoding",
        );
      this.#examplePool(child(at, "examples"), [media], [servedMedia]);
    }
  }

  /** The document's webhooks, each compared with the served webhook of its name. */
  #webhooks(): void {
    const servedWebhooks = isObject(this.#served.webhooks) ? this.#served.webhooks : {};
    const sourceWebhooks = isObject(this.#source.webhooks) ? this.#source.webhooks : {};
    for (const [name, rawItem] of Object.entries(sourceWebhooks)) {
      const at = child("#", "webhooks", name);
      const { node: item } = follow(this.#source, rawItem, at);
      if (!isObject(item)) continue;
      for (const method of METHODS)
        this.#operation(
          item,
          servedWebhooks[name] as Json | undefined,
          method,
          child(at, method),
          "webhooks",
          { name },
        );
    }
  }

  /**
   * Callbacks, which the service sends as webhooks: each compared with the event its
   * operation emits under the callback's name (numbered where the name was taken).
   */
  #callbacks(): void {
    const servedWebhooks = isObject(this.#served.webhooks) ? this.#served.webhooks : {};
    for (const [path, rawItem] of Object.entries(paths(this.#source))) {
      const { node: item } = follow(this.#source, rawItem, "#");
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const op = item[method];
        if (!isObject(op) || !isObject(op.callbacks)) continue;
        const events = this.#emitted(path, method);
        for (const [name, callback] of Object.entries(op.callbacks)) {
          const { node } = follow(this.#source, callback, "#");
          if (!isObject(node)) continue;
          for (const [expression, cbItem] of Object.entries(node)) {
            const at = child("#", "paths", path, method, "callbacks", name, expression);
            const { node: cb } = follow(this.#source, cbItem, at);
            if (!isObject(cb)) continue;
            for (const cbMethod of METHODS) {
              // Events are sent by POST: only a POST callback is one.
              const event = cbMethod === "post" && isObject(cb.post) ? events(name) : { name };
              this.#operation(
                cb,
                servedWebhooks[event.name] as Json | undefined,
                cbMethod,
                child(at, cbMethod),
                "webhooks",
                event,
              );
            }
          }
        }
      }
    }
  }

  /**
   * The events a served operation emits (`x-emits`), handed out in the importer's order:
   * each callback named `name` is the next of them called `name`, or `name` numbered.
   */
  #emitted(path: string, method: string): (name: string) => Event {
    const item = paths(this.#served)[path];
    const op = isObject(item) ? item[method] : undefined;
    const left = isObject(op) && Array.isArray(op[EMITS]) ? [...op[EMITS]] : [];
    return (name) => {
      const i = left.findIndex((e) => typeof e === "string" && numbered(e, name));
      const [event] = i === -1 ? [name] : left.splice(i, 1);
      const served = String(event);
      return served === name
        ? { name }
        : { name: served, renamed: `sent as the event ${served}: another event is ${name}` };
    };
  }

  /**
   * Component schemas, keyword by keyword. One the import renamed is one `changed` item,
   * and its keywords are compared with the schema served under the new name.
   */
  #componentSchemas(): void {
    const servedSchemas = components(this.#served, "schemas");
    for (const [name, schema] of Object.entries(components(this.#source, "schemas"))) {
      const at = child("#", "components", "schemas", name);
      const servedName = this.#renames.schema(name);
      // Where only its direction views stand for it, the resource as they say it together.
      const servedSchema =
        servedSchemas[servedName] ?? resourceFromViews(servedSchemas, servedName);
      if (servedName !== name && servedSchema !== undefined) {
        const why = this.#renames.isPlatformSchema(name)
          ? `: the platform's own schema is called ${name}`
          : "";
        this.#change("schemas", at, `served as ${servedName}${why}`);
        this.#schemas.keywords(at, schema, servedSchema);
        continue;
      }
      // The platform's own schema has this name, and the source's is served under none.
      if (this.#renames.isPlatformSchema(name)) {
        this.#record(
          "schemas",
          at,
          false,
          `${name} is the platform's own schema's name; the source's is missing`,
        );
        continue;
      }
      this.#record(
        "schemas",
        at,
        servedSchema !== undefined,
        `component schema ${name} is missing`,
      );
      if (servedSchema !== undefined) this.#schemas.keywords(at, schema, servedSchema);
    }
  }

  /** Security schemes: served under their name, with what each says. */
  #securitySchemes(): void {
    const servedSchemes = components(this.#served, "securitySchemes");
    for (const [name, raw] of Object.entries(components(this.#source, "securitySchemes"))) {
      const at = child("#", "components", "securitySchemes", name);
      const { node: scheme } = follow(this.#source, raw, at);
      const servedScheme = servedSchemes[name];
      if (!isObject(scheme)) continue;
      this.#record(
        "security",
        at,
        isObject(servedScheme),
        `security scheme ${name} is missing (and so is every way in that needs it)`,
      );
      if (!isObject(servedScheme)) continue;
      for (const key of ["type", "in", "name", "openIdConnectUrl", "bearerFormat"])
        this.#same("security", child(at, key), scheme[key], servedScheme[key], key);
      if (typeof scheme.scheme === "string")
        this.#same(
          "security",
          child(at, "scheme"),
          scheme.scheme.toLowerCase(),
          String(servedScheme.scheme).toLowerCase(),
          "scheme",
        );
      this.#text(
        "security",
        child(at, "description"),
        scheme.description,
        servedScheme.description,
        "description",
      );
      if (isObject(scheme.flows))
        this.#same("security", child(at, "flows"), scheme.flows, servedScheme.flows, "flows");
    }
  }

  /** Part 1's tags, matched by name. */
  #tags(): void {
    const servedTags = new Map(
      (Array.isArray(this.#served.tags) ? this.#served.tags : [])
        .filter(isObject)
        .map((t) => [t.name, t]),
    );
    (Array.isArray(this.#source.tags) ? this.#source.tags : []).forEach((tag, i) => {
      if (!isObject(tag)) return;
      const at = child("#", "tags", i);
      const servedTag = servedTags.get(tag.name);
      this.#record("tags", at, servedTag !== undefined, `tag ${String(tag.name)} is missing`);
      if (!servedTag) return;
      this.#text(
        "tags",
        child(at, "description"),
        tag.description,
        servedTag.description,
        "description",
      );
      this.#same(
        "tags",
        child(at, "externalDocs"),
        tag.externalDocs,
        servedTag.externalDocs,
        "externalDocs",
      );
    });
  }

  /** Part 1's servers, matched by URL. */
  #servers(): void {
    const servedServers = (Array.isArray(this.#served.servers) ? this.#served.servers : []).filter(
      isObject,
    );
    (Array.isArray(this.#source.servers) ? this.#source.servers : []).forEach((server, i) => {
      if (!isObject(server)) return;
      const at = child("#", "servers", i);
      const servedServer = servedServers.find((s) => s.url === server.url);
      this.#record(
        "servers",
        at,
        servedServer !== undefined,
        `server ${String(server.url)} is missing`,
      );
      if (!servedServer) return;
      this.#text(
        "servers",
        child(at, "description"),
        server.description,
        servedServer.description,
        "description",
      );
      this.#same(
        "servers",
        child(at, "variables"),
        server.variables,
        servedServer.variables,
        "variables",
      );
    });
  }
}

/** A parameter is identified by where it is and its name (a header's case-insensitively). */
const parameterKey = (p: Json) =>
  `${String(p.in)}\n${p.in === "header" ? String(p.name).toLowerCase() : String(p.name)}`;

/** OpenAPI 3.1 §4.8.12.4's defaults: `form` in a query or cookie, else `simple`; `explode` for `form` only. */
const defaultOf = (key: string, location: string, style: unknown): unknown => {
  const form = location === "query" || location === "cookie" ? "form" : "simple";
  if (key === "style") return form;
  if (key === "explode") return (style ?? form) === "form";
  return false;
};

const lowerKeys = (record: Json): Json =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * The served description, if it starts with the source's (a presented platform failure
 * says more after the error type's own words).
 */
function firstSentence(source: unknown, served: unknown): unknown {
  if (typeof source !== "string" || typeof served !== "string") return served;
  return served.startsWith(source.trim()) ? source.trim() : served;
}

/** Security requirements in one order, so two lists that say the same compare equal. */
function canonicalSecurity(requirements: unknown[]): string[] {
  return requirements
    .filter(isObject)
    .map((r) =>
      JSON.stringify(
        Object.keys(r)
          .sort()
          .map((k) => [k, Array.isArray(r[k]) ? [...(r[k] as string[])].sort() : []]),
      ),
    )
    .sort();
}

const brief = (value: unknown): string => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
};

type Record_ = (category: Category, pointer: string, kept: boolean, note?: string) => void;

/** One item of a schema's comparison, at a pointer. */
type Report = (pointer: string, kept: boolean, note?: string) => void;

/** What a walk over one schema reports to, and how deep it is (a cycle stops at 64). */
interface Walk {
  readonly record: Report;
  readonly example: Report;
  readonly depth: number;
}

/** A source schema, the served schema it is compared with, and that one's non-null branch. */
interface Pair {
  readonly source: Json;
  readonly target: Json;
  readonly branch: Json | undefined;
}

/** A boolean schema kept: the same, `{}` for true, or `{ not: {} }` for false. */
function sameBoolean(source: boolean, served: unknown): boolean {
  return (
    sameJson(source, served) ||
    (source === true && isObject(served) && Object.keys(served).length === 0) ||
    // `false` is written `{ not: {} }`: no value is valid against either.
    (source === false &&
      isObject(served) &&
      Object.keys(served).length === 1 &&
      isObject(served.not) &&
      Object.keys(served.not).length === 0)
  );
}

/** zod writes a nullable schema as anyOf with null: its keywords are on the other branch. */
function nonNullBranch(source: Json, target: Json): Json | undefined {
  const branches = !Array.isArray(source.anyOf) && Array.isArray(target.anyOf) ? target.anyOf : [];
  const isNull = (b: unknown) => isObject(b) && b.type === "null" && Object.keys(b).length === 1;
  return branches.length === 2 && branches.some(isNull)
    ? (branches.find((b) => !isNull(b)) as Json | undefined)
    : undefined;
}

/** Compares a source schema with the served one: keyword by keyword, or as a whole. */
class SchemaComparer {
  readonly #source: Json;
  readonly #served: Json;
  readonly #renames: Renames;
  readonly #record: Record_;

  constructor(source: Json, served: Json, renames: Renames, record: Record_) {
    this.#source = source;
    this.#served = served;
    this.#renames = renames;
    this.#record = record;
  }

  /**
   * One item for the whole schema at a place (a body, a parameter): kept if every keyword
   * is. Its examples are items of their own, unless `examples` is "pooled" (a parameter's
   * are compared with the parameter's own, where the document moves them).
   */
  whole(
    category: Category,
    pointer: string,
    source: unknown,
    served: unknown,
    examples: "counted" | "pooled" = "counted",
  ): void {
    const found: { pointer: string; kept: boolean; note?: string }[] = [];
    this.#compare(source, served, pointer, {
      record: (p, kept, note) => found.push({ pointer: p, kept, ...(note ? { note } : {}) }),
      example:
        examples === "counted"
          ? (p, kept, note) => this.#record("examples", p, kept, note)
          : () => {},
      depth: 0,
    });
    const lost = found.filter((f) => !f.kept);
    this.#record(
      category,
      pointer,
      lost.length === 0,
      lost.map((l) => `${l.pointer.slice(pointer.length) || "/"} ${l.note}`).join("; "),
    );
  }

  /** One item per keyword of a component schema, at any depth. */
  keywords(pointer: string, source: unknown, served: unknown): void {
    this.#compare(source, served, pointer, {
      record: (p, kept, note) => this.#record("schemas", p, kept, note),
      example: (p, kept, note) => this.#record("examples", p, kept, note),
      depth: 0,
    });
  }

  #types(schema: Json, document: Json, depth = 0): Set<string> | undefined {
    if (depth > 8) return undefined;
    if (typeof schema.type === "string") return new Set([schema.type]);
    if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
    const values = Array.isArray(schema.enum)
      ? schema.enum
      : "const" in schema
        ? [schema.const]
        : undefined;
    if (values)
      return new Set(
        values.map((v) =>
          v === null
            ? "null"
            : Number.isInteger(v)
              ? "integer"
              : typeof v === "number"
                ? "number"
                : typeof v,
        ),
      );
    const branches = (
      Array.isArray(schema.anyOf)
        ? schema.anyOf
        : Array.isArray(schema.oneOf)
          ? schema.oneOf
          : undefined
    )?.filter(isObject);
    if (branches) {
      const all = new Set<string>();
      for (const branch of branches) {
        const types = this.#types(branch, document, depth + 1);
        if (!types) return undefined;
        for (const t of types) all.add(t);
      }
      return all;
    }
    return undefined;
  }

  #enum(schema: Json): unknown[] | undefined {
    if (Array.isArray(schema.enum)) return schema.enum;
    if ("const" in schema) return [schema.const];
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isObject) : undefined;
    if (!branches) return undefined;
    const values: unknown[] = [];
    for (const branch of branches) {
      if (branch.type === "null" && Object.keys(branch).length === 1) values.push(null);
      else {
        const own = this.#enum(branch);
        if (!own) return undefined;
        values.push(...own);
      }
    }
    return values;
  }

  /** The served node's view for comparing members: its own, or its allOf members' (where zod wrote one). */
  #memberOf(served: Json, key: "properties", name: string): unknown {
    const own = isObject(served[key]) ? (served[key] as Json)[name] : undefined;
    if (own !== undefined) return own;
    for (const part of Array.isArray(served.allOf) ? served.allOf : []) {
      if (!isObject(part)) continue;
      const found = this.#memberOf(part, key, name);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Compares a source schema with the served one at `pointer`, keyword by keyword. */
  #compare(source: unknown, served: unknown, pointer: string, walk: Walk): void {
    if (walk.depth > 64) return;
    if (typeof source === "boolean") {
      walk.record(pointer, sameBoolean(source, served), `${source} is ${brief(served)}`);
      return;
    }
    if (!isObject(source)) return;
    if (!isObject(served)) {
      walk.record(
        pointer,
        false,
        `the schema is ${served === undefined ? "missing" : brief(served)}`,
      );
      return;
    }
    const deeper = { ...walk, depth: walk.depth + 1 };
    const instead = this.#instead(source, served, pointer);
    if (instead) {
      this.#compare(instead, served, pointer, deeper);
      return;
    }
    // A served reference where the source writes the schema out: compare with its target.
    let target = served;
    if (typeof served.$ref === "string" && typeof source.$ref !== "string") {
      const { node } = follow(this.#served, served, pointer);
      if (isObject(node)) target = node;
    }
    // The served schema may add allOf around what the source says (the platform's problem).
    if (!this.#carries(source, target) && Array.isArray(target.allOf)) {
      const part = target.allOf.find((p) => this.#carries(source, p));
      if (part !== undefined) {
        this.#compare(source, part, pointer, deeper);
        return;
      }
    }
    const node: Pair = { source, target, branch: nonNullBranch(source, target) };
    for (const [key, value] of Object.entries(source))
      this.#keyword(key, value, node, child(pointer, key), walk);
  }

  /**
   * What a source schema is read as, where it is not compared as written: a reference into
   * a component, or allOf of one schema. Undefined where it is compared as written.
   */
  #instead(source: Json, served: Json, pointer: string): Json | undefined {
    // A source reference into a component (`…/User/properties/name`, `…/$defs/Local`) is not
    // a component the served document can name: the import writes its target out, which is
    // what is compared.
    if (
      typeof source.$ref === "string" &&
      !/^#\/components\/schemas\/[^/]+$/.test(source.$ref) &&
      typeof served.$ref !== "string"
    ) {
      const { node } = follow(this.#source, source, pointer);
      const { $ref: _ref, ...siblings } = source;
      // A target that is no object (a boolean schema) is not looked into.
      return isObject(node) ? { ...node, ...siblings } : {};
    }
    // allOf of one schema (3.0's way to put a description beside a $ref) is that schema.
    if (Array.isArray(source.allOf) && source.allOf.length === 1 && !Array.isArray(served.allOf)) {
      const { allOf, ...siblings } = source;
      const only = allOf[0];
      if (isObject(only)) return { ...siblings, ...only };
    }
    return undefined;
  }

  /** One keyword of a source schema, compared with what the served schema says of it. */
  #keyword(key: string, value: unknown, node: Pair, at: string, walk: Walk): void {
    const { source, target, branch } = node;
    const { record } = walk;
    const deeper = { ...walk, depth: walk.depth + 1 };
    const other =
      target[key] ?? (["type", "enum", "const"].includes(key) ? undefined : branch?.[key]);
    switch (key) {
      case "$ref":
        // Not the platform's own wrapping (a webhook's envelope), which is no written-out copy.
        if (typeof value === "string" && other === undefined && !("x-platform" in target))
          this.#writtenOut(value, target, at, walk);
        else record(at, this.#sameRef(value, other), this.#refNote(value, other));
        break;
      case "type": {
        const a = new Set(Array.isArray(value) ? value : [value]);
        const b = this.#types(target, this.#served);
        const kept =
          b !== undefined && a.size === b.size && [...a].every((t) => b.has(t as string));
        record(at, kept, `type ${brief(value)} is ${b ? brief([...b]) : "missing"}`);
        break;
      }
      case "enum":
      case "const": {
        const a = key === "enum" ? (value as unknown[]) : [value];
        const b = this.#enum(target);
        const kept =
          b !== undefined && a.length === b.length && a.every((v) => b.some((w) => sameJson(v, w)));
        record(at, kept, `${key} ${brief(value)} is ${brief(b)}`);
        break;
      }
      case "pattern":
        record(
          at,
          regexSource(value) === regexSource(other),
          `pattern ${brief(value)} is ${brief(other)}`,
        );
        break;
      case "required": {
        const a = Array.isArray(value) ? [...value].sort() : [];
        const b = this.#required(target).sort();
        record(at, sameJson(a, b), `required ${brief(a)} is ${brief(b)}`);
        break;
      }
      case "properties":
        for (const [name, sub] of Object.entries(isObject(value) ? value : {}))
          this.#compare(
            sub,
            this.#memberOf(
              branch && !isObject(target.properties) ? branch : target,
              "properties",
              name,
            ),
            child(at, name),
            deeper,
          );
        break;
      case "unevaluatedProperties": {
        // Without allOf/anyOf/oneOf beside it, it says what additionalProperties says.
        const composed = "allOf" in source || "anyOf" in source || "oneOf" in source;
        const closed = other ?? target.additionalProperties ?? branch?.additionalProperties;
        if (value === false && !composed && closed === false) record(at, true);
        else this.#compare(value, other, at, deeper);
        break;
      }
      case "items":
      case "additionalProperties":
      case "propertyNames":
      case "not":
        if (
          key === "additionalProperties" &&
          value === true &&
          (other === undefined ||
            (isObject(other) && Object.keys(other).length === 0) ||
            other === true)
        )
          record(at, true);
        else this.#compare(value, other, at, deeper);
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
      case "prefixItems":
        this.#list(key, value, other, target, at, walk);
        break;
      case "discriminator":
        // Its mapping names components: a renamed one by its new name.
        record(
          at,
          sameJson(this.#renames.discriminator(value), servedDiscriminator(this.#renames, other)),
          `discriminator ${brief(value)} is ${brief(other)}`,
        );
        break;
      case "example":
      case "examples":
        walk.example(at, sameJson(value, other), `${key} ${brief(value)} is ${brief(other)}`);
        break;
      default:
        record(
          at,
          sameJson(
            typeof value === "string" ? value.trim() : value,
            typeof other === "string" ? other.trim() : other,
          ),
          `${key} ${brief(value)} is ${brief(other)}`,
        );
    }
  }

  /**
   * A reference the served document answers with a schema written out in place (the import
   * writes a form's component out, as form fields arrive as text): kept if what is written
   * out is the component's schema, so a component written out for every form that uses it
   * is not a loss at each. Still one item, as a reference is; the component's own keywords
   * are counted where the component is.
   */
  #writtenOut(ref: string, target: Json, at: string, walk: Walk): void {
    const { node } = follow(this.#source, { $ref: ref }, at);
    const lost: string[] = [];
    this.#compare(node, target, at, {
      record: (p, kept, note) => {
        if (!kept) lost.push(`${p.slice(at.length) || "/"} ${note}`);
      },
      example: () => {},
      depth: walk.depth + 1,
    });
    walk.record(at, lost.length === 0, `${ref} is written out, and differs: ${lost.join("; ")}`);
  }

  /**
   * A list of schemas (allOf, anyOf, oneOf, prefixItems): each compared with the served
   * member that carries it, in order where it can be.
   */
  #list(key: string, value: unknown, other: unknown, target: Json, at: string, walk: Walk): void {
    const list = Array.isArray(value) ? value : [];
    const otherList = Array.isArray(other) ? other : [];
    if (key === "anyOf" && otherList.length === 0 && this.#types(target, this.#served)) {
      // zod writes a union of plain types as one list of types.
      const types = this.#types({ anyOf: list }, this.#source);
      const served = this.#types(target, this.#served);
      walk.record(
        at,
        types !== undefined &&
          served !== undefined &&
          sameJson([...types].sort(), [...served].sort()),
        `anyOf ${brief(value)} is ${brief(target.type)}`,
      );
      return;
    }
    const deeper = { ...walk, depth: walk.depth + 1 };
    list.forEach((sub, i) => {
      const match =
        otherList[i] !== undefined && this.#carries(sub, otherList[i])
          ? otherList[i]
          : (otherList.find((o) => this.#carries(sub, o)) ?? otherList[i]);
      this.#compare(sub, match, child(at, i), deeper);
    });
  }

  /** The required members of a served schema. */
  #required(schema: Json): string[] {
    return Array.isArray(schema.required) ? [...(schema.required as string[])] : [];
  }

  /**
   * The same component: by name, or by the name the import renamed it to (a client that
   * follows the served reference finds the source's schema). A reference that lands on the
   * platform's own schema of that name is not the source's.
   */
  #sameRef(ref: unknown, other: unknown): boolean {
    if (typeof ref !== "string" || typeof other !== "string") return false;
    const served = this.#renames.resource(other);
    return served === this.#renames.ref(ref) && !this.#renames.landsOnPlatformSchema(served);
  }

  /** Why a reference is not kept. */
  #refNote(ref: unknown, other: unknown): string {
    if (typeof ref === "string" && this.#renames.landsOnPlatformSchema(ref))
      return `${ref} is the platform's own schema's name; the source's is missing`;
    const expected = typeof ref === "string" ? this.#renames.ref(ref) : ref;
    const renamed = expected === ref ? "" : ` (${String(ref)}, renamed)`;
    return `refers to ${brief(other)} instead of ${String(expected)}${renamed}`;
  }

  /**
   * Whether `served` is a plausible match for `source` (same reference, or same kind of
   * node). allOf of one schema is that schema, as #compare reads it: 3.0's nullable `$ref`
   * (`allOf: [$ref], nullable: true`, anyOf with null in 3.1) is matched with the served
   * `$ref`, not with the null branch that any untyped schema would match.
   */
  #carries(source: unknown, served: unknown): boolean {
    if (!isObject(source) || !isObject(served)) return false;
    if (Array.isArray(source.allOf) && source.allOf.length === 1 && !Array.isArray(served.allOf)) {
      const { allOf, ...siblings } = source;
      return isObject(allOf[0]) && this.#carries({ ...siblings, ...allOf[0] }, served);
    }
    if (typeof source.$ref === "string") return this.#sameRef(source.$ref, served.$ref);
    if (typeof served.$ref === "string") return false;
    const a = this.#types(source, this.#source);
    const b = this.#types(served, this.#served);
    if (a && b) return [...a].some((t) => b.has(t));
    return true;
  }
}
