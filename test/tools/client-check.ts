/**
 * The typed client (src/client) against a running instance over real HTTP: each operation
 * of the contract called once, with the credentials given and nothing else in it, its
 * answer checked against the contract (`checkAnswers`). A call with nothing in it is
 * answered as the operation says (a 2xx, or the 4xx its missing input earns); an answer the
 * contract does not allow, or a call that fails, is a failure. `dev-conformance.ts` runs it
 * against `wrangler dev`.
 */
import { AnswerMismatchError, createClient } from "../../src/client";
import type { Contract } from "../../src/contract-language/contract";

export interface ClientCheck {
  readonly lines: readonly string[];
  readonly failed: number;
}

export async function checkClient(
  base: string,
  contract: Contract,
  credentials: Readonly<Record<string, string>>,
): Promise<ClientCheck> {
  const client = createClient(contract, { baseUrl: base, credentials, checkAnswers: true });
  const methods = client as unknown as Record<
    string,
    (input: object) => Promise<{ status: number }>
  >;
  const lines: string[] = [];
  let failed = 0;
  for (const id of Object.keys(contract.operations)) {
    try {
      const answer = await methods[id]?.({});
      lines.push(`ok    client ${id}: ${answer?.status}`);
    } catch (error) {
      failed += 1;
      const reason = error instanceof AnswerMismatchError ? error.message : String(error);
      lines.push(`FAIL  client ${id}: ${reason}`);
    }
  }
  lines.push(
    `the typed client called ${Object.keys(contract.operations).length} operations over HTTP: ${failed} failed`,
  );
  return { lines, failed };
}
