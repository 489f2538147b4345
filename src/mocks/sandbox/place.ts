/**
 * Where the sandbox places each operation, read from the contract alone: by its path, its
 * method and its schemas, never by its name. A path whose last segment is one parameter
 * (`/pets/{petId}`) is an item of the collection before it (`/pets`); an operation on it
 * whose answer (or whose sibling read's answer) is a part 2 resource reads, replaces
 * (PUT), updates (PATCH) or deletes that item; GET on the collection lists the resource
 * (an array of it, or an object holding one such array: a page), POST creates one; an
 * operation that declares a part 3 transition on an item moves its state. Anything else
 * (a body the sandbox cannot store, an answer that is not the resource, a resource without
 * a member that holds its id, ids its schema cannot be made for) answers from the
 * contract's examples, and `why` says so. Planned once per contract, on first use; a Worker
 * built with the sandbox is given each route as the build planned it (./cards.ts).
 */
import type {
  Contract,
  Operation,
  ResponseDeclaration,
  Schema,
} from "../../contract-language/contract";
import { resolveSchema, schemaOf } from "../../contract-language/contract";
import { builtSchema } from "../../contract-language/lazy";
import { bodyKind } from "../../contract-language/media-types";
import { fixedQuery, routedPath } from "../../contract-language/path-key";
import { defOf, unwrap } from "../../contract-language/zod-def";
import { membersOf, objectShape } from "../../engine/zod/shape";
import { defaultOf, type IdKind, idKindOf, isMarked, isOptional, satisfies } from "./values";

type Place =
  | "list"
  | "create"
  | "read"
  | "replace"
  | "update"
  | "delete"
  | "transition"
  | "examples";

/** How one operation is answered without a handler in the sandbox, and why. */
interface PlacedOperation {
  readonly id: string;
  readonly place: Place;
  /** The part 2 resource it acts on, when it is placed. */
  readonly resource?: string;
  readonly why: string;
}

/** A part 2 resource as the sandbox stores it. */
export interface SandboxResource {
  readonly name: string;
  readonly schema: Schema;
  readonly shape: Readonly<Record<string, Schema>>;
  /** The member that holds an item's id, and how ids are made for it. */
  readonly idMember: string;
  readonly idKind: IdKind;
  /** The schemas of the path parameters that name an item: a made id satisfies them too. */
  readonly idParams: readonly Schema[];
  /** Part 3's machines over it: the state is in `field`, or kept beside the item. */
  readonly machines: readonly {
    readonly name: string;
    readonly field: string | undefined;
    readonly initial: string;
  }[];
}

/** How a list is read from the query and written into its answer. */
export interface ListPlan {
  /** The member of the answer that holds the items; undefined when the answer is the array. */
  readonly envelope: string | undefined;
  /** The members each item is answered with, where the items are a view of the resource. */
  readonly view: readonly string[] | undefined;
  /**
   * The other members of a page: its query parameter's value where one is named so (the
   * page size, the page), whether more items follow (`has_more`) or none do (`done`), the
   * next page's cursor or number, else the total where an integer fits, else a value the
   * member's schema accepts if it is required; an optional one is left out.
   */
  readonly pageMembers: readonly {
    readonly name: string;
    readonly fill: "echo" | "total" | "more" | "done" | "next" | "made";
    /** For `echo`: the query parameter it echoes (named as the member, in any case style). */
    readonly from?: string;
    readonly schema: Schema;
  }[];
  readonly pageSize: string | undefined;
  /** Where a page starts: an offset, a page number counted from `first` (0 or 1), or a cursor. */
  readonly position:
    | { readonly param: string; readonly kind: "offset" }
    | { readonly param: string; readonly kind: "page"; readonly first: 0 | 1 }
    | { readonly param: string; readonly kind: "cursor" }
    | undefined;
  /** Query parameters named as a scalar member of the resource: equality filters. */
  readonly filters: readonly string[];
  /** Whether the answer declares a `Link` header (RFC 8288), written with next and prev. */
  readonly links: boolean;
}

/** A placed operation, with what serving it needs. */
export interface SandboxRoute {
  readonly id: string;
  readonly place: Exclude<Place, "examples">;
  readonly resource: SandboxResource;
  /** The operation's path template. */
  readonly path: string;
  /** The collection's path template (`/owners/{ownerId}/pets`). */
  readonly collection: string;
  /** The path parameter that names the item, for operations on one. */
  readonly itemParam: string | undefined;
  /** The item the collection belongs to, when it is nested and that item can be read. */
  readonly parent: { readonly resource: string; readonly param: string } | undefined;
  /** The success status answered, and whether its body is the item. */
  readonly status: number;
  readonly answersItem: boolean;
  /**
   * Where the answer wraps the item (`{ "data": item, "links": … }`): the member that holds
   * it, and the other members, each made as its schema says where required.
   */
  readonly wrap?: { readonly member: string; readonly others: Readonly<Record<string, Schema>> };
  /**
   * Where the answer is not the item, though the operation acts on the resource read at its
   * collection: an asynchronous operation's task or status (RFC 9110 §15.3.3: 202), or an
   * acknowledgement with no id of its own (`EmptyResponse`). Its schema, answered made; the
   * item is still stored and readable where the document reads it.
   */
  readonly madeAnswer?: Schema;
  /**
   * Where the answer is a view of the item (a create answering `DeviceToPost`, a subset of
   * the `Device` read at its collection): the members it is answered with.
   */
  readonly answerView?: readonly string[];
  /** PUT to an item that does not exist creates it only where the operation declares 201. */
  readonly creates: boolean;
  readonly list: ListPlan | undefined;
  readonly machine: string | undefined;
  readonly emits: readonly string[];
}

