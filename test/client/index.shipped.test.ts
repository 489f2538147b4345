/**
 * The typed client of the shipped contract, through a real Workers service binding to the
 * shipped Worker (`exports.default`, inside workerd): one method per operation the contract
 * declares, and each one's answer to a call with only the credentials in it is one the
 * contract allows (`checkAnswers`). Derived from the shipped contract, so it holds for the
 * contract as it is and for any revision of it; while it declares no operation, the calls
 * of each are skipped with that reason in their name rather than passing on none.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/client";
import { contract as shipped } from "../../src/contract";
import type { Contract } from "../../src/contract-language/contract";

const contract: Contract = shipped;
/** While the contract declares no operation, a test of each one would pass on none. */
const noOperations = Object.keys(contract.operations).length === 0;
const whileEmpty = (name: string) =>
  noOperations ? `${name} (skipped: the shipped contract declares no operations)` : name;
const bindings = env as unknown as Readonly<Record<string, unknown>>;

/** The first secret of each secret-compared scheme, as the test runtime holds it. */
const credentials = Object.fromEntries(
  Object.entries(contract.securitySchemes).flatMap(([name, scheme]) => {
    if (!("secret" in scheme)) return [];
    const first = typeof scheme.secret === "string" ? scheme.secret : scheme.secret[0];
    const value = bindings[first];
    return typeof value === "string" ? [[name, value]] : [];
  }),
);

const client = createClient(contract, {
  binding: { fetch: (request) => exports.default.fetch(request) },
  credentials,
  checkAnswers: true,
});

describe("the shipped contract's client, over a service binding to the shipped Worker", () => {
  it("has one method per declared operation, and nothing else", () => {
    expect(Object.keys(client).sort()).toEqual(Object.keys(contract.operations).sort());
  });

  it.skipIf(noOperations)(
    whileEmpty("gets, for each operation, an answer its declaration allows"),
    async () => {
      const methods = client as unknown as Record<string, (input: object) => Promise<unknown>>;
      for (const [id, call] of Object.entries(methods))
        expect(await call({}), id).toHaveProperty("status");
    },
  );
});
