/**
 * Part 6 refused at start-up where the types could not see it (a contract typed only as
 * `Contract`, or plain JavaScript): an operation may only emit declared events, and an
 * event's retry bound is a whole number of seconds, at least the schedule's first retry.
 */
import type { Contract } from "../../contract-language/contract";

export function checkEvents(contract: Contract): void {
  for (const [name, event] of Object.entries(contract.events))
    if (event.retryFor !== undefined && (!Number.isInteger(event.retryFor) || event.retryFor < 5))
      throw new Error(
        `event ${name}: retryFor must be a whole number of seconds, at least 5 (the first retry's delay)`,
      );
  for (const [id, operation] of Object.entries(contract.operations))
    for (const event of operation.emits ?? [])
      if (!(event in contract.events))
        throw new Error(`operation ${id}: emits ${event}, which part 6 does not declare`);
}
