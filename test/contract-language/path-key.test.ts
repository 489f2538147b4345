/**
 * A base path shared by every operation, declared once (src/contract-language/path-key.ts,
 * `under`): the paths it makes are the literals the compiler checks, and a base that is not
 * `/` and segments is refused at compile time and when the contract loads. FIXTURE paths.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod/mini";
import { defineContract } from "../../src/contract-language/define-contract";
import { under } from "../../src/contract-language/path-key";

describe("a base path declared once", () => {
  const v1 = under("/fixture-v1");

  it("writes each path under it, as the literal the compiler checks", () => {
    const path = v1("/fixture-invoices/{id}");
    expect(path).toBe("/fixture-v1/fixture-invoices/{id}");
    expectTypeOf(path).toEqualTypeOf<"/fixture-v1/fixture-invoices/{id}">();
    const contract = defineContract({
      operations: {
        fixtureGet: {
          method: "GET",
          path: v1("/fixture-invoices/{id}"),
          request: { params: z.object({ id: z.string() }) },
          responses: { 204: { description: "FIXTURE" } },
        },
        fixtureWrong: {
          method: "GET",
          // @ts-expect-error the path's {id} is no member of its params.
          path: v1("/fixture-invoices/{id}/lines"),
          request: { params: z.object({ other: z.string() }) },
          responses: { 204: { description: "FIXTURE" } },
        },
      },
    });
    expect(contract.operations.fixtureGet.path).toBe("/fixture-v1/fixture-invoices/{id}");
  });

  it("refuses a base that is not / and segments, at compile time and when it loads", () => {
    // @ts-expect-error a base begins with /.
    expect(() => under("fixture-v1")).toThrow(/a base path is \/ and segments/);
    // @ts-expect-error a base has no / at its end.
    expect(() => under("/fixture-v1/")).toThrow(/a base path is \/ and segments/);
    expect(() => under("/fixture-v1//x")).toThrow(/a base path is \/ and segments/);
  });
});
