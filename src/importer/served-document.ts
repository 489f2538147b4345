/**
 * `tsx src/importer/served-document.ts`: prints the OpenAPI document the Worker built from
 * src/ serves, made as the build makes it (`buildProject`, src/build/write.ts: the
 * contract and its handlers checked with every start-up check, then documented), so it
 * needs neither a build written before nor a binding. The importer runs it to prove a new
 * contract works; the round-trip report (`npm run contract:diff`) compares what it prints
 * with the source document. A contract the build refuses exits 1 with the build's own
 * sentence.
 */
import { buildProject } from "../build/write";

try {
  // A contract that does not load is refused like one the checks refuse.
  const { built } = await buildProject();
  process.stdout.write(built.openapi.current.body);
} catch (error) {
  console.error(`the service does not start: ${(error as Error).message}`);
  process.exit(1);
}
