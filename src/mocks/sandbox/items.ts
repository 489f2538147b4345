/**
 * Items as the sandbox makes, changes and answers them: which members a caller may write,
 * a new item's server-set members, a replacement or a patch (JSON Merge Patch, RFC 7396)
 * checked against the resource, an item or a page as the operation answers it, its
 * events' payloads, and the operation's own answer to a missing item.
 */
import type { ResponseDeclaration, Schema } from "../../contract-language/contract";
import { resolveSchema, schemaOf } from "../../contract-language/contract";
import type { AnyResult } from "../../contract-language/define-handlers";
import { bodyKind } from "../../contract-language/media-types";
import { VALIDATION_FAILED } from "../../contract-language/problem-catalogue";
import { unwrap } from "../../contract-language/zod-def";
import { validationErrors } from "../../engine/zod/issues";
import { parseWith } from "../../engine/zod/parse";
import { objectShape } from "../../engine/zod/shape";
import { viewOf, withoutWriteOnly } from "../../engine/zod/views";
import { statusProblem, typedProblem } from "../../platform/problem";
import type { SandboxAnswer, SandboxCall } from "./call";
import { type Making, madeValue } from "./made";
import {
  type ListPlan,
  ownMissingAnswer,
  type SandboxResource,
  type SandboxRoute,
  spelling,
} from "./place";
import { etagOf } from "./preconditions";
import { type SandboxRecords, SandboxRefusal, type StoredRecord } from "./records";
import { MAX_LISTED } from "./store";
import { defaultOf, isMarked, isOptional, satisfies } from "./values";

type Body = Record<string, unknown>;

