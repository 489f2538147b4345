/**
 * `tsx src/importer/served-document.ts`: prints the OpenAPI document the Worker built from
 * src/ serves, run in Node (the document needs no binding). The importer runs it to prove
 * a new contract starts; the round-trip report (`npm run contract:diff`) compares what it
 * prints with the source document. A contract the app refuses to start with exits 1 with
 * the app's own sentence.
 */
export {};

const context = { waitUntil() {}, passThroughOnException() {}, props: {} };
try {
  // Imported here: a contract the app refuses is refused when the module loads.
  const { default: worker } = await import("../index");
  const response = await worker.fetch(
    new Request("http://localhost/_service/openapi.json"),
    {} as Env,
    context as unknown as ExecutionContext,
  );
  if (!response.ok) throw new Error(`the document was answered ${response.status}`);
  process.stdout.write(await response.text());
} catch (error) {
  console.error(`the service does not start: ${(error as Error).message}`);
  process.exit(1);
}
