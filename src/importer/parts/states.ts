/**
 * Part 3: OpenAPI carries no state machine; the service's own document puts its machines on
 * the resources' schemas (`x-state-machines`), and they come back from there.
 */
import { STATE_MACHINES } from "../../contract-language/document-marks";
import { literal, propertyKey } from "../schema-code";
import { isObject, type Json } from "../source";
import { counted, type PartCode, plainPart } from "./context";

/** Part 3's file, from the machines on `schemas`; none when no schema has one. */
export function statesPart(
  schemas: Json,
  resourceKeys: ReadonlyMap<string, string>,
): PartCode | undefined {
  const machines: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const declared = isObject(schema) ? schema[STATE_MACHINES] : undefined;
    if (!Array.isArray(declared)) continue;
    for (const machine of declared) {
      if (!isObject(machine) || typeof machine.name !== "string") continue;
      const { name: machineName, ...rest } = machine;
      machines.push(
        `${propertyKey(machineName)}: ${literal({ resource: resourceKeys.get(name) ?? name, ...rest })},`,
      );
    }
  }
  if (machines.length === 0) return undefined;
  return plainPart(
    `export const states = { ${machines.join(" ")} } as const satisfies Readonly<Record<string, StateMachine>>;`,
    machines.length,
    counted(machines.length, "state machine"),
  );
}
