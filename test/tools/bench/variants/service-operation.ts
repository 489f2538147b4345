/** Variant 5d: this service with a FIXTURE operation declaring the same validated POST. */
import * as z from "zod/mini";
import { createApp } from "../../../../src/app";
import { defineContract } from "../../../../src/contract-language/define-contract";
import { defineHandlers } from "../../../../src/contract-language/define-handlers";
import { OPERATION_ENGINE } from "../../../../src/engine";
import { POST_PATH } from "../shared";

const Item = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(40)),
  size: z.number().check(z.int(), z.minimum(1)),
});
const BENCH_FIXTURE_CONTRACT = defineContract({
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
const handlers = defineHandlers(BENCH_FIXTURE_CONTRACT, {
  benchFixtureCreate: ({ body }) => ({ status: 201, body: { id: "b1", ...body.value } }),
});

export default createApp(BENCH_FIXTURE_CONTRACT, {
  handlers,
  jsonSchema: z.toJSONSchema,
  engine: OPERATION_ENGINE,
});
