/**
 * The store offered to handlers (`context.store`, typed in src/contract-language/handler-store.ts):
 * the caller's sandbox records, one member per part 2 resource. Its Durable Object is
 * reached on first use only, so a handler that does not use it costs nothing.
 */
import type { Contract } from "../../contract-language/contract";
import type { ListOptions, ResourceStore } from "../../contract-language/handler-store";
import type { StoreCaller, StoreFeature } from "../../engine/mock-seam";
import {
  type SandboxRecords,
  SandboxRefusal,
  sandboxRecords,
  updateRecord,
  within,
} from "./records";
import { sandboxCaller, sandboxReset } from "./reset";
import { deploymentTenancy, storeName } from "./tenancy";

/** Where the sandbox's own answers find the records behind a handler's store. */
export const RECORDS: unique symbol = Symbol("sandbox records");
/** Where they find the request (its origin, for URLs they make; its preconditions). */
export const REQUEST: unique symbol = Symbol("sandbox request");

export type HandlerStore = Readonly<Record<string, ResourceStore<unknown>>> & {
  readonly [RECORDS]: () => Promise<SandboxRecords>;
  readonly [REQUEST]?: Request;
};

/** The most items one list returns. */
export const MAX_LISTED = 1000;

type Body = Readonly<Record<string, unknown>>;

function resourceStore(
  name: string,
  records: () => Promise<SandboxRecords>,
): ResourceStore<unknown> {
  return {
    async get(id) {
      return (await (await records()).read(name, String(id)))?.body;
    },
    async list(options: ListOptions = {}) {
      const listed = await (await records()).list(name, {
        ...(options.scope === undefined ? {} : { scope: options.scope }),
        where: Object.entries(options.where ?? {}),
        offset: Math.max(0, options.offset ?? 0),
        limit: Math.min(Math.max(0, options.limit ?? MAX_LISTED), MAX_LISTED),
      });
      return { items: listed.records.map((record) => record.body), total: listed.total };
    },
    async put(id, value) {
      within(await (await records()).write(name, String(id), { body: value as Body }, "any"));
    },
    async delete(id) {
      return (await (await records()).remove(name, String(id))) !== null;
    },
    async update(id, change) {
      const written = await updateRecord(await records(), name, String(id), async (current) => ({
        body: (await change(current.body)) as Body,
      }));
      return written?.body;
    },
  };
}

const shelves = new WeakMap<Contract, object>();

/**
 * What every store of `contract` inherits, made once: for each resource, a member that
 * makes the resource's store on its first use in a request and keeps it on that store. A
 * request's store then costs the same whatever the number of resources: making one member
 * per resource on every request was 72% of what large-1201's (1,000 schemas) first calls
 * allocated under the sandbox, and the garbage collections it caused.
 */
function shelfOf(contract: Contract): object {
  const known = shelves.get(contract);
  if (known) return known;
  const shelf = {};
  for (const name of Object.keys(contract.resources))
    Object.defineProperty(shelf, name, {
      enumerable: true,
      get(this: HandlerStore) {
        const made = resourceStore(name, this[RECORDS]);
        Object.defineProperty(this, name, { value: made, enumerable: true });
        return made;
      },
    });
  shelves.set(contract, shelf);
  return shelf;
}

/**
 * The store of `contract`'s resources over the records `records` gives, on first use: a
 * member per resource, inherited (`name in store`), each made when first read.
 */
function handlerStore(
  contract: Contract,
  records: () => Promise<SandboxRecords>,
  request?: Request,
): HandlerStore {
  let opened: Promise<SandboxRecords> | undefined;
  const once = () => {
    opened ??= records();
    return opened;
  };
  const store = Object.create(shelfOf(contract)) as object;
  Object.defineProperty(store, RECORDS, { value: once });
  if (request !== undefined) Object.defineProperty(store, REQUEST, { value: request });
  return store as HandlerStore;
}

/**
 * The serving engine's store feature (src/engine/features.ts): the caller's store for handlers
 * (`context.store`), the refusal the sandbox throws, and `DELETE /_service/sandbox`. Given
 * exactly when the contract places an operation in the sandbox, which is when the Worker
 * exports the Durable Object class and wrangler.toml binds it: the store follows the
 * contract, whatever answers its operations.
 */
export const STORE_FEATURE = {
  /**
   * The caller's store: named as the deployment's STORE_TENANCY says (tenancy.ts) from who
   * the caller is (`caller`, asked on first use) and the `Sandbox-Id` the request sends.
   */
  open(
    contract: Contract,
    env: Readonly<Record<string, unknown>>,
    caller: () => Promise<StoreCaller | undefined>,
    request: Request,
  ): HandlerStore {
    return handlerStore(
      contract,
      async () => sandboxRecords(env, await storeName(env, await caller(), request.headers)),
      request,
    );
  },
  caller: sandboxCaller,
  Refused: SandboxRefusal,
  reset: sandboxReset,
  sandboxed: (env) => deploymentTenancy(env).kind === "sandbox",
} as const satisfies StoreFeature;
