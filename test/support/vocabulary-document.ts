/**
 * The OpenAPI document a FIXTURE contract is served with, built in Node; with no handlers,
 * as a freshly imported contract has none (its operations are documented 501).
 */
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { Contract } from "../../src/contract-language/contract";
import { XML_CODEC } from "../../src/engine/xml/codec";
import { FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";

export async function servedDocument(contract: Contract): Promise<Record<string, unknown>> {
  const app = createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: z.toJSONSchema,
    xml: XML_CODEC,
  });
  const res = await app.request("https://fixture.test/_service/openapi.json");
  return (await res.json()) as Record<string, unknown>;
}

export const vocabularyDocument = () => servedDocument(FIXTURE_VOCABULARY_CONTRACT);
