/**
 * Part 9: `info.version` → the current version, documented. A document describes one
 * version, so none is negotiated; a document served here that says part 9 is not
 * specified keeps it so.
 */
import { literal } from "../schema-code";
import { isObject, type Json } from "../source";
import { type PartCode, plainPart } from "./context";

/** Part 9's file; none without a version, or where the service's own document leaves it unspecified. */
export function versioningPart(
  document: Json,
  unspecified: ReadonlySet<number>,
): PartCode | undefined {
  const info = isObject(document.info) ? document.info : {};
  if (typeof info.version !== "string" || info.version === "" || unspecified.has(9))
    return undefined;
  return plainPart(
    `export const versioning = ${literal({ current: info.version })} as const satisfies Versioning;`,
    1,
    `version ${info.version}`,
  );
}
