/** The catalogue's entries, as tests count them (src/contract-language/problem-catalogue.ts). */
import { PROBLEM_CATALOGUE } from "../../src/contract-language/problem-catalogue";

/** The engine's problem types, by slug: the catalogue's entries the engine owns. */
export const ENGINE_PROBLEM_SLUGS = PROBLEM_CATALOGUE.filter(
  (entry) => entry.owner === "engine",
).map((entry) => entry.slug);
