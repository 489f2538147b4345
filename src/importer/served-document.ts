/**
 * `tsx src/importer/served-document.ts`: prints the OpenAPI document the Worker built from
 * src/ serves, made as the build makes it (`buildProject`, src/build/write.ts: the
 * contract and its handlers checked with every start-up check, then documented), so it
 * needs neither a build written before nor a binding. The importer runs it to prove a new
 * contract works; the round-trip report (`npm run contract:diff`) compares what it prints
 * with the source document. A contract the build refuses exits 1 with the build's own
 * sentence. With `--places <file>`, it writes there, as JSON, where the sandbox places each
 * operation without a handler and why, as the status report says it (for the import report).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { buildProject } from "../build/write";

const at = process.argv.indexOf("--places");
const placesFile = at === -1 ? undefined : process.argv[at + 1];

try {
  // A contract that does not load is refused like one the checks refuse.
  const { built } = await buildProject();
  process.stdout.write(built.openapi.current.body);
  if (placesFile) {
    const places = built.report.report.operations.flatMap(({ id, sandbox }) =>
      sandbox ? [{ id, ...sandbox }] : [],
    );
    mkdirSync(dirname(placesFile), { recursive: true });
    writeFileSync(placesFile, JSON.stringify(places));
  }
} catch (error) {
  console.error(`the service does not start: ${(error as Error).message}`);
  process.exit(1);
}
