/**
 * The sandbox's routes as the build plans them, for a Worker that serves without planning.
 * Planning an operation's place (./place.ts) reads its schemas, its resource's and what the
 * operations at its paths answer, and makes an id to prove ids can be made: measured in a
 * fresh isolate, about a quarter of the sandbox's first call on a 197-operation document. The
 * build plans every operation once and writes each placed one's route as a card, plain
 * data in which each schema the route holds is named by where it is in the contract (its
 * resource, the answer at the route's status, a member of that answer); the Worker makes
 * the route from the card by looking those up (`routeOfCard`), and a test holds the two to
 * the same schemas, object for object.
 */
import type { Contract, Operation, Schema } from "../../contract-language/contract";
import { resolveSchema } from "../../contract-language/contract";
import { unwrap } from "../../contract-language/zod-def";
import { membersOf, objectShape } from "../../engine/zod/shape";
import {
  answerSchemaOf,
  idParamOperations,
  itemParamOf,
  type ListPlan,
  machinesOf,
  paramSchemasOf,
  routeOf,
  type SandboxResource,
  type SandboxRoute,
  sandboxRoute,
} from "./place";

type PageMember = ListPlan["pageMembers"][number];

/**
 * A placed operation's route as data (JSON): what `routeOfCard` makes the route of. What
 * the operation itself says is left out (its id, path and events), and so is a collection
 * that is the path, and a `creates` that is false.
 */
export interface SandboxCard
  extends Omit<
    SandboxRoute,
    "id" | "path" | "emits" | "collection" | "creates" | "resource" | "wrap" | "madeAnswer" | "list"
  > {
  readonly collection?: string;
  readonly creates?: true;
  readonly resource: Pick<SandboxResource, "name" | "idMember" | "idKind"> & {
    /** The path parameter naming an item, and the operations whose schemas of it ids satisfy. */
    readonly idParam?: string;
    readonly idParamsFrom: readonly string[];
  };
  /** The wrapper's member, and the names of its others (members of the answer). */
  readonly wrap?: { readonly member: string; readonly others: readonly string[] };
  /** Whether the answer is made as its schema says (the answer at the route's status). */
  readonly madeAnswer?: true;
  /** The list's plan, each page member's schema named by the member (of the answer). */
  readonly list?: Omit<ListPlan, "pageMembers"> & {
    readonly pageMembers: readonly Omit<PageMember, "schema">[];
  };
}

/** The cards of the operations the sandbox places, by id, each as JSON text. */
export type SandboxCards = Readonly<Record<string, string>>;

/** The card of `route`, a route of `contract`, whose operations' ids are `ids`. */
function cardOf(
  contract: Contract,
  route: SandboxRoute,
  ids: ReadonlyMap<Operation, string>,
): SandboxCard {
  const {
    id: _,
    path,
    emits: __,
    collection,
    creates,
    resource,
    wrap,
    madeAnswer,
    list,
    ...rest
  } = route;
  // As place.ts's `plannedOf` gives the resource its parameter.
  const param = route.itemParam ?? itemParamOf(contract, route.collection);
  const from = param === undefined ? [] : idParamOperations(contract, route.collection, param);
  return {
    ...rest,
    ...(collection === path ? {} : { collection }),
    ...(creates ? { creates: true as const } : {}),
    resource: {
      name: resource.name,
      idMember: resource.idMember,
      idKind: resource.idKind,
      ...(param === undefined ? {} : { idParam: param }),
      idParamsFrom: from.map((op) => ids.get(op) ?? ""),
    },
    ...(wrap ? { wrap: { member: wrap.member, others: Object.keys(wrap.others) } } : {}),
    ...(madeAnswer ? { madeAnswer: true as const } : {}),
    ...(list
      ? { list: { ...list, pageMembers: list.pageMembers.map(({ schema: _, ...m }) => m) } }
      : {}),
  };
}

/**
 * The cards of every operation of `contract` the sandbox places, among `ids` (those served
 * without a handler), as JSON text: what the build writes into the generated module.
 */
export function sandboxCards(contract: Contract, ids: readonly string[]): Record<string, string> {
  // No prototype: an operation may be named `__proto__` or `constructor`.
  const cards: Record<string, string> = Object.create(null);
  const named = new Map(Object.entries(contract.operations).map(([id, op]) => [op, id]));
  for (const id of ids) {
    const route = sandboxRoute(contract, id);
    if (typeof route !== "string") cards[id] = JSON.stringify(cardOf(contract, route, named));
  }
  return cards;
}

/** The members of operation `op`'s answer at `status`, where the plan found its schemas. */
function answerMembers(op: Operation, status: number): Readonly<Record<string, Schema>> {
  const schema = answerSchemaOf(op, status);
  return (schema && objectShape(unwrap(schema))) ?? {};
}

/**
 * The route a card describes, its schemas looked up in `contract`: the resource's by its
 * name (its path parameters' only when an id is made, which a list or a read never does),
 * the answer's members at the route's status.
 */
export function routeOfCard(contract: Contract, id: string, card: SandboxCard): SandboxRoute {
  const { resource: named, wrap, madeAnswer, list, collection, creates, ...rest } = card;
  const op = contract.operations[id];
  if (!op) throw new Error(`sandbox: the build's card names no operation ${id}`);
  const schema = resolveSchema(contract.resources[named.name]) as Schema;
  const operations = named.idParamsFrom.flatMap((id) => contract.operations[id] ?? []);
  let idParams: readonly Schema[] | undefined;
  const resource: SandboxResource = {
    name: named.name,
    schema,
    shape: membersOf(schema) ?? {},
    idMember: named.idMember,
    idKind: named.idKind,
    get idParams() {
      idParams ??= named.idParam === undefined ? [] : paramSchemasOf(operations, named.idParam);
      return idParams;
    },
    machines: machinesOf(contract, named.name),
  };
  const members = () => answerMembers(op, card.status);
  const made = madeAnswer ? answerSchemaOf(op, card.status) : undefined;
  return {
    ...rest,
    id,
    path: op.path,
    emits: op.emits ?? [],
    collection: collection ?? op.path,
    creates: creates === true,
    resource,
    ...(wrap
      ? {
          wrap: {
            member: wrap.member,
            others: Object.fromEntries(
              wrap.others.map((name) => [name, members()[name] as Schema]),
            ),
          },
        }
      : {}),
    ...(madeAnswer && made ? { madeAnswer: made } : {}),
    list: list && {
      ...list,
      pageMembers: list.pageMembers.map((m) => ({ ...m, schema: members()[m.name] as Schema })),
    },
  };
}

/**
 * The route of operation `id` from the build's cards: the card's route, kept as the
 * sandbox's own (so every later ask answers it), or why it places none: the build placed
 * no card for it. Nothing is planned.
 */
export function plannedRoute(
  contract: Contract,
  id: string,
  cards: SandboxCards,
): SandboxRoute | string {
  return routeOf(contract, id, () => {
    const text = Object.hasOwn(cards, id) ? cards[id] : undefined;
    if (text === undefined) return "the build placed it nowhere";
    // Written by `sandboxCards` from this contract, in the same build as the Worker.
    return routeOfCard(contract, id, JSON.parse(text) as SandboxCard);
  });
}
