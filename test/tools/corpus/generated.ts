/**
 * The generated FIXTURE documents the corpus run imports beside real ones (`--generated`),
 * written where the run keeps its artifacts: each a shape real documents have at the size
 * that once broke the importer. Nothing here is the service's interface.
 *
 * - `expandable-421`: 421 operations and 561 schemas whose objects each have four
 *   "expandable" members (`anyOf` an id and the objects it names, repeated in an extension),
 *   so the schemas refer to each other in cycles through unions: the pattern that ran the
 *   importer out of a 1 GiB heap. The bound it holds the importer to: memory proportional to
 *   the document (a reference to a served schema stays a reference), under the run's 1 GiB cap.
 * - `large-1201`: 1,201 operations and 1,000 schemas, the bench's scale document.
 * - `prose-13mb-1201`: the same with the prose of a real document of that size (13 MB, as
 *   GitHub's REST document is): the import's time at that size is held to 3 minutes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateDocument } from "../bench/generate-document";

const DOCUMENTS = [
  { name: "expandable-421.json", operations: 421, schemas: 561, expandable: true },
  { name: "large-1201.json", operations: 1201, schemas: 1000, expandable: false },
  // The size of GitHub's REST document (13 MB, 1,223 operations): prose makes the bytes.
  { name: "prose-13mb-1201.json", operations: 1201, schemas: 1000, expandable: false, prose: 7000 },
] as const;

/**
 * Writes each generated document asked for (`all`, or names without `.json`) under `dir`;
 * its path and its name in the run's lines.
 */
export function generatedDocuments(
  dir: string,
  asked: readonly string[] | "all" = "all",
): [path: string, name: string][] {
  mkdirSync(dir, { recursive: true });
  const chosen = DOCUMENTS.filter(
    ({ name }) => asked === "all" || asked.includes(name.replace(/\.json$/, "")),
  );
  if (asked !== "all" && chosen.length !== asked.length)
    throw new Error(
      `corpus: --generated knows ${DOCUMENTS.map(({ name }) => name.replace(/\.json$/, "")).join(", ")}`,
    );
  return chosen.map(({ name, ...options }) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(generateDocument(options)));
    return [path, `generated/${name}`];
  });
}
