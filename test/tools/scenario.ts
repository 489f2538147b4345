/**
 * A scenario walk over each resource the sandbox places (issue 41 §4), as a client of the
 * served document would walk it: create → read → list → replace → update → transition →
 * delete → read again (404). Each placed resource is a part 2 resource in one collection
 * (`/owners/{ownerId}/pets`): its placed operations (src/mocks/sandbox/place.ts) are
 * found in the document the same app serves by their operation id, and each request is
 * the conformance checker's valid request for it (test/tools/conformance/valid-request.ts:
 * parameters and a body made from the document's schemas, seeded, request direction),
 * with the path parameters the scenario knows fixed: the item's id (from the created
 * item's id member, else its `Location`), and the parents' (a nested collection's owner is
 * created first, where the sandbox creates it; other parameters take made values).
 *
 * Every answer is held to the served document (test/tools/conformance/documented.ts): its
 * status (exact, range or `default`), the headers it marks required, the media type and
 * the body against the documented schema, with the validator the caller brings (Ajv in
 * Node); and no member the schema marks writeOnly. Collected: the steps run, the answers
 * that are invalid (operation, status, the first errors, and a class), the steps that
 * could not run and why, and what the scenario expected and did not get (a 2xx, the 404).
 */
import type { Contract } from "../../src/contract-language/contract";
import { generateValue } from "../../src/mocks/examples/generate";
import { planSandbox, type SandboxRoute, splitSuffix } from "../../src/mocks/sandbox/place";
import { documented, documentedFailures, type SchemaCheck } from "./conformance/documented";
import { type Presented, validRequest } from "./conformance/valid-request";
import { deref, writeOnlyHeld } from "./walk";

type Json = Record<string, unknown>;
type Fetch = (request: Request) => Promise<Response>;
type Params = Readonly<Record<string, unknown>>;

export const BASE = "https://scenario.test";

/** The order a scenario runs an item's steps in. */
const ORDER = ["create", "read", "list", "replace", "update", "transition", "delete"] as const;
/** Besides: an owner made first (`parent`), a read once deleted (`gone`), of an id never made (`missing`). */
export type Step = (typeof ORDER)[number] | "parent" | "gone" | "missing";

/** One request the scenario made, and what came back. */
export interface Ran {
  readonly resource: string;
  readonly step: Step;
  readonly operationId: string;
  /** `METHOD /concrete/path → status`. */
  readonly label: string;
  readonly status: number;
}

export interface Invalid extends Ran {
  /** What the answer breaks of the document, each failure in full. */
  readonly failures: readonly string[];
  /** Its kind, for counting: `update (PATCH): a member's value breaks a pattern`. */
  readonly classes: readonly string[];
}

export interface ScenarioReport {
  /** The placed resources walked: a resource in one collection. */
  readonly resources: readonly string[];
  readonly ran: readonly Ran[];
  readonly invalid: readonly Invalid[];
  /** Steps that could not run, and why (no request could be made, no item to act on). */
  readonly notRun: readonly string[];
  /** What the scenario expected and did not get: a success, a 404 once deleted. */
  readonly unmet: readonly string[];
}

/** A placed resource: the resource in one collection, with its placed operations. */
interface Placed {
  readonly name: string;
  readonly resource: string;
  readonly collection: string;
  readonly routes: readonly SandboxRoute[];
}

interface Located {
  readonly template: string;
  readonly method: string;
}

