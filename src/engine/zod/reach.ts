/**
 * Whether a schema reaches, at any depth, a node with some property (a member marked
 * read-only, a transform), settled once per node however many schemas reach it, recursive
 * schemas included.
 */
import type { Schema } from "../../contract-language/contract";

/**
 * Settles, for `root` and every node it reaches through `next`, whether it reaches a node
 * for which `holds` is true (itself included), and remembers each answer in `known`, so no
 * node is walked twice across calls that share `known`. A cycle (a recursive schema) is one
 * strongly connected component (Tarjan's walk): its nodes reach each other, so they reach
 * such a node together, exactly when one of them holds or reaches one outside.
 */
export function settleReach(
  root: Schema,
  holds: (node: Schema) => boolean,
  next: (node: Schema) => readonly Schema[],
  known: WeakMap<Schema, boolean>,
): void {
  const order = new Map<Schema, number>();
  const low = new Map<Schema, number>();
  const open: Schema[] = [];
  const own = new Map<Schema, boolean>();
  const visit = (node: Schema): void => {
    const at = order.size;
    order.set(node, at);
    low.set(node, at);
    open.push(node);
    let reaches = holds(node);
    for (const child of next(node)) {
      if (!order.has(child) && !known.has(child)) visit(child);
      const settled = known.get(child);
      if (settled !== undefined) reaches ||= settled;
      // Walked but not settled: still open, on the way back to `node` (or above it), so in
      // its component.
      else low.set(node, Math.min(low.get(node) ?? at, low.get(child) ?? at));
    }
    own.set(node, reaches);
    if (low.get(node) !== at) return;
    // `node` opened its component: every node still open above it is in it.
    const members: Schema[] = [];
    for (let member = open.pop(); member !== undefined; member = open.pop()) {
      members.push(member);
      if (member === node) break;
    }
    const result = members.some((member) => own.get(member) === true);
    for (const member of members) known.set(member, result);
  };
  if (!known.has(root)) visit(root);
}
