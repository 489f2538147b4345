/**
 * The generated FIXTURE documents the corpus run imports beside real ones (`--generated`),
 * written where the run keeps its artifacts: the list and why each is there are the
 * generator's (`GENERATED_DOCUMENTS`, test/tools/bench/generate-document.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GENERATED_DOCUMENTS, generateDocument } from "../bench/generate-document";

/**
 * Writes each generated document asked for (`all`, or names without `.json`) under `dir`;
 * its path and its name in the run's lines.
 */
export function generatedDocuments(
  dir: string,
  asked: readonly string[] | "all" = "all",
): [path: string, name: string][] {
  mkdirSync(dir, { recursive: true });
  const chosen = GENERATED_DOCUMENTS.filter(({ name }) => asked === "all" || asked.includes(name));
  if (asked !== "all" && chosen.length !== asked.length)
    throw new Error(
      `corpus: --generated knows ${GENERATED_DOCUMENTS.map(({ name }) => name).join(", ")}`,
    );
  return chosen.map(({ name, ...options }) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(generateDocument(options)));
    return [path, `generated/${name}.json`];
  });
}
