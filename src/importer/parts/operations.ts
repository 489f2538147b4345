/**
 * Part 4: `paths` → operations, each with its method, path, documentation, security
 * (part 5's requirements), request (parameters and body), answers, error types (part 7),
 * the events its callbacks become (part 6) and what the service's own document marks on it
 * (its retirement, transition and emitted events).
 */
import {
  ALLOWED_IN,
  DEPRECATION,
  EMITS,
  PRESENTS,
  TRANSITION,
} from "../../contract-language/document-marks";
import { keyPairs, pathKeyParts, routedPath } from "../../contract-language/path-key";
import { derivedOperationId } from "../names";
import { IMPORT_ERRORS } from "../platform-additions";
import { literal, propertyKey } from "../schema-code";
import { child, follow, isObject, type Json } from "../source";
import { contentOf } from "./content";
import { counted, extensionsLost, type ImportContext, type PartCode, strings } from "./context";
import { type Endpoint, endpointWriter } from "./endpoint";
import type { ErrorTypes } from "./errors";
import type { Events } from "./events";
import type { PageSizes } from "./limits";
import { type OperationSite, requestParameters } from "./parameters";
import { operationResponses } from "./responses";
import { operationSecurity, type Security } from "./security";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const UNSERVED_METHODS = ["head", "options", "trace"] as const;

/** What part 4 carries into the other parts as its operations are read. */
interface OperationParts {
  readonly security: Security;
  readonly errors: ErrorTypes;
  readonly limits: PageSizes;
  readonly events: Events;
}

