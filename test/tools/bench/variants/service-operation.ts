/** Variant 5d: this service with a FIXTURE operation declaring the same validated POST. */
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../../../src/app";
import { BUILD_ENGINE } from "../../../../src/build-engine";
import { BENCH_FIXTURE_CONTRACT, BENCH_FIXTURE_HANDLERS } from "../fixture-operation";

export default createApp(BENCH_FIXTURE_CONTRACT, {
  handlers: BENCH_FIXTURE_HANDLERS,
  jsonSchema: toJSONSchema,
  engine: BUILD_ENGINE,
});
