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

/**
 * The class of a cause (a left-out unit's finding, a failed import's line): its first clause,
 * with what names one document's parts taken out (code spans, quoted text, JSON Pointers,
 * paths, the name after "operation", "component", …, and numbers), cut at 100 characters. So
 * one cause met at many places, or in many documents, is one class.
 */
export function causeClass(message: string): string {
  const text = message
    .replace(/^left out: /, "")
    .replace(/`[^`]*`/g, "`…`")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^'\s]*'/g, "'…'")
    .replace(/#\/[^\s,;)]*/g, "#/…")
    .replace(/\/[\w{}.~:-]+(?:\/[\w{}.~:-]+)+/g, "/…")
    .replace(
      /\b(operations?|components?|schemas?|webhooks?|paths?|schemes?|members?|parameters?|headers?|types?|ids?) (?!(?:of|is|are|in|at|to|a|an|the|and|or|that|which|with|not|names?)\b)[^\s,:;()]+/g,
      "$1 …",
    )
    .replace(/\b\d+(?:\.\d+)?\b/g, "#");
  // The first clause, and the one after it where the first only says what happened to it.
  const [first = text, second] = text.split(/; | \(/)[0]?.split(": ") ?? [text];
  const clause = second !== undefined && first.length < 40 ? `${first}: ${second}` : first;
  return clause.length > 100 ? `${clause.slice(0, 99)}…` : clause;
}

/** Left-out units by the class of their cause, most frequent first. */
export function leftOutByClass(findings: readonly Finding[]): [cause: string, count: number][] {
  const counts = new Map<string, number>();
  for (const finding of findings.filter(isLeftOut)) {
    const key = causeClass(finding.message);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

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
