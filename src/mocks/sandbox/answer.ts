/**
 * The sandbox's answer to a placed operation (place.ts): it acts on the caller's stored
 * resources and answers as a handler would, so the run path checks it against the
 * declaration, sends its events and writes it like any handler's result. A transition
 * asks the machine through the same `transition` helper a handler gets (a refused one is
 * its 409); events go through the same `emit`. A missing item is the operation's own 404
 * (a part 7 error type or a 404 it declares), else the platform's, as part 7 presents it.
 *
 * What the contract says of members holds: `readOnly` members are the sandbox's (a value a
 * caller sends is ignored; the id is made as its schema says, a state starts at its
 * machine's `initial`, others take their default or a value their schema accepts),
 * `writeOnly` members are neither stored nor answered, defaults are applied.
 */
import {
  type Contract,
  type ResponseDeclaration,
  resolveSchema,
  type Schema,
} from "../../contract-language/contract";
import type { AnyHandler, AnyResult } from "../../contract-language/define-handlers";
import type { SandboxFeature } from "../../engine/mock-seam";
import type { Refusal } from "../../engine/refusal";
import { objectShape } from "../../engine/zod/shape";
import { statusProblem } from "../../platform/problem";
import type { SandboxAnswer, SandboxCall } from "./call";
import { plannedRoute, type SandboxCards } from "./cards";
import {
  changed,
  emitFor,
  itemAnswer,
  listAnswer,
  missing,
  newItem,
  structuredType,
  withPathMembers,
  writable,
  writesValues,
} from "./items";
import { type Making, madeUuid, madeValue } from "./made";
import { type SandboxResource, type SandboxRoute, sandboxRoute, sandboxServers } from "./place";
import { createRefused, PRECONDITION_FAILED, writeRefused } from "./preconditions";
import { type Draft, SandboxRefusal, type StoredRecord, updateRecord, within } from "./records";
import { type HandlerStore, RECORDS, REQUEST } from "./store";
import { isOptional, patternId, patternIdOf } from "./values";

// RFC 9110 §15.5.10: the id a caller chose is taken.
const ID_TAKEN: Refusal = {
  kind: undefined,
  problem: statusProblem(409, "An item with this id exists already."),
};

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  (value ?? {}) as Readonly<Record<string, unknown>>;

/**
 * What a request sends of the item: the body, or where the route's answer wraps the item
 * and the body is wrapped alike (`{ "data": { … } }`), what it wraps.
 */
function sentOf(route: SandboxRoute, value: unknown): Readonly<Record<string, unknown>> {
  const body = record(value);
  const member = route.wrap?.member;
  const inner = member === undefined ? undefined : body[member];
  return inner !== null && typeof inner === "object" && !Array.isArray(inner)
    ? record(inner)
    : body;
}

/**
 * The id of the resource's item numbered `sequence`, as its id member's schema says: the
 * number, its digits, a UUID or a string its pattern matches, drawn from the number (the
 * same in every fresh sandbox).
 */
function madeId(resource: SandboxResource, sequence: number): string | number {
  const seed = `${resource.name}\u0000${sequence}`;
  if (resource.idKind === "counter") return sequence;
  if (resource.idKind === "counter-text") return String(sequence);
  if (resource.idKind === "uuid") return madeUuid(seed);
  const made = patternIdOf(resource.shape[resource.idMember] as Schema, resource.idParams, seed);
  if (made === undefined) throw new Error(`sandbox: no id matches ${resource.name}'s pattern`);
  return made;
}

/** What the values of the resource's item numbered `sequence` are made from (made.ts). */
function makingFor(call: SandboxCall, resource: SandboxResource, sequence: number): Making {
  return {
    seed: `${resource.name}\u0000${sequence}`,
    sequence,
    now: new Date().toISOString(),
    ...(call.origins ? { origins: call.origins } : {}),
  };
}