interface SandboxPlan {
  readonly routes: ReadonlyMap<string, SandboxRoute>;
  readonly placements: readonly PlacedOperation[];
  /** The origins of part 1's servers: URLs on them are moved to the deployment's (made.ts). */
  readonly servers: readonly string[];
}

/** The origins of the contract's absolute server URLs, their variables at their defaults. */
function serverOrigins(contract: Contract): string[] {
  const origins = new Set<string>();
  for (const { url, variables = {} } of contract.purpose?.servers ?? []) {
    const filled = url.replace(
      /\{([^{}]+)\}/g,
      (_, name: string) => variables[name]?.default ?? "",
    );
    if (URL.canParse(filled) && /^https?:/i.test(filled)) origins.add(new URL(filled).origin);
  }
  return [...origins];
}

const PARAMETER = /^\{([^{}]+)\}$/;
/** A name as spelt in any case style (`PageSize`, `page_size`, `page-size`). */
export const spelling = (name: string) => name.toLowerCase().replace(/[_-]/g, "");

const UNREADABLE = "its answer is in no media type the sandbox writes (JSON, XML, a form)";
const OBJECT_KINDS = new Set(["json", "xml", "form"]);

/**
 * A format suffix on a path's last segment (`/calls/{sid}.json`), or a trailing slash
 * (`/app/{app_id}/`), which its collection shares (`/calls.json`, `/app/`).
 */
const SUFFIX = /^(\{[^{}]+\}|[^{}.]+)(\.[A-Za-z][A-Za-z0-9]*)$/;

export function splitSuffix(path: string): { base: string; suffix: string } {
  if (path.length > 1 && path.endsWith("/")) return { base: path.slice(0, -1), suffix: "/" };
  const suffix = SUFFIX.exec(path.split("/").at(-1) ?? "")?.[2] ?? "";
  return { base: path.slice(0, path.length - suffix.length), suffix };
}

/** A path as a key, whatever its parameters are named (`/a/{}/b`). */
const keyOf = (path: string) => path.replace(/\{[^{}]+\}/g, "{}");

/**
 * The item path's collection and parameter; undefined when the last segment is not one
 * parameter (with a format suffix, which the collection then has too: `/calls.json`).
 */
function itemOf(path: string): { collection: string; param: string } | undefined {
  const { base, suffix } = splitSuffix(path);
  const segments = base.split("/");
  const param = PARAMETER.exec(segments.at(-1) ?? "")?.[1];
  const prefix = segments.slice(0, -1).join("/");
  const last = prefix.split("/").at(-1) ?? "";
  if (param === undefined || last === "" || PARAMETER.test(last)) return undefined;
  return { collection: `${prefix}${suffix}`, param };
}

/**
 * The part 2 resource `schema` is (the same schema, under any wrapper). A resource not yet
 * built cannot be it (`schema` was built with whatever it is made of), so none is built here.
 */
function resourceNamed(contract: Contract, schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  const target = unwrap(schema);
  for (const [name, resource] of Object.entries(contract.resources)) {
    const built = builtSchema(resource);
    if (built && unwrap(built) === target) return name;
  }
  return undefined;
}

/**
 * The part 2 resource an item answer carries: the answer itself, or the one member of an
 * object answer that is a resource (an envelope, links beside it), read one level down.
 */
function answeredResource(
  contract: Contract,
  schema: Schema,
  param: string | undefined,
): { readonly resource: string; readonly wrap?: SandboxRoute["wrap"] } | undefined {
  const resource = resourceNamed(contract, schema);
  const shape = objectShape(unwrap(schema));
  // A named resource is the item, unless it has no id (named as the item's path parameter,
  // or `id`) and wraps one object resource that is the item (`{ result }`).
  if (resource && (!shape || hasId(contract, resource, param))) return { resource };
  if (!shape) return undefined;
  const held = Object.entries(shape).flatMap(([member, value]) => {
    const named = resourceNamed(contract, value);
    const object = named !== undefined && resourceMembers(contract, named) !== undefined;
    return named && object ? [{ member, named }] : [];
  });
  const [only] = held;
  if (held.length !== 1 || !only) return resource ? { resource } : undefined;
  const others = Object.fromEntries(Object.entries(shape).filter(([name]) => name !== only.member));
  return { resource: only.named, wrap: { member: only.member, others } };
}

type Body = { readonly schema: Schema } | "none" | "unreadable";

/** The first JSON, XML or form schema of a content map; "none" without content. */
function bodyOf(content: Readonly<Record<string, unknown>> | undefined): Body {
  const entries = Object.entries(content ?? {});
  if (entries.length === 0) return "none";
  for (const [type, declared] of entries)
    if (OBJECT_KINDS.has(bodyKind(type)))
      return { schema: schemaOf(declared as Parameters<typeof schemaOf>[0]) };
  return "unreadable";
}

/** The schema of operation `op`'s answer of `status`, as `successOf` reads it; undefined without one. */
export function answerSchemaOf(op: Operation, status: number): Schema | undefined {
  const body = bodyOf(op.responses[status]?.content);
  return typeof body === "object" ? body.schema : undefined;
}

