/**
 * Part 8's declarations, checked when the app starts against part 4 and the schemas they
 * refer to: a limit that would not be enforced as written stops the Worker from starting.
 */

import { safeParse } from "zod/v4/core";
import { type Contract, type PageSizeLimit, resolveSchema } from "../../contract-language/contract";
import { isBindingName } from "../bindings";
import { objectShape } from "../zod/shape";

const isCount = (n: number, least: number) => Number.isSafeInteger(n) && n >= least;

/**
 * A page-size limit is enforced by the operation's own query schema, so the schema must
 * bound the parameter exactly so: checked by what the member accepts, as a query string
 * reaches it (the least and greatest accepted, the next ones refused, a fraction refused).
 */
function checkPageSize(contract: Contract, name: string, limit: PageSizeLimit, id: string): void {
  const fail = (why: string) => new Error(`limit ${name}, operation ${id}: ${why}`);
  const query = resolveSchema(contract.operations[id]?.request?.query);
  if (!query) throw fail("the operation declares no query schema");
  const member = objectShape(query)?.[limit.parameter];
  if (!member) throw fail(`the query schema has no parameter ${limit.parameter}`);
  const accepts = (value: number) => safeParse(member, String(value)).success;
  const { minimum, maximum } = limit;
  const exact =
    accepts(minimum) &&
    accepts(maximum) &&
    !accepts(minimum - 1) &&
    !accepts(maximum + 1) &&
    (minimum === maximum || !accepts(minimum + 0.5));
  if (!exact)
    throw fail(
      `the query schema must bound ${limit.parameter} as an integer from ${minimum} to ${maximum}`,
    );
}

/** Checks part 8's declarations against part 4 and the schemas they refer to. */
export function checkLimits(contract: Contract): void {
  const capped = new Set<string>();
  const paged = new Set<string>();
  const counters = new Map<string, string>();
  for (const [name, limit] of Object.entries(contract.limits)) {
    const fail = (why: string) => new Error(`limit ${name}: ${why}`);
    if (limit.kind === "rate") {
      // One binding has one limit and period in wrangler.toml.
      const counted = `${limit.limit}/${limit.period}`;
      const other = counters.get(limit.binding);
      if (other !== undefined && other !== counted)
        throw fail(`binding ${limit.binding} is declared with another limit or period`);
      counters.set(limit.binding, counted);
    }
    if (new Set(limit.operations).size !== limit.operations.length)
      throw fail("names an operation twice");
    for (const id of limit.operations) {
      const operation = contract.operations[id];
      if (!operation) throw fail(`applies to ${id}, which part 4 does not declare`);
      if (limit.kind === "body-size") {
        if (!isCount(limit.maxBytes, 1)) throw fail("maxBytes must be a positive integer");
        if (!operation.request?.body) throw fail(`operation ${id} takes no request body`);
        if (capped.has(id)) throw fail(`operation ${id} has another body-size limit`);
        capped.add(id);
      } else if (limit.kind === "rate") {
        if (!isBindingName(limit.binding)) throw fail("binding is not a valid binding name");
        if (!isCount(limit.limit, 1)) throw fail("limit must be a positive integer");
        if (limit.period !== 10 && limit.period !== 60)
          throw fail("period must be 10 or 60 seconds (what the binding supports)");
        if (limit.key !== "client" && limit.key !== "credential")
          throw fail("key must be client or credential");
        if (limit.key === "credential" && !operation.security?.length)
          throw fail(`is counted per credential, but operation ${id} requires none`);
      } else if (limit.kind === "page-size") {
        if (!isCount(limit.minimum, 0) || !isCount(limit.maximum, limit.minimum))
          throw fail("minimum and maximum must be integers with 0 ≤ minimum ≤ maximum");
        const key = `${id}\n${limit.parameter}`;
        if (paged.has(key)) throw fail(`${id}'s ${limit.parameter} has another page-size limit`);
        paged.add(key);
        checkPageSize(contract, name, limit, id);
      } else {
        throw fail("kind must be body-size, rate or page-size");
      }
    }
  }
}
