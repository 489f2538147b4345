/**
 * Part 9 refused at start-up where the types cannot see it: `current` is a declared
 * version; negotiated versions say where a client states one; dates are ISO 8601 and a
 * sunset is never before its deprecation (RFC 8594 §3 with RFC 9745 §4); migration notes
 * are an absolute URL; an operation's range, and each of its variants', names declared
 * versions, `added` before `removed`; variants need negotiated versions and do not
 * overlap. An operation's own retirement follows the rules of a version's.
 */
import type { Contract, Retirement, VersionRange } from "../../contract-language/contract";
import { planVersions, VERSION_SEGMENT, versionsOf } from "./plan";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// RFC 3986 §2.3: unreserved characters only, so a version is one path segment as written.
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** The dates and link of a retirement, for `where` (a version or an operation). */
function checkRetirement(where: string, declared: Retirement): void {
  const fail = (why: string) => {
    throw new Error(`${where}: ${why}`);
  };
  for (const key of ["deprecated", "sunset"] as const) {
    const date = declared[key];
    if (date !== undefined && Number.isNaN(Date.parse(date)))
      fail(`${key} ${date} is not an ISO 8601 date`);
  }
  if (declared.sunset && !declared.deprecated)
    fail("a sunset needs a deprecation date (RFC 9745 §4)");
  if (
    declared.sunset &&
    declared.deprecated &&
    Date.parse(declared.sunset) < Date.parse(declared.deprecated)
  )
    fail("its sunset is earlier than its deprecation (RFC 8594 §3)");
  if (declared.migration !== undefined && !URL.canParse(declared.migration))
    fail(`migration ${declared.migration} is not an absolute URL`);
}

function checkRange(where: string, range: VersionRange, order: readonly string[]): void {
  const { added, removed } = range;
  for (const name of [added, removed])
    if (name !== undefined && !order.includes(name))
      throw new Error(`${where}: version ${name} is not declared in part 9`);
  if (
    added !== undefined &&
    removed !== undefined &&
    order.indexOf(removed) <= order.indexOf(added)
  )
    throw new Error(`${where}: it is removed in ${removed}, not after it is added in ${added}`);
}

export function checkVersions(contract: Contract): void {
  for (const [id, op] of Object.entries(contract.operations))
    if (typeof op.deprecated === "object") {
      if (!op.deprecated.deprecated)
        throw new Error(`operation ${id}: its deprecation needs a date (RFC 9745 §2)`);
      checkRetirement(`operation ${id}`, op.deprecated);
    }
  const v = contract.versioning;
  const versions = v?.versions;
  const ranged = Object.entries(contract.operations).filter(([, op]) => op.versions || op.variants);
  if (!v || !versions) {
    if (ranged.length > 0)
      throw new Error(`operation ${ranged[0]?.[0]}: declares versions, but part 9 declares none`);
    return;
  }
  const fail = (why: string): never => {
    throw new Error(`part 9: ${why}`);
  };
  const order = Object.keys(versions);
  if (!order.includes(v.current)) fail(`current version ${v.current} is not one of its versions`);
  const plan =
    planVersions(contract) ??
    fail("declares versions but not where a client states one (placement)");
  const { placement } = plan;
  if ((placement.in === "header" || placement.in === "query") && !TOKEN.test(placement.name))
    fail(`${placement.in} name ${placement.name} is not a valid name`);
  if (placement.in === "media-type" && !TOKEN.test(placement.parameter))
    fail(`media-type parameter ${placement.parameter} is not a valid name`);
  if (placement.in === "path") {
    for (const id of order)
      if (!SEGMENT.test(id))
        fail(`version ${id} cannot be a path segment as written (RFC 3986 §2.3)`);
    for (const [id, op] of Object.entries(contract.operations))
      if (op.path.includes(`{${VERSION_SEGMENT}}`))
        throw new Error(`operation ${id}: {${VERSION_SEGMENT}} is the platform's version segment`);
  }
  for (const [id, declared] of Object.entries(versions))
    checkRetirement(`part 9: version ${id}`, declared);
  for (const [id, op] of ranged) {
    if (op.versions) checkRange(`operation ${id}`, op.versions, order);
    const taken = new Map<string, number>();
    for (const [index, variant] of (op.variants ?? []).entries()) {
      const where = `operation ${id}, variant ${index}`;
      checkRange(where, variant.versions, order);
      const own = versionsOf(plan, op.versions);
      for (const version of versionsOf(plan, variant.versions)) {
        if (!own.includes(version))
          throw new Error(`${where}: version ${version} does not have the operation`);
        const other = taken.get(version);
        if (other !== undefined)
          throw new Error(`${where}: version ${version} is in variant ${other} too`);
        taken.set(version, index);
      }
    }
  }
}