/** The success answer: the first of `prefer` declared, else the lowest 2xx status. */
function successOf(op: Operation, prefer: readonly number[]) {
  const declared = Object.keys(op.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((a, b) => a - b);
  const status = prefer.find((s) => declared.includes(s)) ?? declared[0];
  if (status === undefined) return undefined;
  return { status, body: bodyOf(op.responses[status]?.content) };
}

/** The member that holds an item's id: named as the path parameter, else `id`, else the only read-only scalar. */
function idMemberOf(shape: Readonly<Record<string, Schema>>, param: string | undefined) {
  if (param !== undefined && Object.hasOwn(shape, param)) return param;
  const named = Object.keys(shape).find((name) => spelling(name) === spelling(param ?? ""));
  if (named !== undefined) return named;
  // `{issue_number}` names an issue by its `number`: the longest member the name ends with.
  const ending = Object.keys(shape)
    .filter((name) => name.length > 1 && spelling(param ?? "").endsWith(spelling(name)))
    .sort((a, b) => b.length - a.length)[0];
  if (ending !== undefined) return ending;
  if (Object.hasOwn(shape, "id")) return "id";
  const scalars = Object.entries(shape).filter(
    ([, member]) =>
      isMarked(member, "readOnly") && ["string", "number"].includes(defOf(unwrap(member)).type),
  );
  return scalars.length === 1 ? scalars[0]?.[0] : undefined;
}

/** The operations on an item of `collection` whose path parameters give one named `param`. */
export function idParamOperations(
  contract: Contract,
  collection: string,
  param: string,
): Operation[] {
  return (pathIndex(contract).itemOperations.get(keyOf(collection)) ?? []).filter(
    (op) => itemOf(op.path)?.param === param && op.request?.params !== undefined,
  );
}

/** The schemas `operations` give their path parameter `param`, each once. */
export function paramSchemasOf(operations: readonly Operation[], param: string): Schema[] {
  const schemas = new Set<Schema>();
  for (const op of operations) {
    const params = resolveSchema(op.request?.params);
    const schema = params && membersOf(params)?.[param];
    if (schema) schemas.add(schema);
  }
  return [...schemas];
}

/** Part 3's machines over the resource `name`. */
export function machinesOf(contract: Contract, name: string): SandboxResource["machines"] {
  return Object.entries(contract.states)
    .filter(([, machine]) => machine.resource === name)
    .map(([machine, { field, initial }]) => ({ name: machine, field, initial }));
}

/** The resource as the sandbox stores it, or why it cannot. */
function sandboxResource(
  contract: Contract,
  name: string,
  collection: string,
  param: string | undefined,
): SandboxResource | string {
  const schema = resolveSchema(contract.resources[name]);
  const shape = schema && membersOf(schema);
  if (!schema || !shape) return `the resource ${name} is not an object (nor an allOf of objects)`;
  const idMember = idMemberOf(shape, param);
  if (idMember === undefined) return `the resource ${name} has no member that holds its id`;
  const idParams =
    param === undefined
      ? []
      : paramSchemasOf(idParamOperations(contract, collection, param), param);
  const idKind = idKindOf(shape[idMember] as Schema, idParams);
  if (idKind === undefined)
    return `no id the sandbox can make satisfies ${name}'s member ${idMember}${idParams.length > 0 ? ` and the path parameter {${param}} naming it` : ""}`;
  return { name, schema, shape, idMember, idKind, idParams, machines: machinesOf(contract, name) };
}

type Found = {
  readonly route: Omit<SandboxRoute, "resource" | "parent">;
  readonly resource: string;
};

/** What the operation shape's readers share. */
interface ShapeContext {
  readonly base: Pick<SandboxRoute, "id" | "list" | "machine" | "emits" | "creates" | "path">;
  readonly requestBody: Body;
  readonly objectBody: boolean;
}

const ITEM_PLACES: Readonly<Record<string, "read" | "replace" | "update" | "delete">> = {
  GET: "read",
  PUT: "replace",
  PATCH: "update",
  // RFC 9110 §9.3.3: a POST is processed as the resource says; one that sends an object
  // to an item and answers with the item updates it (as documents without PATCH do).
  POST: "update",
  DELETE: "delete",
};

/** An operation on an item path: read, replace, update or delete. */
function itemShape(
  contract: Contract,
  op: Operation,
  item: { readonly collection: string; readonly param: string },
  { base, requestBody, objectBody }: ShapeContext,
): Found | string {
  const place = ITEM_PLACES[op.method];
  if (!place) return `${op.method} on an item path is no read, replace, update or delete`;
  if (place !== "read" && place !== "delete" && !objectBody)
    return "its request body is not an object the sandbox can store";
  const answer = successOf(op, [200, 204, 201]);
  if (!answer) return "it declares no success answer";
  if (answer.body === "unreadable") return UNREADABLE;
  const found =
    answer.body === "none" ? undefined : answeredResource(contract, answer.body.schema, item.param);
  const task = otherAnswerOf(contract, answer, item.collection, found?.resource, item.param);
  const carried = task ? undefined : found;
  const answered = task ? task.resource : carried?.resource;
  if (answer.body !== "none" && !answered)
    return "its answer is not a part 2 resource, nor wraps one";
  if (op.method === "POST" && !answered) return "a POST to an item that does not answer it";
  const resource =
    answered ??
    readOf(contract, op.path) ??
    (place === "replace"
      ? resourceNamed(contract, (requestBody as { schema: Schema }).schema)
      : undefined);
  if (!resource) return "neither its answer nor a read of its path names a resource";
  return {
    resource,
    route: {
      ...base,
      place,
      collection: item.collection,
      itemParam: item.param,
      status: answer.status,
      answersItem: answered !== undefined,
      ...(carried?.wrap ? { wrap: carried.wrap } : {}),
      ...(task ? { madeAnswer: task.made } : {}),
      creates: place === "replace" && 201 in op.responses,
    },
  };
}

/**
 * Whether a body is an object the sandbox can store: an object, or an intersection of
 * objects (OpenAPI's `allOf`, as a document extends a resource with a few members).
 */
function isObjectBody(schema: Schema): boolean {
  return membersOf(schema) !== undefined;
}

/** The operation's shape, or why it has none the sandbox serves. */
function shapeOf(contract: Contract, id: string, op: Operation): Found | string {
  // `/rest?method=x`, `/#Action=X`: a call by name, not a place of a collection or an item.
  if (Object.keys(fixedQuery(op)).length > 0 || routedPath(op.path) !== op.path)
    return "its path key carries a query or a fragment: a call by name, which the sandbox does not place";
  const emits = op.emits ?? [];
  const requestBody = bodyOf(op.request?.body);
  const objectBody = typeof requestBody === "object" && isObjectBody(requestBody.schema);
  const base = {
    id,
    path: op.path,
    list: undefined,
    machine: undefined,
    emits,
    creates: false,
  };
  if (op.transition) {
    const machine = contract.states[op.transition.machine];
    const segments = op.path.split("/");
    while (segments.length > 1 && !PARAMETER.test(segments.at(-1) ?? "")) segments.pop();
    const item = itemOf(segments.join("/"));
    const answer = successOf(op, [200]);
    if (!machine || !item) return "its transition is not on an item path";
    if (!answer) return "it declares no success answer";
    if (answer.body === "unreadable") return UNREADABLE;
    const answersItem = answer.body !== "none";
    if (
      answersItem &&
      resourceNamed(contract, (answer.body as { schema: Schema }).schema) !== machine.resource
    )
      return `its answer is not the resource ${machine.resource}`;
    return {
      resource: machine.resource,
      route: {
        ...base,
        place: "transition",
        collection: item.collection,
        itemParam: item.param,
        status: answer.status,
        answersItem,
        machine: op.transition.machine,
      },
    };
  }
  const item = itemOf(op.path);
  const method = op.method;
  if (item) return itemShape(contract, op, item, { base, requestBody, objectBody });
  const collection = op.path;
  if (method === "POST") {
    if (!objectBody) return "its request body is not an object the sandbox can store";
    const answer = successOf(op, [201, 200]);
    if (!answer || answer.body === "none" || answer.body === "unreadable")
      return "its answer carries no created item";
    const itemParam = itemParamOf(contract, collection);
    const carried = answeredResource(contract, answer.body.schema, itemParam);
    const task = otherAnswerOf(contract, answer, collection, carried?.resource, itemParam);
    const view =
      !task && carried && !carried.wrap
        ? viewAt(contract, collection, carried.resource)
        : undefined;
    // The item it stores, and how its answer is made of it: a task (202), a view, a wrapper, or the item.
    const answering: Pick<SandboxRoute, "madeAnswer" | "answerView" | "wrap"> = task
      ? { madeAnswer: task.made }
      : view
        ? { answerView: view.members }
        : carried?.wrap
          ? { wrap: carried.wrap }
          : {};
    const resource = task?.resource ?? view?.resource ?? carried?.resource;
    if (!resource) return "its answer is not a part 2 resource, nor wraps one";
    return {
      resource,
      route: {
        ...base,
        place: "create",
        collection,
        itemParam: undefined,
        status: answer.status,
        answersItem: true,
        ...answering,
      },
    };
  }
  if (method !== "GET") return `${method} on a collection path is no list or create`;
  const answer = successOf(op, [200]);
  if (answer?.body === "unreadable") return UNREADABLE;
  if (!answer || answer.body === "none") return "its answer is no list";
  const listed = listedResource(contract, answer.body.schema, op.path);
  if (!listed) return "its answer is not a list of a part 2 resource";
  return {
    resource: listed.resource,
    route: {
      ...base,
      place: "list",
      collection,
      itemParam: undefined,
      status: answer.status,
      answersItem: false,
      list: listPlan(contract, id, op, listed),
    },
  };
}

interface Listed {
  readonly resource: string;
  /** The members each item is answered with, where the items are a view of the resource. */
  readonly view: readonly string[] | undefined;
  readonly envelope: string | undefined;
  readonly others: readonly string[];
  readonly shape: Readonly<Record<string, Schema>>;
}

/** The members of the part 2 resource `name`, if it is an object (or an allOf of them). */
function resourceMembers(contract: Contract, name: string) {
  const schema = resolveSchema(contract.resources[name]);
  return schema && membersOf(schema);
}

/** The resource operation `op`'s success answer (the first of `prefer`) carries, if any. */
function carriedBy(
  contract: Contract,
  op: Operation,
  prefer: readonly number[],
  param: string | undefined,
): string | undefined {
  const answer = successOf(op, prefer);
  return typeof answer?.body === "object"
    ? answeredResource(contract, answer.body.schema, param)?.resource
    : undefined;
}

/**
 * The document's operations by where they act, from their paths alone (no schema is read):
 * the parameter naming an item of each collection (the first operation's), the operations on
 * an item of each collection, and the operations at each path, by path key.
 */
interface PathIndex {
  readonly itemParams: ReadonlyMap<string, string>;
  readonly itemOperations: ReadonlyMap<string, readonly Operation[]>;
  readonly at: ReadonlyMap<string, readonly Operation[]>;
}

const pathIndexes = new WeakMap<Contract, PathIndex>();

function pathIndex(contract: Contract): PathIndex {
  const known = pathIndexes.get(contract);
  if (known) return known;
  const itemParams = new Map<string, string>();
  const itemOperations = new Map<string, Operation[]>();
  const at = new Map<string, Operation[]>();
  const push = (map: Map<string, Operation[]>, key: string, op: Operation) => {
    const ops = map.get(key) ?? [];
    ops.push(op);
    map.set(key, ops);
  };
  for (const op of Object.values(contract.operations)) {
    push(at, keyOf(op.path), op);
    const item = itemOf(op.path);
    if (!item) continue;
    const key = keyOf(item.collection);
    if (!itemParams.has(key)) itemParams.set(key, item.param);
    push(itemOperations, key, op);
  }
  const index = { itemParams, itemOperations, at };
  pathIndexes.set(contract, index);
  return index;
}

/**
 * What the document's answers say, by path key, each read on first need from only the
 * operations at that path (a call plans its own operation, never the whole contract's):
 * the resource a GET of an item answers (`reads`: the last such operation's; `readAt`: the
 * first that carries one), the resources a POST to a path answers, and whether some
 * operation the sandbox places creates a resource.
 */
interface Answers {
  readonly reads: Map<string, string | undefined>;
  readonly readAt: Map<string, string | undefined>;
  readonly createdAt: Map<string, ReadonlySet<string>>;
  readonly creatable: Map<string, boolean>;
  readonly planned: Map<string, Found | string>;
  readonly routes: Map<string, SandboxRoute | string>;
}

const answerMemos = new WeakMap<Contract, Answers>();

function answersOf(contract: Contract): Answers {
  const known = answerMemos.get(contract);
  if (known) return known;
  const made: Answers = {
    reads: new Map(),
    readAt: new Map(),
    createdAt: new Map(),
    creatable: new Map(),
    planned: new Map(),
    routes: new Map(),
  };
  answerMemos.set(contract, made);
  return made;
}

/** A memo's value for `key`, made on first need. */
function memoized<V>(map: Map<string, V>, key: string, make: () => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = make();
  map.set(key, value);
  return value;
}

/** The resource a GET of the item path `path` answers, where one does (the last such GET). */
function readOf(contract: Contract, path: string): string | undefined {
  const key = keyOf(path);
  return memoized(answersOf(contract).reads, key, () => {
    let resource: string | undefined;
    for (const op of pathIndex(contract).at.get(key) ?? []) {
      if (op.method !== "GET" || !itemOf(op.path)) continue;
      const answer = successOf(op, [200]);
      const named = typeof answer?.body === "object" && resourceNamed(contract, answer.body.schema);
      if (named) resource = named;
    }
    return resource;
  });
}

/** The resource a GET of an item of `collection` answers, if one does. */
function readAt(contract: Contract, collection: string): string | undefined {
  const key = keyOf(collection);
  return memoized(answersOf(contract).readAt, key, () => {
    for (const op of pathIndex(contract).itemOperations.get(key) ?? []) {
      if (op.method !== "GET") continue;
      const carried = carriedBy(contract, op, [200], itemOf(op.path)?.param);
      if (carried) return carried;
    }
    return undefined;
  });
}

/**
 * The resource read at `collection` where the create's answer `answered` is another that
 * is a view of it (every member of it one of the read resource's), with its members.
 */
function viewAt(
  contract: Contract,
  collection: string,
  answered: string,
): { readonly resource: string; readonly members: readonly string[] } | undefined {
  const resource = readAt(contract, collection);
  if (!resource || resource === answered) return undefined;
  const view = resourceMembers(contract, answered);
  const whole = resourceMembers(contract, resource);
  if (!view || !whole) return undefined;
  const members = Object.keys(view);
  return members.length > 0 && members.every((name) => Object.hasOwn(whole, name))
    ? { resource, members }
    : undefined;
}

/** Whether the resource `name` has a member that could hold its id. */
function hasId(contract: Contract, name: string, param: string | undefined): boolean {
  const shape = resourceMembers(contract, name);
  return shape !== undefined && idMemberOf(shape, param) !== undefined;
}

/**
 * The item of an operation whose answer is not it (`madeAnswer`): where it answers 202
 * (RFC 9110 §15.3.3: a task or a status) or a resource with no id of its own, with another
 * schema than the resource the document reads at `collection`, that resource.
 */
function otherAnswerOf(
  contract: Contract,
  answer: { readonly status: number; readonly body: Body },
  collection: string,
  answered: string | undefined,
  param: string | undefined,
): { readonly resource: string; readonly made: Schema } | undefined {
  if (typeof answer.body !== "object") return undefined;
  const idless = answered !== undefined && !hasId(contract, answered, param);
  if (answer.status !== 202 && !idless) return undefined;
  const resource = readAt(contract, collection);
  return resource && resource !== answered ? { resource, made: answer.body.schema } : undefined;
}

/** The resources created by a POST to `path`, by name. */
function createdAt(contract: Contract, path: string): ReadonlySet<string> {
  const key = keyOf(path);
  return memoized(answersOf(contract).createdAt, key, () => {
    const created = new Set<string>();
    const param = pathIndex(contract).itemParams.get(key);
    for (const op of pathIndex(contract).at.get(key) ?? []) {
      if (op.method !== "POST") continue;
      const carried = carriedBy(contract, op, [201, 200], param);
      if (carried) created.add(carried);
    }
    return created;
  });
}

/**
 * The resource an item schema is a view of: an object all of whose members some resource
 * has (a "summary" of it, or the base schema it extends), the one created at the list's own
 * path where several have them, else the only one; undefined when none or several fit.
 * Where exactly one resource created at the path fits, no other is built to tell: looking
 * at every resource builds every resource's schema on one call (a large API's thousands).
 */
function viewOf(
  contract: Contract,
  element: Schema,
  path: string,
): { readonly resource: string; readonly view: readonly string[] } | undefined {
  const members = membersOf(element);
  const names = members && Object.keys(members);
  if (!names || names.length === 0) return undefined;
  const fits = (name: string) => {
    const shape = resourceMembers(contract, name);
    return shape !== undefined && names.every((member) => Object.hasOwn(shape, member));
  };
  const here = [...createdAt(contract, path)].filter(fits);
  if (here.length === 1) return { resource: here[0] as string, view: names };
  // Several created here fit: so do several of all, and none is the one.
  if (here.length > 1) return undefined;
  const all = Object.keys(contract.resources).filter(fits);
  return all.length === 1 ? { resource: all[0] as string, view: names } : undefined;
}

/** The resource `schema` is an array of (or of a view of); undefined for any other schema. */
function arrayOf(
  contract: Contract,
  schema: Schema,
  path: string,
): { readonly resource: string; readonly view: readonly string[] | undefined } | undefined {
  const def = defOf(unwrap(schema));
  if (def.type !== "array" || !def.element) return undefined;
  const resource = resourceNamed(contract, def.element);
  return resource ? { resource, view: undefined } : viewOf(contract, def.element, path);
}

/**
 * A list answer: an array of a resource, or an object with exactly one such array among its
 * members (read one level down only, so a resource that holds itself is read once).
 */
function listedResource(contract: Contract, schema: Schema, path: string): Listed | undefined {
  const node = unwrap(schema);
  if (defOf(node).type === "array") {
    const listed = arrayOf(contract, node, path);
    return listed ? { ...listed, envelope: undefined, others: [], shape: {} } : undefined;
  }
  const shape = objectShape(node);
  if (!shape) return undefined;
  const arrays = Object.entries(shape).flatMap(([name, member]) => {
    const listed = arrayOf(contract, member, path);
    return listed ? [{ name, ...listed }] : [];
  });
  const [only] = arrays;
  if (arrays.length !== 1 || !only) return undefined;
  return {
    resource: only.resource,
    view: only.view,
    envelope: only.name,
    others: Object.keys(shape).filter((name) => name !== only.name),
    shape,
  };
}

const isInteger = (schema: Schema) =>
  satisfies(unwrap(schema), 1) && !satisfies(unwrap(schema), 1.5);

/** Query parameters named as a page's size, offset, page number or cursor, as spelt by `spelling`. */
const PAGING_NAMES = {
  size: ["limit", "perpage", "pagesize", "size", "count", "top", "maxresults", "maxitems", "take"],
  offset: ["offset", "skip", "start", "startindex"],
  page: ["page", "pagenumber", "pageindex", "pageno"],
  cursor: [
    "cursor",
    "after",
    "startingafter",
    "pagetoken",
    "nexttoken",
    "continuationtoken",
    "marker",
    "startcursor",
  ],
} as const;

const named = (kind: keyof typeof PAGING_NAMES, name: string) =>
  (PAGING_NAMES[kind] as readonly string[]).includes(spelling(name));

/**
 * Page size (part 8's, else one named so, else a bounded integer), position (named as an
 * offset, a page or a cursor, else the one other integer), filters.
 */
function listPlan(contract: Contract, id: string, op: Operation, listed: Listed): ListPlan {
  const declaredQuery = resolveSchema(op.request?.query);
  const query = (declaredQuery && objectShape(declaredQuery)) ?? {};
  const declaredSize = Object.values(contract.limits).find(
    (limit) => limit.kind === "page-size" && limit.operations.includes(id),
  );
  const integers = Object.entries(query).filter(([, schema]) => isInteger(schema));
  const pageSize =
    declaredSize && declaredSize.kind === "page-size"
      ? declaredSize.parameter
      : (integers.find(([name]) => named("size", name)) ??
          integers.find(([, schema]) => !satisfies(unwrap(schema), 1_000_000_000)))?.[0];
  const position = positionIn(query, integers, pageSize);
  const resource = resolveSchema(contract.resources[listed.resource]);
  const shape = (resource && membersOf(resource)) ?? {};
  const filters = Object.keys(query).filter(
    (name) =>
      name !== pageSize &&
      name !== position?.param &&
      Object.hasOwn(shape, name) &&
      ["string", "number", "boolean", "enum"].includes(defOf(unwrap(shape[name] as Schema)).type),
  );
  const headers = resolveSchema(op.responses[200]?.headers);
  return {
    envelope: listed.envelope,
    view: listed.view,
    pageMembers: listed.others.flatMap((name) =>
      pageMember(name, listed.shape[name] as Schema, query),
    ),
    pageSize,
    position,
    filters,
    links: Object.hasOwn((headers && objectShape(headers)) ?? {}, "link"),
  };
}

/** Where a page starts: a parameter named as one, else the only integer beside the size. */
function positionIn(
  query: Readonly<Record<string, Schema>>,
  integers: readonly (readonly [string, Schema])[],
  pageSize: string | undefined,
): ListPlan["position"] {
  const rest = integers.filter(([name]) => name !== pageSize);
  const offset = rest.find(([name]) => named("offset", name));
  if (offset) return { param: offset[0], kind: "offset" };
  const page = rest.find(([name]) => named("page", name));
  if (page) return positionOf(...page);
  const cursor = Object.entries(query).find(
    ([name, schema]) => named("cursor", name) && satisfies(unwrap(schema), "c"),
  );
  if (cursor) return { param: cursor[0], kind: "cursor" };
  const [only] = rest;
  return rest.length === 1 && only ? positionOf(...only) : undefined;
}

/** Member names that say more items follow, that none do, or where the next page starts. */
const MORE = ["hasmore", "more", "hasnext", "hasnextpage", "moreitems"];
const DONE = ["done", "complete", "last", "islast", "islastpage", "finished"];
const NEXT = [
  "next",
  "nextcursor",
  "nextpagetoken",
  "nexttoken",
  "nextpage",
  "cursor",
  "nextmarker",
  "continuationtoken",
  "endcursor",
];

/** How one member of a page (beside its items) is filled. */
function pageMember(
  name: string,
  schema: Schema,
  query: Readonly<Record<string, Schema>>,
): ListPlan["pageMembers"] {
  const from = Object.keys(query).find((param) => spelling(param) === spelling(name));
  const word = spelling(name);
  const flag = satisfies(unwrap(schema), true);
  if (flag && MORE.includes(word)) return [{ name, fill: "more", schema }];
  if (flag && DONE.includes(word)) return [{ name, fill: "done", schema }];
  if (NEXT.includes(word)) return [{ name, fill: "next", schema }];
  if (from !== undefined) return [{ name, fill: "echo", from, schema }];
  if (satisfies(unwrap(schema), 0)) return [{ name, fill: "total", schema }];
  return isOptional(schema) ? [] : [{ name, fill: "made", schema }];
}

/**
 * A position that refuses 0, or starts at 1 by default, counts pages from 1. Otherwise the
 * schema cannot tell a page counted from 0 from an offset, and only the name can: one
 * named a page (`page`, `Page`, `pageNumber`) counts pages from 0, any other is an offset.
 */
function positionOf(param: string, schema: Schema): ListPlan["position"] {
  const start = defaultOf(schema)?.value;
  if (!satisfies(unwrap(schema), 0) || (typeof start === "number" && start >= 1))
    return { param, kind: "page", first: 1 };
  return spelling(param).includes("page")
    ? { param, kind: "page", first: 0 }
    : { param, kind: "offset" };
}

/** The parameter that names an item of `collection`, from any operation on its items. */
export function itemParamOf(contract: Contract, collection: string): string | undefined {
  return pathIndex(contract).itemParams.get(keyOf(collection));
}

/** The item a nested collection belongs to (`/owners/{ownerId}` of `/owners/{ownerId}/pets`). */
function parentOf(
  contract: Contract,
  collection: string,
): (NonNullable<SandboxRoute["parent"]> & { readonly collection: string }) | undefined {
  const { base, suffix } = splitSuffix(collection);
  const path = `${base.split("/").slice(0, -1).join("/")}${suffix}`;
  const item = itemOf(path);
  const resource = item && readOf(contract, path);
  return item && resource
    ? { resource, param: item.param, collection: item.collection }
    : undefined;
}

/** The operation's shape and its resource as the sandbox stores it, or why it has none. */
function plannedOf(
  contract: Contract,
  id: string,
): { found: Found; resource: SandboxResource } | string {
  const op = contract.operations[id];
  if (!op) return "no such operation";
  const found = memoized(answersOf(contract).planned, id, () => shapeOf(contract, id, op));
  if (typeof found === "string") return found;
  const resource = sandboxResource(
    contract,
    found.resource,
    found.route.collection,
    found.route.itemParam ?? itemParamOf(contract, found.route.collection),
  );
  return typeof resource === "string" ? resource : { found, resource };
}

/**
 * Whether an operation the sandbox places creates the resource `name` where it is read: a
 * POST to the collection `near` (the parent's), or a PUT that declares 201 on its items.
 * Only the operations at those paths are planned, never the contract's others.
 */
function creatable(contract: Contract, name: string, near: string): boolean {
  return memoized(answersOf(contract).creatable, `${name} ${keyOf(near)}`, () => {
    const index = pathIndex(contract);
    const ids = new Map(Object.entries(contract.operations).map(([id, op]) => [op, id]));
    const candidates = [
      ...(index.at.get(keyOf(near)) ?? []).filter((op) => op.method === "POST"),
      ...(index.itemOperations.get(keyOf(near)) ?? []).filter(
        (op) => op.method === "PUT" && 201 in op.responses,
      ),
    ];
    return candidates.some((op) => {
      const planned = plannedOf(contract, ids.get(op) ?? "");
      if (typeof planned === "string" || planned.resource.name !== name) return false;
      const { place, creates } = planned.found.route;
      return place === "create" || (place === "replace" && creates);
    });
  });
}

/**
 * The sandbox's route of operation `id`, or why it places none: planned on its first call
 * from its own schemas, its resource's and what the operations at its paths answer. A
 * route keeps its parent only where the sandbox can make one: an owner no placed operation
 * creates (Spotify's users, under `/users/{user_id}/playlists`) is taken to exist, or its
 * collection could never hold an item. Its items are still kept apart by the owner's path.
 */
export function sandboxRoute(contract: Contract, id: string): SandboxRoute | string {
  return routeOf(contract, id, () => {
    const planned = plannedOf(contract, id);
    if (typeof planned === "string") return planned;
    const { found, resource } = planned;
    const parent = parentOf(contract, found.route.collection);
    return {
      ...found.route,
      resource,
      parent:
        parent && creatable(contract, parent.resource, parent.collection)
          ? { resource: parent.resource, param: parent.param }
          : undefined,
    };
  });
}

/**
 * The route of operation `id`, made by `make` on first need and kept: every later ask of
 * `sandboxRoute` answers it. A Worker gives the one the build planned (./cards.ts).
 */
export function routeOf(
  contract: Contract,
  id: string,
  make: () => SandboxRoute | string,
): SandboxRoute | string {
  return memoized(answersOf(contract).routes, id, make);
}

const origins = new WeakMap<Contract, readonly string[]>();

/** The origins of part 1's servers: URLs on them are moved to the deployment's (made.ts). */
export function sandboxServers(contract: Contract): readonly string[] {
  const known = origins.get(contract) ?? serverOrigins(contract);
  origins.set(contract, known);
  return known;
}

const memo = new WeakMap<Contract, SandboxPlan>();

/** Every operation's place in the sandbox, each planned as a call plans it (`sandboxRoute`). */
export function planSandbox(contract: Contract): SandboxPlan {
  const planned = memo.get(contract);
  if (planned) return planned;
  const routes = new Map<string, SandboxRoute>();
  const placements: PlacedOperation[] = [];
  for (const id of Object.keys(contract.operations)) {
    const route = sandboxRoute(contract, id);
    if (typeof route === "string") {
      placements.push({ id, place: "examples", why: route });
      continue;
    }
    routes.set(id, route);
    placements.push({
      id,
      place: route.place,
      resource: route.resource.name,
      why: whyPlaced(route),
    });
  }
  const plan = { routes, placements, servers: sandboxServers(contract) };
  memo.set(contract, plan);
  return plan;
}

function whyPlaced(route: SandboxRoute): string {
  const { place, path, resource } = route;
  switch (place) {
    case "list":
      return route.list?.view
        ? `GET of the collection ${path}, answering ${resource.name} items as a view of ${route.list.view.length} of its members`
        : `GET of the collection ${path}, answering ${resource.name} items`;
    case "create":
      return `POST to the collection ${path}, answering ${answering(route, "it made")}`;
    case "transition":
      return `the transition of ${route.machine} on the ${resource.name} at ${path}`;
    default:
      return `${place} of the ${resource.name} at ${path}${route.madeAnswer || route.wrap || route.answerView ? `, answering ${answering(route, "")}` : ""}`;
  }
}

/** What an item's answer is: the item, the item wrapped, or another schema made (a 202's task). */
function answering(route: SandboxRoute, made: string): string {
  const { resource, madeAnswer, wrap, answersItem, status } = route;
  const item = `the ${resource.name}${made ? ` ${made}` : ""}`;
  if (madeAnswer)
    return `${status === 202 ? "a task (202)" : "an answer made as its schema says"} for ${item}`;
  if (wrap) return `${item} in its member ${wrap.member}`;
  if (route.answerView) return `${item} as a view of ${route.answerView.length} of its members`;
  return answersItem ? item : "no body";
}

/**
 * How each operation is answered without a handler in the sandbox, and why: an action on a
 * stored resource, or `examples` (the contract's own examples answer it) with the reason.
 */
export function placeOperations(contract: Contract): readonly PlacedOperation[] {
  return planSandbox(contract).placements;
}

/** Whether any operation acts on stored resources: then a deployment needs the store's binding. */
export function needsSandbox(contract: Contract): boolean {
  return planSandbox(contract).routes.size > 0;
}

/**
 * How operation `op` answers a missing item in its own words: a part 7 error type of status
 * 404 it declares, else its own 404, `4XX` or `default` answer (OpenAPI 3.1 §4.8.16.2).
 * Undefined when it has none: the sandbox then answers the platform's 404 (items.ts,
 * `missing`), which the served document lists (`sandboxNotFound`).
 */
export function ownMissingAnswer(
  contract: Contract,
  op: Operation,
): { readonly error: string } | { readonly response: ResponseDeclaration } | undefined {
  const error = (op.errors ?? []).find((name) => contract.errors[name]?.status === 404);
  if (error !== undefined) return { error };
  const response = op.responses[404] ?? op.responses["4XX"] ?? op.responses.default;
  return response ? { response } : undefined;
}

/**
 * The operations the sandbox places on an item they write (not a GET): each write is tried
 * again while another lands first, and may end in the sandbox's 503 (records.ts). The
 * served document lists that 503 for them (src/engine/operations/model.ts).
 */
function sandboxWrites(contract: Contract): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const [id, route] of planSandbox(contract).routes)
    if (route.itemParam !== undefined && contract.operations[id]?.method !== "GET") ids.add(id);
  return ids;
}

