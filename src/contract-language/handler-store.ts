/**
 * The store the sandbox keeps part 2's resources in (src/mocks/sandbox), as a handler sees
 * it: one member per resource, typed by its schema, so a team can write one operation's
 * handler over the data the sandbox's other operations keep, and replace the operations
 * one at a time. Its data is the caller's sandbox (src/mocks/README.md, "The sandbox").
 */
import type { output } from "zod/v4/core";
import type { Contract } from "./contract";
import type { Built } from "./lazy";

/** An item's id, as its id member or its path parameter holds it. */
export type ItemId = string | number;

export interface ListOptions {
  /** Only the items created in this collection (`/owners/7/pets`); all of them without it. */
  readonly scope?: string;
  /** Only the items whose members equal these values. */
  readonly where?: Readonly<Record<string, string | number | boolean>>;
  readonly offset?: number;
  /** At most this many items (and never more than 1000). */
  readonly limit?: number;
}

/** The stored items of one resource. */
export interface ResourceStore<T> {
  get(id: ItemId): Promise<T | undefined>;
  /** In the order they were created, with how many match in all. */
  list(options?: ListOptions): Promise<{ readonly items: readonly T[]; readonly total: number }>;
  /** Creates or replaces the item. */
  put(id: ItemId, value: T): Promise<void>;
  /** Whether there was such an item. */
  delete(id: ItemId): Promise<boolean>;
  /**
   * Changes the item as `change` says, never losing a write made meanwhile by another
   * request (`change` is called again on the newer item). Undefined when there is none.
   */
  update(id: ItemId, change: (current: T) => T | Promise<T>): Promise<T | undefined>;
}

/**
 * The store of contract `C`: one member per part 2 resource, typed by its schema, whether
 * the resource is the schema or a function that builds it (a `component`, as the importer
 * writes every resource).
 */
export type Store<C extends Contract> = {
  readonly [R in keyof C["resources"] & string]: ResourceStore<output<Built<C["resources"][R]>>>;
};