/** Part 4's operations, read path by path. */
export class Operations {
  readonly ids = new Set<string>();
  /** Where each operation is in the source, by id. */
  readonly pointers = new Map<string, string>();
  readonly tagsUsed = new Set<string>();
  readonly #ep: Endpoint;
  readonly #parts: OperationParts;
  /**
   * Each operation read, as the fields written before and after its own `presents`, which
   * is known only once every operation is read (part 7): written in a second pass (`part`).
   */
  readonly #collected: {
    readonly id: string;
    readonly before: readonly string[];
    readonly after: readonly string[];
  }[] = [];
  /** The paths with an operation written. */
  readonly #paths = new Set<string>();
  /** Each method and path served, and the pointer of the operation that serves it. */
  readonly #routes = new Map<string, string>();

  constructor(ctx: ImportContext, parts: OperationParts) {
    this.#ep = endpointWriter(ctx);
    this.#parts = parts;
  }

  /** Whether a body or an answer is XML. */
  get xml(): boolean {
    return this.#ep.xml;
  }

  /**
   * Reads every path of the document, each operation on its own: one that cannot be
   * converted is kept in the pass's units, to be left out of the next (src/importer/leave-out.ts).
   */
  addPaths(progress: (what: string, done: number, total: number) => void): void {
    const { document, units, findings } = this.#ep.ctx;
    const entries = Object.entries(isObject(document.paths) ? document.paths : {});
    // A path item may be a `$ref` (to components.pathItems): counted as what it refers to.
    const methodsAt = (raw: unknown, pointer: string) => {
      try {
        return methodsOf(follow(document, raw, pointer).node);
      } catch {
        return [];
      }
    };
    const total = entries.reduce(
      (n, [path, item]) => n + methodsAt(item, child("#", "paths", path)).length,
      0,
    );
    let done = 0;
    const tick = () => progress("operations", ++done, total);
    const sameAs = sameTemplates(entries.map(([path]) => path));
    for (const [path, rawItem] of entries) {
      const itemPointer = child("#", "paths", path);
      const cause = units.leftOut.get(itemPointer) ?? notAPath(path, rawItem);
      const item =
        cause === undefined
          ? units.convert(itemPointer, () => follow(document, rawItem, itemPointer).node)
          : undefined;
      if (cause !== undefined) findings.lost(itemPointer, `left out: ${cause}`);
      if (!isObject(item)) {
        for (const _ of methodsAt(rawItem, itemPointer)) tick();
        continue;
      }
      const same = sameAs.get(path);
      if (same)
        findings.changed(
          itemPointer,
          `the same path as ${same.path}, whose parameter names it is served with (${[...same.renamed].map(([from, to]) => `{${from}} as {${to}}`).join(", ")}): templates that differ only in parameter names are one path (OpenAPI 3.1 §4.8.8)`,
        );
      this.#addPath(path, item, itemPointer, tick, same);
    }
  }

  /**
   * Part 4's file, once part 7 is known: each operation's `presents` (`presentsOf`, which
   * may add a finding) written between the fields read before and after it.
   */
  part(presentsOf: (id: string) => string): PartCode | undefined {
    if (this.#collected.length === 0) return undefined;
    const lines = this.#collected.map(({ id, before, after }) => {
      const presents = presentsOf(id);
      const fields = [...before, ...(presents ? [presents] : []), ...after];
      return `${propertyKey(id)}: { ${fields.join(", ")} },`;
    });
    const { consts, body, components } = this.#ep.shared.resolve(
      `export const operations = {\n${lines.join("\n")}\n} as const satisfies Readonly<Record<string, Operation>>;`,
    );
    // A parameter shared by several operations is a component of this file, built on first use.
    if (components) this.#ep.context.uses.add("component");
    return {
      body: consts ? `${consts}\n\n${body}` : body,
      count: lines.length,
      summary: `${counted(lines.length, "operation")} on ${counted(this.#paths.size, "path")}`,
      uses: this.#ep.context.uses,
      referenced: this.#ep.context.referenced,
    };
  }

  #addPath(
    key: string,
    item: Json,
    itemPointer: string,
    tick: () => void,
    same?: SameTemplate,
  ): void {
    const path = same?.path ?? key;
    const { findings } = this.#ep.ctx;
    for (const key of ["summary", "description", "servers"])
      if (key in item)
        findings.lost(child(itemPointer, key), `${key} of a path: operations carry their own`);
    extensionsLost(this.#ep.ctx, item, itemPointer, "the path");
    for (const method of UNSERVED_METHODS)
      if (isObject(item[method]))
        findings.lost(
          child(itemPointer, method),
          method === "trace"
            ? "a TRACE operation: not served"
            : `${method === "options" ? "an" : "a"} ${method.toUpperCase()} operation: the platform answers ${method.toUpperCase()} itself (RFC 9110 §9.3)`,
        );
    const { units } = this.#ep.ctx;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      tick();
      const pointer = child(itemPointer, method);
      const cause = units.leftOut.get(pointer);
      if (cause !== undefined) {
        findings.lost(pointer, `left out: ${cause}`);
        continue;
      }
      // Xero's `GET …/Attachments/{FileName}` beside `GET …/Attachments/{AttachmentID}`;
      // Azure's `/{nextLink}#Groups_ListNext` beside `/{nextLink}#Users_ListNext`.
      const told = keyFixed(path);
      const route = `${method.toUpperCase()} ${routedPath(path)}${told.route}`;
      const first = this.#routes.get(route);
      if (first !== undefined) {
        findings.lost(
          pointer,
          routedPath(path) !== path && told.route === ""
            ? `left out: ${route} is served by ${first} already, and nothing in a request tells them apart: a fragment is never sent (RFC 3986 §3.5)`
            : `left out: ${route} is served by ${first} already: templates that differ only in parameter names are one path (OpenAPI 3.1 §4.8.8), and a method on it is one operation`,
        );
        continue;
      }
      if (told.fragment)
        findings.changed(
          pointer,
          `the key's fragment (#${pathKeyParts(path).fragment}) is never sent (RFC 3986 §3.5): its values tell the operations of ${routedPath(path)} apart in the query, as ${literal(told.fragment)}`,
        );
      units.convert(pointer, () => {
        const id = this.#id(op, method, key, pointer);
        const renamed = same ? { renamed: same.renamed } : {};
        const fixed = told.fragment ? { fixed: told.fragment } : {};
        this.#addOperation(
          { path, ...renamed, ...fixed, item, itemPointer, op, pointer, id },
          method,
        );
        this.#routes.set(route, pointer);
      });
    }
  }

  /** The operation's id: its operationId, or one from its method and path; numbered if taken. */
  #id(op: Json, method: string, path: string, pointer: string): string {
    const { findings } = this.#ep.ctx;
    let id =
      typeof op.operationId === "string" && op.operationId !== ""
        ? op.operationId
        : derivedOperationId(method, path);
    if (typeof op.operationId !== "string")
      findings.changed(pointer, `no operationId: named ${id} from its method and path`);
    if (this.ids.has(id)) {
      const base = id;
      for (let n = 2; this.ids.has(id); n += 1) id = `${base}${n}`;
      findings.changed(
        child(pointer, "operationId"),
        `operationId ${base} is used twice: this one is ${id}`,
      );
    }
    this.ids.add(id);
    return id;
  }

  #addOperation(site: OperationSite, method: string): void {
    const { op, pointer, id } = site;
    const fields = [...this.#head(site, method)];
    const request = this.#request(site);
    if (request.length > 0) fields.push(`request: { ${request.join(", ")} }`);
    const { responses, errors } = operationResponses(this.#ep, this.#parts.errors, site);
    fields.push(`responses: { ${responses.join(", ")} }`);
    errors.push(...strings(op[IMPORT_ERRORS]));
    if (errors.length > 0) fields.push(`errors: ${literal([...new Set(errors)])}`);
    // Which of its error types answer the platform's failures is known once every operation
    // is read (part 7): it goes between these fields and the next (`part`).
    const before = fields.splice(0);
    this.#parts.errors.noteOperation(id, pointer, op, PRESENTS);
    // The service's own document names what an operation emits (x-emits).
    const emits = [...strings(op[EMITS]), ...this.#callbacks(site)];
    // A callback is sent because of this operation: its handler may emit it.
    if (emits.length > 0) fields.push(`emits: ${literal(emits)}`);
    // The service's own document names the part 3 transition an operation performs.
    const transition = op[TRANSITION];
    if (isObject(transition) && typeof transition.machine === "string")
      fields.push(
        `transition: ${literal({ machine: transition.machine, trigger: transition.trigger })}`,
      );
    const allowedIn = op[ALLOWED_IN];
    if (isObject(allowedIn) && typeof allowedIn.machine === "string")
      fields.push(
        `allowedIn: ${literal({ machine: allowedIn.machine, states: strings(allowedIn.states) })}`,
      );
    this.#collected.push({ id, before, after: fields });
    this.pointers.set(id, pointer);
    this.#paths.add(site.path);
  }

  /** Method, path, documentation, retirement and security; what else it has is reported. */
  #head({ path, fixed, op, pointer, id }: OperationSite, method: string): string[] {
    const ctx = this.#ep.ctx;
    const fields = [
      `method: ${literal(method.toUpperCase())}`,
      `path: ${literal(ctx.base + path)}`,
      ...(fixed ? [`fixed: ${literal(fixed)}`] : []),
    ];
    if (typeof op.summary === "string") fields.push(`summary: ${literal(op.summary)}`);
    if (typeof op.description === "string") fields.push(`description: ${literal(op.description)}`);
    const tags = strings(op.tags);
    if (tags.length > 0) {
      fields.push(`tags: ${literal(tags)}`);
      for (const tag of tags) this.tagsUsed.add(tag);
    }
    // The service's own document dates an operation's retirement (part 9).
    const retirement = op[DEPRECATION];
    if (isObject(retirement) && typeof retirement.deprecated === "string") {
      const dated = Object.fromEntries(
        ["deprecated", "sunset", "migration"]
          .filter((key) => typeof retirement[key] === "string")
          .map((key) => [key, retirement[key]]),
      );
      fields.push(`deprecated: ${literal(dated)}`);
    } else if (op.deprecated === true) fields.push("deprecated: true");
    if (isObject(op.externalDocs)) fields.push(`externalDocs: ${literal(op.externalDocs)}`);
    const security = operationSecurity(ctx, this.#parts.security, op, pointer, id);
    if (security !== undefined) fields.push(`security: ${security}`);
    if ("servers" in op)
      ctx.findings.lost(
        child(pointer, "servers"),
        "servers of an operation: the service has one set of servers",
      );
    extensionsLost(ctx, op, pointer, "the operation", [EMITS, TRANSITION, ALLOWED_IN, DEPRECATION]);
    return fields;
  }

  /** The request's parameters by place, and its body. */
  #request(site: OperationSite): string[] {
    const request = requestParameters(this.#ep, site, this.#parts.limits);
    if (site.op.requestBody === undefined) return request;
    const bodyPointer = child(site.pointer, "requestBody");
    const { node: body } = follow(this.#ep.ctx.document, site.op.requestBody, bodyPointer);
    if (!isObject(body)) return request;
    const content = contentOf(this.#ep, body, bodyPointer, "request");
    if (content && content !== "{  }") {
      request.push(`body: ${content}`);
      if (typeof body.description === "string")
        request.push(`bodyDescription: ${literal(body.description)}`);
      if (body.required !== true) request.push("bodyRequired: false");
    }
    return request;
  }

  /** The events an operation's callbacks become (by POST only), by name. */
  #callbacks({ op, pointer, id }: OperationSite): string[] {
    const { document } = this.#ep.ctx;
    const emits: string[] = [];
    if (!isObject(op.callbacks)) return emits;
    for (const [name, rawCallback] of Object.entries(op.callbacks)) {
      const cbPointer = child(pointer, "callbacks", name);
      const { node: callback } = follow(document, rawCallback, cbPointer);
      if (!isObject(callback)) continue;
      for (const [expression, rawItem] of Object.entries(callback)) {
        const { node: cbItem } = follow(document, rawItem, child(cbPointer, expression));
        if (!isObject(cbItem)) continue;
        for (const [cbMethod, cbOp] of Object.entries(cbItem)) {
          const event = this.#callbackEvent({ name, id, expression, cbPointer }, cbMethod, cbOp);
          if (event) emits.push(event);
        }
      }
    }
    return emits;
  }

  /** One callback operation as an event, by POST; its name, or undefined. */
  #callbackEvent(
    where: { name: string; id: string; expression: string; cbPointer: string },
    cbMethod: string,
    cbOp: unknown,
  ): string | undefined {
    const { findings } = this.#ep.ctx;
    const { name, id, expression, cbPointer } = where;
    if (
      !isObject(cbOp) ||
      !(METHODS as readonly string[]).concat(UNSERVED_METHODS).includes(cbMethod)
    )
      return undefined;
    const at = child(cbPointer, expression, cbMethod);
    if (cbMethod !== "post") {
      findings.lost(at, `a callback by ${cbMethod.toUpperCase()}: events are delivered by POST`);
      return undefined;
    }
    const eventName = this.#parts.events.uniqueName(name);
    findings.changed(
      at,
      `callback ${name} of ${id}: event ${eventName}; where it is sent (${expression}) is deployment configuration`,
    );
    this.#parts.events.add(eventName, cbOp, at);
    return eventName;
  }
}

/** The methods of a path item the platform serves. */
function methodsOf(item: unknown): string[] {
  return isObject(item) ? METHODS.filter((method) => isObject(item[method])) : [];
}

/**
 * Why a path key cannot be served, if it cannot: a Paths Object key is a relative URL path,
 * templated or not (OpenAPI 3.1 §4.8.8); a query of `name=value` pairs after it tells the
 * path's operations apart (`/rest?method=x`, src/contract-language/path-key.ts), but one
 * of another form cannot be routed as the key says.
 */
function notAPath(path: string, item: unknown): string | undefined {
  const { query } = pathKeyParts(path);
  if (query === undefined || keyPairs(query) !== undefined) return undefined;
  const methods = methodsOf(item).map((m) => m.toUpperCase());
  const those = methods.length > 0 ? `, nor its operations (${methods.join(", ")})` : "";
  return `the key's query (?${query}) is not name=value pairs, each name once, so it does not say which requests are this path's (OpenAPI 3.1 §4.8.8, Paths Object; RFC 3986 §3.4): the path is not served${those}`;
}

/**
 * What tells a key's operations apart from others on their method and path: the values of
 * its query (`?view=status`), and of its fragment where it is pairs (`#Action=AddTags`), a
 * fragment no client sends (RFC 3986 §3.5), so read from the query as the query's own.
 */
function keyFixed(path: string): { route: string; fragment?: Record<string, string> } {
  const { query, fragment } = pathKeyParts(path);
  const fromQuery = query === undefined ? {} : (keyPairs(query)?.fixed ?? {});
  const pairs = fragment?.includes("=") ? keyPairs(fragment) : undefined;
  const fromFragment =
    pairs && pairs.templated.length === 0 && Object.keys(pairs.fixed).length > 0
      ? pairs.fixed
      : undefined;
  const all = { ...fromQuery, ...fromFragment };
  const route = Object.keys(all)
    .sort()
    .map((name) => `${name}=${all[name]}`)
    .join("&");
  return { route: route ? ` ?${route}` : "", ...(fromFragment ? { fragment: fromFragment } : {}) };
}

/** A path key served as an earlier key's template, and its parameters' names in that one. */
interface SameTemplate {
  readonly path: string;
  readonly renamed: ReadonlyMap<string, string>;
}

/**
 * Path keys that differ from an earlier key only in their parameters' names (`/a/{id}`
 * after `/a/{idOrUrl}`): one path (OpenAPI 3.1 §4.8.8), which a router cannot tell apart,
 * so each is served as the first such key, its parameters renamed by position.
 */
function sameTemplates(paths: readonly string[]): Map<string, SameTemplate> {
  const PARAM = /\{([^}]+)\}/g;
  const first = new Map<string, string>();
  const same = new Map<string, SameTemplate>();
  for (const path of paths) {
    const shape = path.replace(PARAM, "{}");
    const earlier = first.get(shape);
    if (earlier === undefined) {
      first.set(shape, path);
      continue;
    }
    const names = (p: string) => [...p.matchAll(PARAM)].map((m) => m[1] as string);
    const [from, to] = [names(path), names(earlier)];
    const renamed = new Map(
      from.flatMap((name, i) => (name === to[i] ? [] : [[name, to[i] as string]])),
    );
    // Names repeated within one key (no valid template) are left to the platform's check.
    if (renamed.size > 0 && new Set(from).size === from.length)
      same.set(path, { path: earlier, renamed });
  }
  return same;
}