/** The collection's concrete path: the scope items created in it keep. */
function scopeOf(route: SandboxRoute, params: Readonly<Record<string, unknown>>): string {
  return route.collection.replace(/\{([^{}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(params[name])),
  );
}

/** Whether an item belongs to the collection the path names (nested collections only). */
function inScope(route: SandboxRoute, item: StoredRecord, params: Record<string, unknown>) {
  return !route.collection.includes("{") || item.scope === scopeOf(route, params);
}

/** Nested: the item the collection belongs to must exist (404 otherwise). */
async function parentMissing(route: SandboxRoute, call: SandboxCall): Promise<boolean> {
  if (!route.parent) return false;
  const id = String(record(call.input.params)[route.parent.param]);
  return (await call.records.read(route.parent.resource, id)) === null;
}

async function create(route: SandboxRoute, call: SandboxCall): Promise<SandboxAnswer> {
  if (await parentMissing(route, call)) return missing(call);
  const { resource } = route;
  const params = record(call.input.params);
  const scope = scopeOf(route, params);
  const sent = withPathMembers(
    resource,
    writable(resource, sentOf(route, call.input.body?.value), true),
    params,
  );
  const given = sent[resource.idMember];
  const chosen = given !== undefined && given !== null;
  // A made id is taken only where a caller chose it before: then the next one is made.
  for (let attempt = 0; attempt < (chosen ? 1 : 4); attempt += 1) {
    const sequence = await call.records.sequence(resource.name);
    const id = chosen ? given : madeId(resource, sequence);
    const draft = newItem(
      resource,
      { ...sent, [resource.idMember]: id },
      makingFor(call, resource, sequence),
    );
    const stored = within(
      await call.records.insert(resource.name, String(id), { scope, ...draft }),
    );
    if (stored === "exists") continue;
    emitFor(route, call, stored);
    return {
      result: withLocation(call, itemAnswer(route, stored, route.status), scope, stored.id),
    };
  }
  return { refusal: ID_TAKEN };
}

/**
 * A created item's answer with `Location`, where the answer declares that field: the item's
 * URI (RFC 9110 §10.2.2), the collection's path and the id, before a format suffix
 * (`/calls/CA….json` of `/calls.json`).
 */
function withLocation(call: SandboxCall, result: AnyResult, scope: string, id: string) {
  if (result.error !== undefined) return result;
  const schema = resolveSchema(
    declaredFor(call.contract, call.operationId, result.status)?.headers,
  );
  if (!schema || !Object.hasOwn(objectShape(schema) ?? {}, "location")) return result;
  const suffix = scope.endsWith("/")
    ? "/"
    : (/(\.[A-Za-z0-9]+)$/.exec(scope.slice(scope.lastIndexOf("/")))?.[1] ?? "");
  const location = `${scope.slice(0, scope.length - suffix.length)}/${encodeURIComponent(id)}${suffix}`;
  return { ...result, headers: { ...result.headers, location } };
}

async function read(route: SandboxRoute, call: SandboxCall): Promise<SandboxAnswer> {
  const params = record(call.input.params);
  const item = await call.records.read(route.resource.name, String(params[route.itemParam ?? ""]));
  if (!item || !inScope(route, item, params)) return missing(call);
  emitFor(route, call, item);
  return { result: itemAnswer(route, item, route.status) };
}

/**
 * Changes the item with `draft` (conditionally, retried on a concurrent write); null when
 * there is no such item in this collection.
 */
async function change(
  route: SandboxRoute,
  call: SandboxCall,
  draft: (current: StoredRecord) => Draft | Promise<Draft>,
): Promise<StoredRecord | null> {
  const params = record(call.input.params);
  let outside = false;
  const written = await updateRecord(
    call.records,
    route.resource.name,
    String(params[route.itemParam ?? ""]),
    (current) => {
      outside = !inScope(route, current, params);
      if (outside) return undefined;
      if (
        writeRefused(call.headers, current) ||
        (route.place === "replace" && createRefused(call.headers, current))
      )
        throw new SandboxRefusal(PRECONDITION_FAILED);
      return draft(current);
    },
  );
  const found = outside ? null : written;
  // RFC 9110 §13.1.1: If-Match is false where there is no item to match.
  if (!found && writeRefused(call.headers, null)) throw new SandboxRefusal(PRECONDITION_FAILED);
  return found;
}

async function replace(route: SandboxRoute, call: SandboxCall): Promise<SandboxAnswer> {
  const { resource } = route;
  const params = record(call.input.params);
  const sent = writable(resource, sentOf(route, call.input.body?.value), true);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const written = await change(route, call, async (current) => ({
      body: await changed(resource, current.body, sent),
    }));
    if (written) {
      emitFor(route, call, written);
      return { result: itemAnswer(route, written, route.status) };
    }
    // RFC 9110 §9.3.4: PUT creates the item where the operation declares a 201 for it.
    const id = params[route.itemParam ?? ""];
    if (!route.creates || (await parentMissing(route, call))) return missing(call);
    const sequence = await call.records.sequence(resource.name);
    const made = newItem(
      resource,
      { ...sent, [resource.idMember]: id },
      makingFor(call, resource, sequence),
    );
    const scope = scopeOf(route, params);
    const created = within(
      await call.records.write(resource.name, String(id), { scope, ...made }, "new"),
    );
    if (typeof created === "object") {
      emitFor(route, call, created);
      const op = call.contract.operations[call.operationId];
      const withBody = op?.responses[201]?.content !== undefined;
      return { result: itemAnswer(route, created, 201, withBody) };
    }
  }
  throw new Error(`sandbox: ${resource.name} was created and deleted under a PUT 8 times`);
}

async function update(route: SandboxRoute, call: SandboxCall): Promise<SandboxAnswer> {
  const { resource } = route;
  const body = call.input.body;
  const sent = writable(resource, sentOf(route, body?.value));
  const mergePatch = body?.mediaType.toLowerCase() === "application/merge-patch+json";
  const written = await change(route, call, async (current) => ({
    body: await changed(resource, current.body, sent, mergePatch ? "merge-patch" : "patch"),
  }));
  if (!written) return missing(call);
  emitFor(route, call, written);
  return { result: itemAnswer(route, written, route.status) };
}

async function remove(route: SandboxRoute, call: SandboxCall): Promise<SandboxAnswer> {
  const params = record(call.input.params);
  const id = String(params[route.itemParam ?? ""]);
  const item = await call.records.read(route.resource.name, id);
  const held = item && inScope(route, item, params) ? item : null;
  if (writeRefused(call.headers, held)) return { refusal: PRECONDITION_FAILED };
  if (!held) return missing(call);
  const removed = await call.records.remove(route.resource.name, id);
  if (!removed) return missing(call);
  emitFor(route, call, removed);
  return { result: itemAnswer(route, removed, route.status) };
}

/** Part 3: the machine moves the item's state, or refuses (the run path's 409). */
async function transition(route: SandboxRoute, call: SandboxCall): Promise<SandboxAnswer> {
  const { resource } = route;
  const machine = resource.machines.find(({ name }) => name === route.machine);
  if (!machine) throw new Error(`sandbox: no machine ${route.machine} of ${resource.name}`);
  const written = await change(route, call, (current) => {
    const { field, name, initial } = machine;
    const state = field === undefined ? current.states[name] : current.body[field];
    const next = call.transition(typeof state === "string" ? state : initial);
    return field === undefined
      ? { body: current.body, states: { ...current.states, [name]: next } }
      : { body: { ...current.body, [field]: next } };
  });
  if (!written) return missing(call);
  emitFor(route, call, written);
  return { result: itemAnswer(route, written, route.status) };
}

async function list(route: SandboxRoute, call: SandboxCall): Promise<SandboxAnswer> {
  if (await parentMissing(route, call)) return missing(call);
  const params = record(call.input.params);
  const scope = route.collection.includes("{") ? scopeOf(route, params) : undefined;
  const query = record(call.input.query);
  return { result: await listAnswer(route, call.records, query, scope, call.url) };
}

const ACTIONS = { create, read, replace, update, delete: remove, transition, list } as const;

/**
 * The sandbox's answer to operation `call.operationId`, which `placeOperations` places.
 * Throws for an operation it does not place (those answer from their examples).
 */
async function answerFromSandbox(call: SandboxCall): Promise<SandboxAnswer> {
  const route = sandboxRoute(call.contract, call.operationId);
  if (typeof route === "string")
    throw new Error(`sandbox: operation ${call.operationId} is not placed`);
  try {
    return await ACTIONS[route.place](route, call);
  } catch (error) {
    if (error instanceof SandboxRefusal) return { refusal: error.refusal };
    throw error;
  }
}

/** The response an answer of `status` is declared by: its own, its range's, or `default`. */
function declaredFor(contract: Contract, id: string, status: number) {
  const responses = (contract.operations[id]?.responses ?? {}) as Readonly<
    Record<string, ResponseDeclaration | undefined>
  >;
  return responses[status] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/**
 * The answer with the header fields its response declares as required (OpenAPI 3.1
 * §4.8.21.1, `required: true`), where the sandbox sets none: a value their schema accepts,
 * as for a required member nobody sends, so the answer holds to its declaration.
 */
function withDeclaredHeaders(contract: Contract, id: string, result: AnyResult): AnyResult {
  if (result.error !== undefined) return result;
  const schema = resolveSchema(declaredFor(contract, id, result.status)?.headers);
  const shape = schema && objectShape(schema);
  if (!shape) return result;
  const headers: Record<string, string> = { ...result.headers };
  for (const [name, member] of Object.entries(shape)) {
    if (isOptional(member) || Object.hasOwn(headers, name)) continue;
    const made = madeValue(member) ?? patternId(member, `${id} ${name}`);
    if (made !== undefined) headers[name] = String(made);
  }
  return Object.keys(headers).length === 0 ? result : { ...result, headers };
}

/**
 * The answer in a media type its object or list can be written as: the one the request
 * negotiated (RFC 9110 §12.5.1) where that is JSON or XML, else the first JSON (or XML) one
 * its response declares. GoDaddy declares `application/javascript` (bytes) first: chosen
 * for a client that accepts anything, the sandbox's item could not be written (a 500).
 */
function withWritableType(
  contract: Contract,
  id: string,
  result: AnyResult,
  negotiated: (status: number) => string | undefined,
): AnyResult {
  if (result.error !== undefined || result.mediaType !== undefined) return result;
  if (result.body === null || typeof result.body !== "object") return result;
  const chosen = negotiated(result.status);
  if (chosen !== undefined && writesValues(chosen)) return result;
  const type = structuredType(declaredFor(contract, id, result.status));
  return type === undefined ? result : { ...result, mediaType: type };
}

/**
 * The sandbox as the handler of operation `id`, over the caller's records behind the
 * handler's store; undefined for an operation it does not place. Call it on a request, not
 * when the Worker starts: it plans the operation's place, unless the build's `cards` give
 * it (./cards.ts: then an operation without one is not placed). A refusal is thrown as
 * `SandboxRefusal`, which the run path answers as its problem.
 */
function sandboxHandler(
  contract: Contract,
  id: string,
  cards?: SandboxCards,
): AnyHandler | undefined {
  const route = cards ? plannedRoute(contract, id, cards) : sandboxRoute(contract, id);
  if (typeof route === "string") return undefined;
  return async (input, context) => {
    const store = context.store as HandlerStore;
    const records = await store[RECORDS]();
    const request = store[REQUEST];
    const url = request?.url;
    const servers = sandboxServers(contract);
    const answer = await answerFromSandbox({
      contract,
      operationId: id,
      input: input as SandboxCall["input"],
      records,
      ...(url === undefined ? {} : { url, origins: { servers, deployment: new URL(url).origin } }),
      ...(request ? { headers: request.headers } : {}),
      emit: context.emit,
      transition: context.transition,
    });
    if ("refusal" in answer) throw new SandboxRefusal(answer.refusal);
    const written = withWritableType(contract, id, answer.result, context.mediaTypeFor);
    return withDeclaredHeaders(contract, id, written);
  };
}

/**
 * The serving engine's sandbox feature (src/engine/features.ts): the sandbox as the handler of an
 * operation it places, for operations without a handler under `UNHANDLED_OPERATIONS =
 * sandbox`. Given only while some operation the sandbox places has no handler, so a Worker
 * whose every such operation has one ships none of the sandbox's answers (the store
 * handlers use is the store feature's, store.ts).
 */
export const SANDBOX_FEATURE = {
  handler: sandboxHandler,
} as const satisfies SandboxFeature;

/**
 * The sandbox feature of a Worker built with its routes (./cards.ts): each operation's
 * route is the build's card, and an operation without one is not placed, so no call plans.
 */
export function sandboxFeature(cards: SandboxCards): SandboxFeature {
  return { handler: (contract, id) => sandboxHandler(contract, id, cards) };
}

export type { SandboxAnswer, SandboxCall, SandboxResource };
