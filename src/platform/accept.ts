/**
 * Proactive negotiation between the two forms of a platform document (RFC 9110 §12.5.1):
 * each candidate gets the weight of the most specific media range that matches it
 * (`type/subtype` over `type/*` over `*\/*`), and the heaviest wins; a tie, or no Accept at
 * all, goes to the first candidate. A dozen lines instead of a general-purpose helper,
 * because it runs in every Worker that ships (src/engine/README.md, "Bundle size").
 */

function weightOf(accept: string, candidate: string): number {
  const [type] = candidate.split("/");
  let best = -1;
  let weight = 0;
  for (const range of accept.split(",")) {
    const [name = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const specificity = name === candidate ? 3 : name === `${type}/*` ? 2 : name === "*/*" ? 1 : 0;
    if (specificity <= best || specificity === 0) continue;
    const q = params.find((p) => p.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    best = specificity;
    weight = Number.isFinite(value) && value >= 0 && value <= 1 ? value : 0;
  }
  return weight;
}

/**
 * The candidate the client prefers among those it accepts at all (a weight above 0); the
 * first candidate without an Accept; undefined when it accepts none of them, for a 406
 * (RFC 9110 §15.5.7). Ties go to the earlier candidate.
 */
export function acceptable<T extends string>(
  accept: string | null,
  candidates: readonly T[],
): T | undefined {
  if (!accept) return candidates[0];
  let chosen: T | undefined;
  let top = 0;
  for (const candidate of candidates) {
    const weight = weightOf(accept, candidate.toLowerCase());
    if (weight > top) [chosen, top] = [candidate, weight];
  }
  return chosen;
}

/** The candidate the client prefers; the first one when it says nothing that decides. */
export function negotiate<T extends string>(
  accept: string | null,
  candidates: readonly [T, ...T[]],
): T {
  const [first] = candidates;
  if (!accept) return first;
  let chosen = first;
  let top = weightOf(accept, first);
  for (const candidate of candidates.slice(1)) {
    const weight = weightOf(accept, candidate);
    if (weight > top) [chosen, top] = [candidate, weight];
  }
  return chosen;
}
