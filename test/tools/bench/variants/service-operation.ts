/** Variant 5d: this service with a FIXTURE operation declaring the same validated POST. */
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../../../src/app";
import { OPERATION_ENGINE } from "../../../../src/engine";
import { BENCH_FIXTURE_CONTRACT, BENCH_FIXTURE_HANDLERS } from "../fixture-operation";

export default createApp(BENCH_FIXTURE_CONTRACT, {
  handlers: BENCH_FIXTURE_HANDLERS,
  jsonSchema: toJSONSchema,
  engine: OPERATION_ENGINE,
});
