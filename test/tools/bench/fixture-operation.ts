/**
 * The bench's FIXTURE operation: the same validated POST as the peers' (zod/mini), declared
 * in a contract. Variant 5d serves it (variants/service-operation.ts), and the bundle test
 * builds its Worker as a deploy does (test/service/bundle-contents.slow.test.ts).
 */
import * as z from "zod/mini";
import { defineContract } from "../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../src/contract-language/define-handlers";
import { POST_PATH } from "./shared";

const Item = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(40)),
  size: z.number().check(z.int(), z.minimum(1)),
});

export const BENCH_FIXTURE_CONTRACT = defineContract({
  operations: {
    benchFixtureCreate: {
      method: "POST",
      path: POST_PATH,
      request: { body: { "application/json": Item } },
      responses: {
        201: {
          description: "Created",
          content: { "application/json": z.extend(Item, { id: z.string() }) },
        },
      },
    },
  },
});

export const BENCH_FIXTURE_HANDLERS = defineHandlers(BENCH_FIXTURE_CONTRACT, {
  benchFixtureCreate: ({ body }) => ({ status: 201, body: { id: "b1", ...body.value } }),
});
