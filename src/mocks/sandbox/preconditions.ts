/**
 * HTTP preconditions on the sandbox's items (RFC 9110 §8.8.3, §13): each stored item has a
 * strong entity tag, its version and a digest of its body, so a recreated item never takes
 * an old one's tag; `If-Match` guards a write (412 where it does not match, or where there
 * is no item), `If-None-Match: *` guards a create by PUT (412 where the item exists). A
 * read's `If-None-Match` is answered 304 by the run path for any answer with an `ETag`
 * (src/engine/operations/steps.ts).
 */

import type { Refusal } from "../../engine/refusal";
import { statusProblem } from "../../platform/problem";
import type { StoredRecord } from "./records";

/** FNV-1a, 32 bits: enough to tell two bodies of one version apart. */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1)
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

/** The item's entity tag (RFC 9110 §8.8.3: a quoted opaque string). */
export const etagOf = (item: StoredRecord): string =>
  `"${item.version}-${digest(JSON.stringify([item.body, item.states]))}"`;

/** RFC 9110 §13.1.1: whether `If-Match`'s list names `etag` (strong comparison) or is `*`. */
function matches(field: string, etag: string | undefined): boolean {
  if (field.trim() === "*") return etag !== undefined;
  return field.split(",").some((tag) => tag.trim() === etag);
}

/** RFC 9110 §15.5.13: a precondition the request gave was false; nothing was changed. */
export const PRECONDITION_FAILED: Refusal = {
  kind: undefined,
  problem: statusProblem(
    412,
    "A precondition of the request (If-Match or If-None-Match) does not hold for the item; nothing was changed.",
  ),
};

/** Whether the request's `If-Match` refuses a write of `item` (or of no item: null). */
export function writeRefused(headers: Headers | undefined, item: StoredRecord | null): boolean {
  const ifMatch = headers?.get("if-match");
  if (ifMatch === null || ifMatch === undefined) return false;
  return !matches(ifMatch, item ? etagOf(item) : undefined);
}

/** Whether `If-None-Match: *` refuses creating an item where `item` exists (RFC 9110 §13.1.2). */
export function createRefused(headers: Headers | undefined, item: StoredRecord | null): boolean {
  const field = headers?.get("if-none-match");
  return item !== null && field !== null && field !== undefined && matches(field, etagOf(item));
}
