/**
 * The round trip, measured: the OpenAPI document the service serves compared with the
 * source it was imported from, category by category. Every item the source states is
 * either kept in the served document at the same place, or a loss, with its JSON Pointer in
 * the source; what the served document adds is not counted. A change is counted once,
 * where its cause is: what the import names otherwise is compared through the new name
 * (renames.ts). How items are counted and compared: src/importer/README.md, "The round
 * trip".
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
