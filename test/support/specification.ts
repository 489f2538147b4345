/**
 * Reading the interface specification (src/contract/SPECIFICATION.md): its nine parts, in
 * its own order and words, and whether each is given or "not shown". The service says
 * "not specified" for a part the specification does not show.
 */
import type { Contract } from "../../src/contract-language/contract";
import { SPEC_PARTS } from "../../src/contract-language/parts";

export interface SpecificationPart {
  readonly number: number;
  readonly title: string;
  /** False when the part's text says it is "not shown". */
  readonly given: boolean;
}

/** The `## N. Title` sections of the specification, with whether each gives its part. */
export function specificationParts(text: string): SpecificationPart[] {
  const headings = [...text.matchAll(/^## (\d+)\. (.+)$/gm)];
  return headings.map((heading, i) => {
    const start = (heading.index ?? 0) + heading[0].length;
    const end = headings[i + 1]?.index ?? text.length;
    return {
      number: Number(heading[1]),
      title: (heading[2] ?? "").trim(),
      given: !/\bnot shown\b/i.test(text.slice(start, end)),
    };
  });
}

/** Every way the contract and the specification disagree, one sentence each; empty when they agree. */
export function specificationMismatches(text: string, contract: Contract): string[] {
  const parts = specificationParts(text);
  const found: string[] = [];
  const numbers = parts.map((p) => p.number).join(",");
  if (numbers !== "1,2,3,4,5,6,7,8,9") found.push(`the specification's parts are ${numbers}`);
  for (const part of SPEC_PARTS) {
    const spec = parts.find((p) => p.number === part.number);
    if (!spec) continue;
    if (spec.title !== part.title)
      found.push(
        `part ${part.number} is "${spec.title}" in the specification, "${part.title}" here`,
      );
    const declared = part.count(contract) > 0;
    if (spec.given && !declared)
      found.push(
        `part ${part.number} (${part.title}): the specification gives it, but src/contract/${part.name}.ts declares nothing`,
      );
    if (!spec.given && declared)
      found.push(
        `part ${part.number} (${part.title}): src/contract/${part.name}.ts declares it, but the specification does not show it`,
      );
  }
  return found;
}
