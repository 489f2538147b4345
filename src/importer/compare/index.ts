/**
 * The round trip, measured: the OpenAPI document the service serves compared with the
 * source it was imported from, category by category. Every item the source states (an
 * operation, a parameter's `required`, a schema keyword, an example's value, …) is either
 * kept in the served document at the same place, or a loss, with its JSON Pointer in the
 * source. What the served document adds (the platform's problems, `/_service`, stricter
 * bounds zod writes) is not counted: only what the source says is.
 *
 * Both documents are read in OpenAPI 3.1's dialect (a 3.0 source is normalised first), and
 * `$ref`s to component schemas are compared as references: keeping one means referring to
 * the same component by name. A schema of a body, a parameter or a response counts as one
 * item (the whole of it must be carried); a component schema counts one item per keyword,
 * at any depth, so one lost keyword does not count as a lost schema.
 *
 * A change is counted once, where its cause is. What the import names otherwise is one
 * item, kept and marked `changed`, and what refers to it is compared through the new name
 * (renames.ts): a component schema renamed because the platform's own has its name (its
 * keywords are compared with the served schema of the new name; a `$ref` or a
 * discriminator's mapping to it is kept where it names the new one), an operationId the
 * import numbered or gave an event's name, a callback sent as a numbered event. A security
 * scheme the platform cannot verify is one loss, at the scheme, not one more at each
 * operation it guarded; a component the import writes out in place (a form's) is compared
 * with what is written out.
 */

import { serverBase } from "../server-base";
import { child, follow, isObject, type Json } from "../source";
import { normaliseDocument } from "../walk";
import { Comparer, METHODS, paths } from "./context";
import { compareCallbacks, compareWebhooks } from "./events";
import { type Comparison, tally } from "./items";
import { compareOperation } from "./operations";
import { compareServers, compareTags } from "./purpose";
import { compareComponentSchemas } from "./resources";
import { compareSecuritySchemes } from "./security";

export { CATEGORIES, type Category, type Comparison, type Item, sameJson } from "./items";

/**
 * The share of the source a served document must keep: `npm run contract:diff` exits 1
 * below it, and the import says so on its last lines.
 */
export const FIDELITY_FLOOR = 0.95;

/** The source (3.0 or 3.1) compared with the served document, category by category (compare/). */
export function compareDocuments(
  sourceDocument: Json,
  sourceMajor: "3.0" | "3.1",
  servedDocument: Json,
): Comparison {
  const c = new Comparer(normaliseDocument(sourceDocument, sourceMajor), servedDocument);
  // The servers' path is written in front of every path (src/importer/server-base.ts).
  const { base } = serverBase(c.source);
  // Every category, in the order the report lists them.
  for (const [path, rawItem] of Object.entries(paths(c.source))) {
    const at = child("#", "paths", path);
    const { node: item } = follow(c.source, rawItem, at);
    const servedItem = paths(c.served)[base + path];
    if (!isObject(item)) continue;
    for (const method of METHODS)
      compareOperation(
        c,
        item,
        isObject(servedItem) ? servedItem : undefined,
        method,
        child(at, method),
        "operations",
      );
  }
  compareWebhooks(c);
  compareCallbacks(c);
  compareComponentSchemas(c);
  compareSecuritySchemes(c);
  compareTags(c);
  compareServers(c);
  return tally(c.items);
}
