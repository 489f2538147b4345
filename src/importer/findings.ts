/**
 * What an import could not carry, or carried differently, each at the JSON Pointer of the
 * source it is about. Nothing is dropped without a finding here: the importer prints them
 * and writes them beside the contract (src/contract/IMPORT-REPORT.md).
 */

export type FindingKind =
  /** Not in the contract at all. */
  | "lost"
  /** In the OpenAPI document the service serves, but not enforced when it serves requests. */
  | "not-enforced"
  /** Carried, but named or shaped differently (a derived id, a renamed schema). */
  | "changed";

export interface Finding {
  readonly kind: FindingKind;
  readonly pointer: string;
  readonly message: string;
}

/** What the import left out (an operation, a path, a webhook, a component): its message says so first. */
export const isLeftOut = (finding: Finding) => finding.message.startsWith("left out: ");

export class Findings {
  readonly #list: Finding[] = [];
  readonly #seen = new Set<string>();

  add(kind: FindingKind, pointer: string, message: string): void {
    const key = `${kind}\n${pointer}\n${message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#list.push({ kind, pointer, message });
  }

  lost(pointer: string, message: string): void {
    this.add("lost", pointer, message);
  }

  notEnforced(pointer: string, message: string): void {
    this.add("not-enforced", pointer, message);
  }

  changed(pointer: string, message: string): void {
    this.add("changed", pointer, message);
  }

  get list(): readonly Finding[] {
    return this.#list;
  }
}
