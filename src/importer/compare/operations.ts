/**
 * Operations (and webhooks, which are compared as operations): served at their method and
 * path, with their id, texts, deprecation, tags, ways in, parameters, body and answers.
 */
import { child, isObject, type Json } from "../source";
import type { Comparer, Event } from "./context";
import type { Category } from "./items";
import { compareParameters, requestBody } from "./requests";
import { compareResponse } from "./responses";

/**
 * One operation (or webhook, sent as `event`): it is served, and so is what it says and
 * holds. An event the import had to number is one `changed` item, here.
 */
export function compareOperation(
  c: Comparer,
  sourceItem: Json,
  servedItem: Json | undefined,
  method: string,
  pointer: string,
  category: "operations" | "webhooks",
  event?: Event,
): void {
  const sourceOp = sourceItem[method];
  if (!isObject(sourceOp)) return;
  const servedOp =
    servedItem && isObject(servedItem[method]) ? (servedItem[method] as Json) : undefined;
  if (servedOp && event?.renamed) c.change(category, pointer, event.renamed);
  else
    c.record(
      category,
      pointer,
      servedOp !== undefined,
      `${method.toUpperCase()} operation is missing`,
    );
  if (!servedOp) return;
  operationFields(c, sourceOp, servedOp, pointer, category, event);
  if (category === "operations") operationSecurity(c, sourceOp, servedOp, pointer);
  compareParameters(c, sourceItem, sourceOp, servedOp, pointer);
  if (sourceOp.requestBody !== undefined)
    requestBody(c, sourceOp, servedOp, child(pointer, "requestBody"), category);
  const servedResponses = isObject(servedOp.responses) ? servedOp.responses : {};
  for (const [status, raw] of Object.entries(
    isObject(sourceOp.responses) ? sourceOp.responses : {},
  ))
    compareResponse(
      c,
      status,
      raw,
      servedResponses[status] ?? servedResponses[status.toUpperCase()],
      child(pointer, "responses", status),
      category === "webhooks" ? "webhooks" : "responses",
    );
}

/** What an operation says of itself: its id, texts, deprecation, links out and tags. */
function operationFields(
  c: Comparer,
  sourceOp: Json,
  servedOp: Json,
  pointer: string,
  category: Category,
  event: Event | undefined,
): void {
  operationId(c, sourceOp.operationId, servedOp.operationId, pointer, category, event);
  for (const key of ["summary", "description"])
    c.text(category, child(pointer, key), sourceOp[key], servedOp[key], key);
  if (sourceOp.deprecated === true)
    c.same(category, child(pointer, "deprecated"), true, servedOp.deprecated, "deprecated");
  c.same(
    category,
    child(pointer, "externalDocs"),
    sourceOp.externalDocs,
    servedOp.externalDocs,
    "externalDocs",
  );
  if (Array.isArray(sourceOp.servers))
    c.record(category, child(pointer, "servers"), false, "servers of an operation");
  if (Array.isArray(sourceOp.tags))
    c.same(
      "tags",
      child(pointer, "tags"),
      [...sourceOp.tags].sort(),
      Array.isArray(servedOp.tags) ? [...servedOp.tags].sort() : undefined,
      "tags",
    );
}

/**
 * An operation's id: kept, or served under another that the import's naming explains (an
 * event's operationId is its name; an id another operation has is numbered), which is
 * one `changed` item.
 */
function operationId(
  c: Comparer,
  id: unknown,
  servedId: unknown,
  pointer: string,
  category: Category,
  event: Event | undefined,
): void {
  const at = child(pointer, "operationId");
  const trimmed = typeof id === "string" ? id.trim() : id;
  let why: string | undefined;
  if (typeof trimmed === "string" && typeof servedId === "string" && trimmed !== servedId)
    why = event
      ? servedId === event.name
        ? `served as ${servedId}: an event's operationId is its name`
        : undefined
      : c.renames.operationId(trimmed, servedId);
  if (why) c.change(category, at, why);
  else c.text(category, at, id, servedId, "operationId");
}

/**
 * The ways into an operation: its own requirements, or the document's. A way that needs a
 * scheme the served document does not declare is not looked for: that scheme's loss is
 * counted once, at the scheme, not again at every operation it guarded.
 */
function operationSecurity(c: Comparer, sourceOp: Json, servedOp: Json, pointer: string): void {
  const sourceRoot = Array.isArray(c.source.security) ? c.source.security : undefined;
  const servedRoot = Array.isArray(c.served.security) ? c.served.security : undefined;
  if (!Array.isArray(sourceOp.security) && !sourceRoot) return;
  const requirements = (op: Json, root: unknown[] | undefined) =>
    Array.isArray(op.security) ? op.security : (root ?? []);
  const offered = requirements(sourceOp, sourceRoot).filter(
    (r) => !isObject(r) || Object.keys(r).every((name) => !c.unserved.has(name)),
  );
  c.same(
    "security",
    child(pointer, "security"),
    canonicalSecurity(offered),
    canonicalSecurity(requirements(servedOp, servedRoot)),
    "security requirements",
  );
}

/** Security requirements in one order, so two lists that say the same compare equal. */
function canonicalSecurity(requirements: unknown[]): string[] {
  return requirements
    .filter(isObject)
    .map((r) =>
      JSON.stringify(
        Object.keys(r)
          .sort()
          .map((k) => [k, Array.isArray(r[k]) ? [...(r[k] as string[])].sort() : []]),
      ),
    )
    .sort();
}