/** What one walk shares: the document, the app, credentials and what it found so far. */
interface Walk {
  readonly document: Json;
  readonly check: ReturnType<typeof documented>;
  readonly fetch: Fetch;
  readonly credentials: Readonly<Record<string, Presented>>;
  readonly located: ReadonlyMap<string, Located>;
  readonly placed: readonly Placed[];
  /** The parameters of an owner item made for a nested collection, by placed resource. */
  readonly parents: Map<string, Promise<Owner>>;
  readonly ran: Ran[];
  readonly invalid: Invalid[];
  readonly notRun: string[];
  readonly unmet: string[];
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A path as a key, whatever its parameters are named (`/a/{}/b`), as place.ts keys it. */
const keyOf = (path: string) => path.replace(/\{[^{}]+\}/g, "{}");

/** A format suffix of a path's last segment (`.json` of `/calls/{sid}.json`), or a trailing slash. */
const suffixOf = (path: string) => splitSuffix(path).suffix;

/** The item path of a collection: `/pets/{}` of `/pets`, `/calls/{}.json` of `/calls.json`. */
function itemKey(collection: string): string {
  const suffix = suffixOf(collection);
  return `${keyOf(collection.slice(0, collection.length - suffix.length))}/{}${suffix}`;
}

/** The owner item path of a nested collection: `/owners/{}` of `/owners/{ownerId}/pets`. */
function ownerKey(collection: string): string {
  const suffix = suffixOf(collection);
  const base = collection.slice(0, collection.length - suffix.length);
  return `${keyOf(base.split("/").slice(0, -1).join("/"))}${suffix}`;
}

/** The placed routes, one placed resource per resource and collection, in the plan's order. */
function placedResources(routes: ReadonlyMap<string, SandboxRoute>): Placed[] {
  const byKey = new Map<string, Placed>();
  for (const route of routes.values()) {
    const key = `${route.resource.name} ${keyOf(route.collection)}`;
    const found = byKey.get(key);
    byKey.set(key, {
      name: `${route.resource.name} at ${route.collection}`,
      resource: route.resource.name,
      collection: route.collection,
      routes: [...(found?.routes ?? []), route],
    });
  }
  return [...byKey.values()];
}

/** Where each operation id stands in the served document: its path template and method. */
function locate(document: Json): Map<string, Located> {
  const located = new Map<string, Located>();
  for (const [template, item] of Object.entries(isObject(document.paths) ? document.paths : {}))
    for (const [method, operation] of Object.entries(isObject(item) ? item : {}))
      if (isObject(operation) && typeof operation.operationId === "string")
        located.set(operation.operationId, { template, method: method.toUpperCase() });
  return located;
}

/**
 * The document with the path parameters in `params` fixed: each given to the operation as
 * a `const`, which the valid request then takes (the operation's parameters win, OpenAPI
 * 3.1 §4.8.10.1). Only the operation is copied, not the document.
 */
function withParams(document: Json, { template, method }: Located, params: Params): Json {
  const paths = document.paths as Json;
  const item = paths[template] as Json;
  const operation = item[method.toLowerCase()] as Json;
  const fixed = Object.entries(params)
    .filter(([name]) => template.includes(`{${name}}`))
    .map(([name, value]) => ({ name, in: "path", required: true, schema: { const: value } }));
  const parameters = [
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
    ...fixed,
  ];
  return {
    ...document,
    paths: {
      ...paths,
      [template]: { ...item, [method.toLowerCase()]: { ...operation, parameters } },
    },
  };
}

/**
 * The document as one client reads it: every request carries the credentials the client
 * holds, open operations' too, as a client configured with its keys sends them (the sandbox
 * names the caller's data by the credentials sent, whichever scheme an operation names).
 */
function asClient(document: Json, { template, method }: Located, walk: Walk): Json {
  const schemes = Object.keys(walk.credentials);
  if (schemes.length === 0) return document;
  const paths = document.paths as Json;
  const item = paths[template] as Json;
  const operation = item[method.toLowerCase()] as Json;
  const security = [Object.fromEntries(schemes.map((scheme) => [scheme, []]))];
  return {
    ...document,
    paths: {
      ...paths,
      [template]: { ...item, [method.toLowerCase()]: { ...operation, security } },
    },
  };
}

/** What an answer came back as: its status, its JSON body (if any), its Location. */
interface Answer {
  /** `METHOD /concrete/path → status`. */
  readonly label: string;
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  readonly location: string | null;
}

/** The step's request, sent, and its answer held to the document; undefined: not sent. */
async function send(
  walk: Walk,
  placed: Placed,
  step: Step,
  route: SandboxRoute,
  params: Params,
): Promise<Answer | undefined> {
  const located = walk.located.get(route.id);
  const where = `${placed.name}: ${step} (${route.id})`;
  if (!located) {
    walk.notRun.push(`${where}: the served document has no operation ${route.id}`);
    return undefined;
  }
  const document = asClient(withParams(walk.document, located, params), located, walk);
  const built = validRequest(document, located.template, located.method, walk.credentials);
  if (!built.ok) {
    walk.notRun.push(`${where}: no valid request: ${built.reason}`);
    return undefined;
  }
  const { path, headers, body, sign } = built.request;
  let request = new Request(`${BASE}${path}`, {
    method: located.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  if (sign) request = await sign(request);
  const response = await walk.fetch(request);
  const text = await response.text();
  const label = `${located.method} ${path} → ${response.status}`;
  const ran: Ran = {
    resource: placed.name,
    step,
    operationId: route.id,
    label,
    status: response.status,
  };
  walk.ran.push(ran);
  const failures = [
    ...documentedFailures(walk.check, located.template, located.method, response, text),
    ...writeOnlyFailures(walk.document, located, response, text),
  ];
  if (failures.length > 0)
    walk.invalid.push({
      ...ran,
      failures,
      classes: failures.map((f) => `${step} (${located.method}): ${classOf(f)}`),
    });
  const location = response.headers.get("location");
  return { label, status: response.status, body: jsonOf(text), text, location };
}

const jsonOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The members of a JSON answer its documented schema marks writeOnly (never to be answered). */
function writeOnlyFailures(
  document: Json,
  { template, method }: Located,
  response: Response,
  text: string,
): string[] {
  const operation = ((document.paths as Json)[template] as Json)[method.toLowerCase()] as Json;
  const answer = (operation.responses as Json | undefined)?.[String(response.status)];
  const content = isObject(answer) && isObject(answer.content) ? answer.content : {};
  const media = content["application/json"];
  const value = jsonOf(text);
  if (!isObject(media) || value === undefined) return [];
  return writeOnlyHeld(document, media.schema, value).map(
    (member) => `the write-only member ${member} is answered`,
  );
}

/** A failure's kind, without the values that differ from one answer to the next. */
export function classOf(failure: string): string {
  const rules: readonly [RegExp, (m: RegExpExecArray) => string][] = [
    [/^status (\d+) is not documented/, (m) => `status ${m[1]} is not documented`],
    [/^header (\S+) is documented as required/, (m) => `required header ${m[1]} missing`],
    [/must have required property '([^']+)'/, (m) => `required member ${m[1]} missing`],
    [/must match pattern/, () => "a value breaks a pattern"],
    [/must match format "([^"]+)"/, (m) => `a value breaks format ${m[1]}`],
    [/must be equal to one of the allowed values/, () => "a value outside its enum"],
    [/must be equal to constant/, () => "a value other than its const"],
    [/must NOT have additional properties/, () => "an undeclared member"],
    [/must be (string|number|integer|boolean|object|array|null)\b/, (m) => `a ${m[1]} expected`],
    [/must NOT have (fewer|more) than/, (m) => `a value with ${m[1]} items or characters`],
    [/must match exactly one schema in oneOf/, () => "a value matching no one oneOf branch"],
    [/the write-only member/, () => "a write-only member answered"],
    [/^media type (\S+) is not documented/, (m) => `media type ${m[1]} not documented`],
    [/documents no body, and one came/, () => "a body where none is documented"],
  ];
  for (const [pattern, name] of rules) {
    const match = pattern.exec(failure);
    if (match) return name(match);
  }
  return failure.slice(0, 80);
}

/** An XML body's member: its root's attribute of that name, else its first element so named. */
function xmlMember(text: string, name: string): string | undefined {
  const root = /<[^?!][^>]*>/.exec(text)?.[0] ?? "";
  const attribute = new RegExp(`\\s${name}="([^"]*)"`).exec(root)?.[1];
  return attribute ?? new RegExp(`<${name}>([^<]+)</${name}>`).exec(text)?.[1];
}

/**
 * The id of the item an answer made: its id member (in JSON, or an XML body's element of
 * that name), else the last segment of `Location`.
 */
function madeId(route: SandboxRoute, answer: Answer): unknown {
  const name = route.resource.idMember;
  // An answer that wraps the item (`{ "data": item }`) holds the id in its member.
  const wrapped = route.wrap && isObject(answer.body) ? answer.body[route.wrap.member] : undefined;
  const body = route.wrap ? wrapped : answer.body;
  const member = isObject(body)
    ? body[name]
    : /^\s*</.test(answer.text)
      ? xmlMember(answer.text, name)
      : undefined;
  if (member !== undefined && member !== null) return member;
  if (!answer.location) return undefined;
  const suffix = suffixOf(route.collection);
  const path = answer.location.split("?")[0] ?? "";
  const last = (suffix === "/" ? path.replace(/\/$/, "") : path).split("/").at(-1) ?? "";
  const id =
    suffix && suffix !== "/" && last.endsWith(suffix) ? last.slice(0, -suffix.length) : last;
  return id === "" ? undefined : decodeURIComponent(id);
}

const ok = (answer: Answer | undefined) =>
  answer !== undefined && answer.status >= 200 && answer.status < 300;

/** The routes of one step, in the plan's order. */
const routesOf = (placed: Placed, step: (typeof ORDER)[number]) =>
  placed.routes.filter((route) => route.place === step);

/** The placed resource whose items own `placed`'s collection, where one is placed. */
function ownerOf(walk: Walk, placed: Placed): Placed | undefined {
  const parent = placed.routes.find((route) => route.parent)?.parent;
  if (!parent) return undefined;
  const key = ownerKey(placed.collection);
  return walk.placed.find(
    (other) => other.resource === parent.resource && itemKey(other.collection) === key,
  );
}

/** An owner item made for a nested collection: its collection's parameters and its id. */
type Owner = { readonly params: Params; readonly id: unknown } | string;

/**
 * The path parameters of `placed`'s collection: for a nested one, an owner item made for
 * it (its own owners first, once per walk); the rest take made values. A string: why none.
 */
async function collectionParams(walk: Walk, placed: Placed, depth = 0): Promise<Params | string> {
  const owner = ownerOf(walk, placed);
  const param = placed.routes.find((route) => route.parent)?.parent?.param;
  if (!owner || param === undefined || depth > 8) return {};
  const made = walk.parents.get(owner.name) ?? madeOwner(walk, owner, depth);
  walk.parents.set(owner.name, made);
  const found = await made;
  return typeof found === "string" ? found : { ...found.params, [param]: found.id };
}

/** An item of `owner` made in its own collection (its owners made first). */
async function madeOwner(walk: Walk, owner: Placed, depth: number): Promise<Owner> {
  const params = await collectionParams(walk, owner, depth + 1);
  if (typeof params === "string") return params;
  const created = await createItem(walk, owner, params, "parent");
  return typeof created === "string" ? created : { params, id: created.id };
}

/** Creates an item of `placed` in the collection `params` name: its id, or why none. */
async function createItem(
  walk: Walk,
  placed: Placed,
  params: Params,
  step: Step,
): Promise<{ readonly id: unknown } | string> {
  const [route] = routesOf(placed, "create");
  if (!route) return `no create of ${placed.name} is placed`;
  const answer = await send(walk, placed, step, route, params);
  if (!answer) return `the create ${route.id} could not be sent`;
  if (!ok(answer)) {
    walk.unmet.push(`${placed.name}: ${step} (${route.id}) ${answer.label}, not 2xx`);
    return `the create ${route.id} answered ${answer.status}`;
  }
  const id = madeId(route, answer);
  // An item nothing else acts on (a create alone) needs no id.
  if (id === undefined && route.madeAnswer) {
    // Its answer is not the item (a task, a validation request): no id to read it back by.
    walk.notRun.push(`${placed.name}: the item's steps: the create ${route.id} answers no item`);
    return `the create ${route.id} answers no item`;
  }
  if (id === undefined && placed.routes.some((r) => r.itemParam !== undefined)) {
    walk.unmet.push(`${placed.name}: ${step} (${route.id}) ${answer.label}: no id nor Location`);
    return `the create ${route.id} answered no id`;
  }
  return { id };
}

/**
 * The item the scenario acts on: created (each placed create runs; the first made one is
 * kept), else made by a replace that creates (PUT declaring 201) at a made id.
 */
async function itemOf(
  walk: Walk,
  placed: Placed,
  params: Params,
): Promise<{ readonly id: unknown } | string> {
  const creates = routesOf(placed, "create");
  if (creates.length > 0) {
    const made = await createItem(walk, placed, params, "create");
    for (const route of creates.slice(1)) await send(walk, placed, "create", route, params);
    return made;
  }
  const upsert = routesOf(placed, "replace").find((route) => route.creates);
  if (!upsert?.itemParam) return `neither a create nor a PUT that creates is placed`;
  const id = madeParam(walk, upsert, upsert.itemParam, `made ${upsert.itemParam}`);
  const answer = await send(walk, placed, "create", upsert, { ...params, [upsert.itemParam]: id });
  if (!ok(answer) || !answer) return `the PUT ${upsert.id} answered ${answer?.status ?? "nothing"}`;
  return { id: madeId(upsert, answer) ?? id };
}

/** The item's steps after its create, each placed operation of each step once. */
async function itemSteps(walk: Walk, placed: Placed, params: Params): Promise<void> {
  for (const step of ORDER.slice(1, -1))
    for (const route of routesOf(placed, step)) {
      const answer = await send(walk, placed, step, route, params);
      // A refused transition (409) is the machine's own answer: documented, not unmet.
      if (answer && !ok(answer) && !(step === "transition" && answer.status === 409))
        walk.unmet.push(`${placed.name}: ${step} (${route.id}) ${answer.label}, not 2xx`);
    }
}

/** Deletes the item, then reads it again (and deletes again): each must answer 404. */
async function goneSteps(walk: Walk, placed: Placed, params: Params): Promise<void> {
  const [first, ...others] = routesOf(placed, "delete");
  if (first) {
    const answer = await send(walk, placed, "delete", first, params);
    if (answer && !ok(answer))
      walk.unmet.push(`${placed.name}: delete (${first.id}) ${answer.label}, not 2xx`);
  }
  const again = [...routesOf(placed, "read"), ...(first ? [first, ...others] : [])];
  if (!first) walk.notRun.push(`${placed.name}: delete: none is placed`);
  for (const route of first ? again : []) {
    const answer = await send(walk, placed, "gone", route, params);
    if (answer && answer.status !== 404)
      walk.unmet.push(`${placed.name}: gone (${route.id}) ${answer.label}, not 404`);
  }
}

/** The security requirements of an operation of the document (its own, else the document's). */
function requirementsOf(walk: Walk, id: string): readonly Json[] {
  const located = walk.located.get(id);
  const item = located ? (walk.document.paths as Json)[located.template] : undefined;
  const operation = isObject(item) ? item[located?.method.toLowerCase() ?? ""] : undefined;
  const own = isObject(operation) ? operation.security : undefined;
  const security = Array.isArray(own) ? own : walk.document.security;
  return Array.isArray(security) ? security.filter(isObject) : [];
}

/**
 * The credentials a client of `placed` sends, as one client does: the one scheme every
 * operation of it and of its owners accepts alone, where there is one (the sandbox is
 * named from the credential a request is let in with); else every credential given.
 */
function oneCredential(walk: Walk, placed: Placed): Readonly<Record<string, Presented>> {
  const routes: SandboxRoute[] = [];
  for (let at: Placed | undefined = placed; at && routes.length < 256; at = ownerOf(walk, at))
    routes.push(...at.routes);
  const needing = routes
    .map((route) => requirementsOf(walk, route.id))
    .filter(
      (requirements) =>
        requirements.length > 0 && requirements.every((r) => Object.keys(r).length > 0),
    );
  const shared = Object.keys(walk.credentials).find((scheme) =>
    needing.every((requirements) =>
      requirements.some((r) => Object.keys(r).length === 1 && scheme in r),
    ),
  );
  const credential = shared === undefined ? undefined : walk.credentials[shared];
  return shared !== undefined && credential ? { [shared]: credential } : walk.credentials;
}

/** A value of the path parameter `name` of `route`, as its documented schema says, from `seed`. */
function madeParam(walk: Walk, route: SandboxRoute, name: string, seed: string): unknown {
  const located = walk.located.get(route.id);
  if (!located) return undefined;
  const item = (walk.document.paths as Json)[located.template] as Json;
  const operation = item[located.method.toLowerCase()] as Json;
  const declared = [item.parameters, operation.parameters]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((parameter) => deref(walk.document, parameter))
    .filter((p): p is Json => isObject(p) && p.name === name && p.in === "path");
  const schema = declared.at(-1)?.schema ?? {};
  const made = generateValue(schema as Json, { root: walk.document, seed, direction: "request" });
  return made.ok ? made.value : undefined;
}

/**
 * `params` with a made value for each other parameter of `placed`'s collection: one value
 * per name (an account every collection under it shares), kept for every step.
 */
function withMade(walk: Walk, placed: Placed, params: Params): Params {
  const made: Record<string, unknown> = { ...params };
  for (const [, name] of placed.collection.matchAll(/\{([^{}]+)\}/g)) {
    if (name === undefined || name in made) continue;
    const route = placed.routes.find((r) => walk.located.get(r.id)?.template.includes(`{${name}}`));
    const value = route && madeParam(walk, route, name, `scenario ${name}`);
    if (value !== undefined) made[name] = value;
  }
  return made;
}

/** No item could be made: the list still answers, and each item operation on a made id 404s. */
async function missingSteps(walk: Walk, placed: Placed, params: Params): Promise<void> {
  for (const route of routesOf(placed, "list")) await send(walk, placed, "list", route, params);
  for (const route of placed.routes.filter((r) => r.itemParam !== undefined)) {
    const name = route.itemParam as string;
    const id = madeParam(walk, route, name, `missing ${name}`);
    const answer = await send(walk, placed, "missing", route, { ...params, [name]: id });
    if (answer && answer.status !== 404)
      walk.unmet.push(`${placed.name}: missing (${route.id}) ${answer.label}, not 404`);
  }
}

/** One placed resource's scenario: its item made, walked, deleted and gone. */
async function walkPlaced(all: Walk, placed: Placed): Promise<void> {
  const walk = { ...all, credentials: oneCredential(all, placed) };
  const owned = await collectionParams(walk, placed);
  if (typeof owned === "string") {
    walk.notRun.push(`${placed.name}: every step: no owner item: ${owned}`);
    return;
  }
  const params = withMade(walk, placed, owned);
  const item = await itemOf(walk, placed, params);
  if (typeof item === "string") {
    walk.notRun.push(`${placed.name}: the item's steps: ${item}`);
    await missingSteps(walk, placed, params);
    return;
  }
  const param = placed.routes.find((route) => route.itemParam)?.itemParam;
  const itemParams = param === undefined ? params : { ...params, [param]: item.id };
  await itemSteps(walk, placed, itemParams);
  await goneSteps(walk, placed, itemParams);
}

export interface ScenarioOptions {
  /** The served app, in the `sandbox` setting, with a sandbox of the walk's own. */
  readonly fetch: Fetch;
  /** The validator the served document is held to (Ajv in Node); @cfworker/json-schema else. */
  readonly validator?: (document: Json) => SchemaCheck;
  /** A working credential for each security scheme the operations need. */
  readonly credentials?: Readonly<Record<string, Presented>>;
}

/** Walks the scenario of every placed resource of `contract`, against the app serving it. */
export async function scenario(
  contract: Contract,
  { fetch, validator, credentials = {} }: ScenarioOptions,
): Promise<ScenarioReport> {
  const served = await fetch(new Request(`${BASE}/_service/openapi.json`));
  const document = (await served.json()) as Json;
  const placed = placedResources(planSandbox(contract).routes);
  const walk: Walk = {
    document,
    check: documented(document, validator),
    fetch,
    credentials,
    located: locate(document),
    placed,
    parents: new Map(),
    ran: [],
    invalid: [],
    notRun: [],
    unmet: [],
  };
  for (const each of placed) await walkPlaced(walk, each);
  const { ran, invalid, notRun, unmet } = walk;
  return { resources: placed.map((p) => p.name), ran, invalid, notRun, unmet };
}
