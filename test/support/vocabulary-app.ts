/**
 * The app built from the FIXTURE vocabulary contract, called inside workerd with the test
 * runtime's bindings (its JWT vars and rotated secrets are given in test/vitest.config.ts).
 */
import { env } from "cloudflare:workers";
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../src/app";
import { OPERATION_ENGINE } from "../../src/engine";
import { JWT_VERIFIER } from "../../src/engine/jwt";
import { FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS } from "../fixtures/vocabulary";

export const vocabularyApp = () =>
  createApp(FIXTURE_VOCABULARY_CONTRACT, {
    engine: OPERATION_ENGINE,
    jwt: JWT_VERIFIER,
    handlers: FIXTURE_VOCABULARY_HANDLERS,
    jsonSchema: toJSONSchema,
  });

const app = vocabularyApp();

/** Calls the vocabulary app; `bindings` are added to (or replace) the test runtime's. */
export function callVocabulary(
  path: string,
  init?: RequestInit,
  bindings: Readonly<Record<string, unknown>> = {},
): Promise<Response> {
  return Promise.resolve(
    app.fetch(new Request(`https://fixture.test${path}`, init), { ...env, ...bindings } as Env),
  );
}

/** A request that passes the rotated API key. */
export const withKey = (key: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: {
    ...(init.headers as Record<string, string> | undefined),
    "x-fixture-rotated-key": key,
  },
});