/**
 * The operations the sandbox places as creates that declare no 409 of their own: each may
 * be given an id an item has, and answer 409 (answer.ts). The served document lists that 409 for them
 * (src/engine/operations/model.ts).
 */
function sandboxCreates(contract: Contract): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const [id, route] of planSandbox(contract).routes) {
    const op = contract.operations[id];
    // An operation that declares its own 409 keeps it, in its own words.
    const own =
      op?.responses[409] !== undefined ||
      (op?.errors ?? []).some((name) => contract.errors[name]?.status === 409);
    if (route.place === "create" && !own) ids.add(id);
  }
  return ids;
}

/**
 * The operations the sandbox places that store an item (a create, a replace, an update, a
 * transition): each may find the caller's sandbox full and answer 507 (records.ts). The
 * served document lists that 507 for them (src/engine/operations/model.ts).
 */
function sandboxStores(contract: Contract): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const [id, route] of planSandbox(contract).routes)
    if (route.place !== "list" && route.place !== "read" && route.place !== "delete") ids.add(id);
  return ids;
}

/**
 * The operations the sandbox can answer with the platform's 404: those it places on an
 * item, or in a collection that belongs to one, that do not answer a missing item
 * themselves. The served document lists that 404 for them (src/engine/operations/model.ts),
 * as it lists the 501 they answer while no handler is attached.
 */
function sandboxNotFound(contract: Contract): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const [id, route] of planSandbox(contract).routes) {
    const op = contract.operations[id];
    const canMiss = route.itemParam !== undefined || route.parent !== undefined;
    if (op && canMiss && !ownMissingAnswer(contract, op)) ids.add(id);
  }
  return ids;
}

/** What the OpenAPI document says of the sandbox's operations (the build's engine asks). */
export function sandboxMarks(contract: Contract) {
  return {
    notFound: sandboxNotFound(contract),
    writes: sandboxWrites(contract),
    stores: sandboxStores(contract),
    creates: sandboxCreates(contract),
  };
}
