/**
 * The nine parts of the interface specification, in the spec's own order and words.
 *
 * Each part knows how to count what a contract declares in it. Whether a part is
 * "specified" is derived from that count and nothing else, so the status report cannot
 * disagree with the declarations.
 */
import type { Contract } from "./contract";

export interface SpecPart {
  /** The part's number in the specification (1 to 9). */
  readonly number: number;
  /** A short machine name, also the file name under `src/contract/`. */
  readonly name: string;
  /** The part's heading in the specification. */
  readonly title: string;
  /** What the part counts, as the status report's JSON names it, e.g. `stateMachines`. */
  readonly unit: string;
  /** The same in English for people, singular and plural: `["state machine", "state machines"]`. */
  readonly noun: readonly [string, string];
  readonly count: (contract: Contract) => number;
}

const size = (record: Readonly<Record<string, unknown>>): number => Object.keys(record).length;

export const SPEC_PARTS: readonly SpecPart[] = [
  {
    number: 1,
    name: "purpose",
    title: "What the service does",
    unit: "statements",
    noun: ["statement", "statements"],
    count: (c) => (c.purpose ? 1 : 0),
  },
  {
    number: 2,
    name: "resources",
    title: "Resources and their fields",
    unit: "resources",
    noun: ["resource", "resources"],
    count: (c) => size(c.resources),
  },
  {
    number: 3,
    name: "states",
    title: "States and transitions",
    unit: "stateMachines",
    noun: ["state machine", "state machines"],
    count: (c) => size(c.states),
  },
  {
    number: 4,
    name: "endpoints",
    title: "Endpoints",
    unit: "operations",
    noun: ["operation", "operations"],
    count: (c) => size(c.operations),
  },
  {
    number: 5,
    name: "authentication",
    title: "Authentication",
    unit: "securitySchemes",
    noun: ["security scheme", "security schemes"],
    count: (c) => size(c.securitySchemes),
  },
  {
    number: 6,
    name: "events",
    title: "Events",
    unit: "events",
    noun: ["event", "events"],
    count: (c) => size(c.events),
  },
  {
    number: 7,
    name: "errors",
    title: "Errors",
    unit: "errorTypes",
    noun: ["error type", "error types"],
    count: (c) => size(c.errors),
  },
  {
    number: 8,
    name: "limits",
    title: "Limits",
    unit: "limits",
    noun: ["limit", "limits"],
    count: (c) => size(c.limits),
  },
  {
    number: 9,
    name: "versioning",
    title: "Versioning",
    unit: "versions",
    noun: ["version", "versions"],
    // Each version it declares, the current one among them (`versions: 1` for two was a
    // miscount): one where only the current is named.
    count: (c) =>
      c.versioning
        ? new Set([c.versioning.current, ...Object.keys(c.versioning.versions ?? {})]).size
        : 0,
  },
];

/** `1 operation`, `0 state machines`: a count in words. */
export function countOf(part: SpecPart, count: number): string {
  return `${count} ${part.noun[count === 1 ? 0 : 1]}`;
}

/** Looks a part up by name; the names are fixed by the list above. */
export function specPart(name: string): SpecPart {
  const part = SPEC_PARTS.find((p) => p.name === name);
  if (!part) throw new Error(`unknown spec part: ${name}`);
  return part;
}
