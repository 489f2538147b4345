/**
 * Part 9 refused at start-up where the types cannot see it: `current` is a declared
 * version; negotiated versions say where a client states one; dates are ISO 8601 and a
 * sunset is never before its deprecation (RFC 8594 §3 with RFC 9745 §4); migration notes
 * are an absolute URL; an operation's range names declared versions, `added` before
 * `removed`.
 */
import type { Contract } from "../../domain/contract";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function checkVersions(contract: Contract): void {
  const v = contract.versioning;
  const versions = v?.versions;
  const ranged = Object.entries(contract.operations).filter(([, op]) => op.versions);
  if (!v || !versions) {
    if (ranged.length > 0)
      throw new Error(`operation ${ranged[0]?.[0]}: declares versions, but part 9 declares none`);
    return;
  }
  const fail = (why: string) => {
    throw new Error(`part 9: ${why}`);
  };
  const order = Object.keys(versions);
  if (!order.includes(v.current)) fail(`current version ${v.current} is not one of its versions`);
  if (!v.placement) fail("declares versions but not where a client states one (placement)");
  const placement = v.placement;
  if (placement && placement.in !== "media-type" && !TOKEN.test(placement.name))
    fail(`${placement.in} name ${placement.name} is not a valid name`);
  if (placement?.in === "media-type" && !TOKEN.test(placement.parameter))
    fail(`media-type parameter ${placement.parameter} is not a valid name`);
  for (const [id, declared] of Object.entries(versions)) {
    for (const key of ["deprecated", "sunset"] as const) {
      const date = declared[key];
      if (date !== undefined && Number.isNaN(Date.parse(date)))
        fail(`version ${id}: ${key} ${date} is not an ISO 8601 date`);
    }
    if (declared.sunset && !declared.deprecated)
      fail(`version ${id}: a sunset needs a deprecation date (RFC 9745 §4)`);
    if (
      declared.sunset &&
      declared.deprecated &&
      Date.parse(declared.sunset) < Date.parse(declared.deprecated)
    )
      fail(`version ${id}: its sunset is earlier than its deprecation (RFC 8594 §3)`);
    if (declared.migration !== undefined && !URL.canParse(declared.migration))
      fail(`version ${id}: migration ${declared.migration} is not an absolute URL`);
  }
  for (const [id, op] of ranged) {
    const { added, removed } = op.versions ?? {};
    for (const name of [added, removed])
      if (name !== undefined && !order.includes(name))
        throw new Error(`operation ${id}: version ${name} is not declared in part 9`);
    if (
      added !== undefined &&
      removed !== undefined &&
      order.indexOf(removed) <= order.indexOf(added)
    )
      throw new Error(
        `operation ${id}: it is removed in ${removed}, not after it is added in ${added}`,
      );
  }
}
