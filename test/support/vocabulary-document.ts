/**
 * The OpenAPI document the FIXTURE vocabulary contract is served with, built in Node; with
 * no handlers, as a freshly imported contract has none (its operations are documented 501).
 */
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { OPERATION_ENGINE } from "../../src/engine";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";

export async function vocabularyDocument(): Promise<Record<string, unknown>> {
  const app = createApp(FIXTURE_VOCABULARY_CONTRACT, {
    engine: OPERATION_ENGINE,
    jsonSchema: z.toJSONSchema,
  });
  const res = await app.request("https://fixture.test/_service/openapi.json");
  return (await res.json()) as Record<string, unknown>;
}