/** Sets a member as an own property, so a key named `__proto__` stays a plain key. */
function setOwn(target: Body, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const isPlain = (value: unknown): value is Body =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The members the sandbox sets itself: read-only ones, and the states of part 3's machines. */
function serverSet(resource: SandboxResource, name: string): boolean {
  const member = resource.shape[name];
  return (
    (member !== undefined && isMarked(member, "readOnly")) ||
    resource.machines.some(({ field }) => field === name)
  );
}

/**
 * What a caller sent that the sandbox stores: the resource's members it may write, each by
 * its name, or by the same name in another case style (a form's `FriendlyName` for the
 * resource's `friendly_name`, as documents whose bodies are forms name them). For a whole
 * item (`whole`: a create, a replace), only values the resource's member takes: a request
 * body may name a member as the resource does and hold something else (an owner's id
 * where the resource holds the owner), which the item it describes never holds; such a
 * member is then made as the resource's schema says, where it is required.
 */
export function writable(resource: SandboxResource, sent: Readonly<Body>, whole = false): Body {
  const kept: Body = {};
  const spelt = new Map(Object.keys(resource.shape).map((name) => [spelling(name), name]));
  for (const [name, value] of Object.entries(sent)) {
    const member = Object.hasOwn(resource.shape, name) ? name : spelt.get(spelling(name));
    if (member === undefined || serverSet(resource, member) || Object.hasOwn(kept, member))
      continue;
    if (!whole || satisfies(resource.shape[member] as Schema, value)) setOwn(kept, member, value);
  }
  return kept;
}

/** Defaults for members absent from `body` (OpenAPI's `default`, as zod declares it). */
function withDefaults(resource: SandboxResource, body: Body): Body {
  for (const [name, member] of Object.entries(resource.shape)) {
    if (Object.hasOwn(body, name)) continue;
    const given = defaultOf(member);
    if (given) setOwn(body, name, given.value);
  }
  return body;
}

/**
 * The path's parameters, as members of a new item where the resource has a member spelt
 * the same, the caller gave none (`/accounts/{AccountSid}/calls` → `account_sid`) and the
 * value is one the member's schema takes: a path parameter looser than the member (any
 * string, where the member holds a pattern) leaves the member to be made as its schema
 * says, so the item is still one the document describes.
 */
export function withPathMembers(
  resource: SandboxResource,
  sent: Body,
  params: Readonly<Body>,
): Body {
  const spelt = new Map(Object.keys(resource.shape).map((name) => [spelling(name), name]));
  const body = { ...sent };
  for (const [param, value] of Object.entries(params)) {
    const member = spelt.get(spelling(param));
    if (member === undefined || member === resource.idMember || Object.hasOwn(body, member))
      continue;
    const schema = resource.shape[member];
    if (schema && satisfies(schema, value)) setOwn(body, member, value);
  }
  return body;
}

/**
 * A new item: what the caller wrote, defaults, machines at `initial`, and every other
 * required member made as its schema says: the server-set ones, and those a request may
 * leave out though the resource requires them (Adyen's payment link, whose request body is
 * optional), so the answer is one the document documents.
 */
export function newItem(
  resource: SandboxResource,
  sent: Body,
  making: Making,
): { body: Body; states: Record<string, string> } {
  const body = withDefaults(resource, { ...sent });
  const states: Record<string, string> = {};
  for (const { name, field, initial } of resource.machines)
    if (field === undefined) states[name] = initial;
    else setOwn(body, field, initial);
  for (const [name, member] of Object.entries(resource.shape)) {
    if (Object.hasOwn(body, name) || name === resource.idMember) continue;
    if (isOptional(member)) continue;
    const made = madeValue(member, making, name);
    if (made !== undefined) setOwn(body, name, made);
  }
  // A member only clients send (a card's security code) is never stored, nor answered.
  return { body: withoutWriteOnly(resource.schema, body) as Body, states };
}

/** RFC 7396 §2: members of the patch replace the target's, null removes one, objects merge. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlain(patch)) return patch;
  const merged: Body = isPlain(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch))
    if (value === null) delete merged[name];
    else setOwn(merged, name, mergePatch(merged[name], value));
  return merged;
}

/**
 * The item after a PUT (`replace`: what was sent, defaults, the server-set members kept) or
 * a PATCH: JSON Merge Patch (RFC 7396) for `merge-patch`; for another media type, `null`
 * sets a member that may be null and removes one that may not. A patched item must still
 * be the resource: otherwise the request is refused (422) and nothing is stored.
 */
export async function changed(
  resource: SandboxResource,
  current: Readonly<Body>,
  sent: Body,
  mode: "replace" | "patch" | "merge-patch" = "replace",
): Promise<Body> {
  let body: Body;
  if (mode === "replace") body = withDefaults(resource, { ...sent });
  else {
    const nulls =
      mode === "patch"
        ? Object.keys(sent).filter((name) => sent[name] === null && nullable(resource.shape[name]))
        : [];
    body = mergePatch(current, sent) as Body;
    for (const name of nulls) setOwn(body, name, null);
  }
  for (const name of Object.keys(resource.shape))
    if (serverSet(resource, name) || name === resource.idMember) {
      if (Object.hasOwn(current, name)) setOwn(body, name, current[name]);
      else delete body[name];
    }
  if (mode !== "replace") await mustBeResource(resource, body);
  return withoutWriteOnly(resource.schema, body) as Body;
}

function nullable(member: Schema | undefined): boolean {
  return member !== undefined && parseSync(member, null);
}

function parseSync(schema: Schema, value: unknown): boolean {
  try {
    const result = parseWith(schema, value);
    return !(result instanceof Promise) && result.success;
  } catch {
    return false;
  }
}

/**
 * 422, as a request that breaks its schemas is (the pointers are into the patched item). A
 * stored item has its server-set members and never its write-only ones (not stored), so it
 * is held to the answer's view, in which the write-only members are not required.
 */
async function mustBeResource(resource: SandboxResource, body: Body): Promise<void> {
  const parsed = await parseWith(viewOf(resource.schema, "response", "checking"), body);
  if (parsed.success) return;
  const errors = validationErrors("body", parsed.error.issues, body).slice(0, 100);
  throw new SandboxRefusal({
    kind: "validation-failed",
    problem: typedProblem(
      VALIDATION_FAILED,
      `The patched ${resource.name} would not satisfy its schema (${errors.length} violation${errors.length === 1 ? "" : "s"}); nothing was changed.`,
      { errors },
    ),
  });
}

/** The item as answered: never its write-only members. */
/**
 * An item as the current schema reads it, whichever revision stored it: members it no longer
 * declares left out (a write keeps declared members only), members it adds given their
 * default, or made as a new item's are where it requires them.
 */
function asCurrent(resource: SandboxResource, item: StoredRecord): Body {
  const { shape } = resource;
  if (Object.keys(shape).length === 0) return item.body;
  const body: Body = {};
  for (const [name, value] of Object.entries(item.body))
    if (Object.hasOwn(shape, name)) setOwn(body, name, value);
  withDefaults(resource, body);
  for (const [name, member] of Object.entries(shape)) {
    if (Object.hasOwn(body, name) || isOptional(member)) continue;
    const made = madeValue(member, { seed: `${resource.name}\u0000${item.id}` }, name);
    if (made !== undefined) setOwn(body, name, made);
  }
  return body;
}

const answered = (resource: SandboxResource, item: StoredRecord) =>
  withoutWriteOnly(resource.schema, asCurrent(resource, item));

/** The item in the answer that wraps it, its other members made where required. */
function wrapped(route: SandboxRoute, item: unknown): unknown {
  // Not the item (RFC 9110 §15.3.3: a 202's task): made as its schema says.
  if (route.madeAnswer) return madeValue(route.madeAnswer, { seed: `${route.id}\u0000answer` });
  if (route.answerView) return projected(route.answerView, item);
  if (!route.wrap) return item;
  const answer: Body = {};
  setOwn(answer, route.wrap.member, item);
  for (const [name, schema] of Object.entries(route.wrap.others)) {
    if (isOptional(schema)) continue;
    const made = madeValue(schema, {}, name);
    if (made !== undefined) setOwn(answer, name, made);
  }
  return answer;
}

/** The answer of an operation on one item: the item, where its success answer has a body. */
export function itemAnswer(
  route: SandboxRoute,
  item: StoredRecord,
  status: number,
  withBody = route.answersItem,
): AnyResult {
  // RFC 9110 §8.8.3: the item's entity tag, for the caller's next conditional request.
  const headers = route.place === "delete" ? {} : { headers: { etag: etagOf(item) } };
  return withBody
    ? { status, body: wrapped(route, answered(route.resource, item)), ...headers }
    : { status, ...headers };
}

/** An opaque cursor (base64url, RFC 4648 §5) for the page that starts at `offset`. */
const cursorAt = (offset: number) => btoa(`o:${offset}`).replace(/=+$/, "");

/** The offset a cursor names; 0 for one this sandbox did not write. */
function offsetOf(cursor: unknown): number {
  try {
    const match = /^o:(\d{1,9})$/.exec(atob(String(cursor)));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Where the page starts, and how many it holds, as the query asks (the defaults applied). */
function pageOf(plan: ListPlan, query: Readonly<Body>) {
  const size = plan.pageSize === undefined ? undefined : query[plan.pageSize];
  const limit = Math.min(typeof size === "number" && size >= 0 ? size : MAX_LISTED, MAX_LISTED);
  const position = plan.position;
  const at = position ? query[position.param] : undefined;
  if (position?.kind === "cursor")
    return { limit, offset: at === undefined ? 0 : offsetOf(at), page: 0 };
  const first = position?.kind === "page" ? position.first : 0;
  const page = Math.max(first, typeof at === "number" ? at : first);
  const offset =
    position?.kind === "page"
      ? (page - first) * limit
      : Math.max(0, typeof at === "number" ? at : 0);
  return { limit, offset, page };
}

type Page = ReturnType<typeof pageOf> & { readonly more: boolean };

/** The position parameter's value of the next page (a cursor, a page, an offset). */
function nextPosition(plan: ListPlan, page: Page): string | number {
  if (plan.position?.kind === "cursor") return cursorAt(page.offset + page.limit);
  if (plan.position?.kind === "page") return page.page + 1;
  return page.offset + page.limit;
}

/** The request's URL with the position parameter set to `value`. */
function pageUrl(url: string, plan: ListPlan, value: string | number): string {
  const next = new URL(url);
  if (plan.position) next.searchParams.set(plan.position.param, String(value));
  return next.toString();
}

/** A page's `next` member: the next cursor, page or offset, or its URL; null (or none) at the end. */
function nextValue(plan: ListPlan, page: Page, schema: Schema, url: string | undefined): unknown {
  if (!page.more) return parseSync(schema, null) ? null : undefined;
  const position = nextPosition(plan, page);
  const candidates = [position, String(position), url && pageUrl(url, plan, position)];
  return candidates.find((value) => value !== undefined && parseSync(schema, value));
}

/** RFC 8288 §3: the next and previous pages' links, where the answer declares `Link`. */
function linkHeader(plan: ListPlan, page: Page, url: string | undefined): string | undefined {
  if (!plan.links || !url || !plan.position || plan.position.kind === "cursor") return undefined;
  const links = [];
  if (page.more) links.push(`<${pageUrl(url, plan, nextPosition(plan, page))}>; rel="next"`);
  if (page.offset > 0) {
    const prev =
      plan.position.kind === "page" ? page.page - 1 : Math.max(0, page.offset - page.limit);
    links.push(`<${pageUrl(url, plan, prev)}>; rel="prev"`);
  }
  return links.length === 0 ? undefined : links.join(", ");
}

/** An item as a view of it answers it: those members only. */
function projected(members: readonly string[] | undefined, item: unknown): unknown {
  if (!members || !isPlain(item)) return item;
  const view: Body = {};
  for (const name of members) if (Object.hasOwn(item, name)) setOwn(view, name, item[name]);
  return view;
}

/** A page of the collection, as the operation answers it. */
export async function listAnswer(
  route: SandboxRoute,
  records: SandboxRecords,
  query: Readonly<Body>,
  scope: string | undefined,
  url?: string,
): Promise<AnyResult> {
  const plan = route.list;
  if (!plan) throw new Error(`sandbox: ${route.id} is no list`);
  const where = plan.filters.flatMap((name) => {
    const value = query[name];
    return ["string", "number", "boolean"].includes(typeof value)
      ? [[name, value as string | number | boolean] as const]
      : [];
  });
  const at = pageOf(plan, query);
  const listed = await records.list(route.resource.name, {
    ...(scope === undefined ? {} : { scope }),
    where,
    offset: at.offset,
    limit: at.limit,
  });
  const page: Page = { ...at, more: at.offset + listed.records.length < listed.total };
  const items = listed.records.map((item) => projected(plan.view, answered(route.resource, item)));
  const link = linkHeader(plan, page, url);
  const headers = link === undefined ? {} : { headers: { link } };
  if (plan.envelope === undefined) return { status: route.status, body: items, ...headers };
  return {
    status: route.status,
    body: pageBody(plan, page, items, listed.total, query, url),
    ...headers,
  };
}

/** The page's envelope: its items, and each other member as the plan fills it. */
function pageBody(
  plan: ListPlan,
  page: Page,
  items: readonly unknown[],
  total: number,
  query: Readonly<Body>,
  url: string | undefined,
): Body {
  const answer: Body = {};
  setOwn(answer, plan.envelope as string, items);
  // A page's own parameters, as they were applied (the defaults too).
  const applied: Body = {};
  if (plan.pageSize !== undefined) setOwn(applied, plan.pageSize, page.limit);
  if (plan.position && plan.position.kind !== "cursor")
    setOwn(applied, plan.position.param, plan.position.kind === "page" ? page.page : page.offset);
  for (const { name, fill, from = name, schema } of plan.pageMembers) {
    const value =
      fill === "echo"
        ? (query[from] ?? applied[from])
        : fill === "total"
          ? total
          : fill === "more"
            ? page.more
            : fill === "done"
              ? !page.more
              : fill === "next"
                ? nextValue(plan, page, schema, url)
                : madeValue(schema, {}, name);
    if (value !== undefined) setOwn(answer, name, value);
  }
  return answer;
}

/** The payload of an event about `item`: the item, or the members the payload declares. */
function payloadOf(payload: Schema, resource: SandboxResource, item: StoredRecord): unknown {
  const body = answered(resource, item) as Body;
  const target = unwrap(resource.schema);
  if (unwrap(payload) === target) return body;
  const shape = objectShape(payload);
  if (!shape) return madeValue(payload);
  const made: Body = {};
  for (const [name, member] of Object.entries(shape)) {
    const value = Object.hasOwn(body, name)
      ? body[name]
      : unwrap(member) === target
        ? body
        : isOptional(member)
          ? undefined
          : madeValue(member, {}, name);
    if (value !== undefined) setOwn(made, name, value);
  }
  return made;
}

/** Part 6: the operation's events, each about the item, sent as a handler's `emit` sends them. */
export function emitFor(route: SandboxRoute, call: SandboxCall, item: StoredRecord): void {
  for (const event of route.emits) {
    const declared = call.contract.events[event];
    if (declared)
      call.emit(event, payloadOf(resolveSchema(declared.payload), route.resource, item));
  }
}

const NO_ITEM = "No item exists at this path.";

/**
 * A missing item, as the operation answers one: a part 7 error type of status 404 it
 * declares, else a 404 it declares, else its `4XX` or `default` answer with status 404
 * (OpenAPI 3.1 §4.8.16.2: a range or default covers every status it does not list, so a
 * client reads that body), else the platform's 404 (as part 7 presents it).
 */
export function missing(call: SandboxCall): SandboxAnswer {
  const op = call.contract.operations[call.operationId];
  // The one rule the served document's list of this 404 reads too (place.ts).
  const own = op && ownMissingAnswer(call.contract, op);
  if (!own) return { refusal: { kind: "not-found", problem: statusProblem(404, NO_ITEM) } };
  if ("error" in own) {
    const members: Body = {};
    for (const [member, schema] of Object.entries(call.contract.errors[own.error]?.members ?? {}))
      if (!isOptional(resolveSchema(schema)))
        setOwn(members, member, madeValue(resolveSchema(schema), {}, member));
    return { result: { error: own.error, detail: NO_ITEM, members } };
  }
  // Made for a media type a value can be written as (GoDaddy's 404 lists a binary one first).
  const content = own.response.content ?? {};
  const type = structuredType(own.response) ?? Object.keys(content)[0];
  const declared = type === undefined ? undefined : content[type];
  if (!declared) return { result: { status: 404 } };
  return { result: { status: 404, body: madeValue(schemaOf(declared)) } };
}

/**
 * The first media type a response declares that an object or a list can be written as:
 * JSON, else XML (by its schema's `xml` objects); undefined where it declares neither.
 */
export function structuredType(declared: ResponseDeclaration | undefined): string | undefined {
  const types = Object.keys(declared?.content ?? {});
  return types.find((type) => bodyKind(type) === "json") ?? types.find(writesValues);
}

/** Whether an object or a list can be written as media type `type`: JSON, or XML. */
export function writesValues(type: string): boolean {
  const kind = bodyKind(type);
  return kind === "json" || kind === "xml";
}
