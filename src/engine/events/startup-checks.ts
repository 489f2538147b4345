/**
 * Part 6 refused at start-up where the types could not see it (a contract typed only as
 * `Contract`, or plain JavaScript): an operation may only emit declared events.
 */
import type { Contract } from "../../contract-language/contract";

export function checkEvents(contract: Contract): void {
  for (const [id, operation] of Object.entries(contract.operations))
    for (const event of operation.emits ?? [])
      if (!(event in contract.events))
        throw new Error(`operation ${id}: emits ${event}, which part 6 does not declare`);
}
