/**
 * The app built from the FIXTURE vocabulary contract, called inside workerd with the test
 * runtime's bindings (its JWT vars and rotated secrets are given in test/vitest.config.ts).
 */
import { env } from "cloudflare:workers";
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { JwtVerifier } from "../../src/engine/authentication/verify-jwt";
import { XML_CODEC } from "../../src/engine/xml/codec";
import { FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS } from "../fixtures/vocabulary";
import { engineWithJwt } from "./engine-with-jwt";

/** The app of the vocabulary contract, or of a variant of it (`contract`), or another verifier. */
export const vocabularyApp = (
  contract: typeof FIXTURE_VOCABULARY_CONTRACT = FIXTURE_VOCABULARY_CONTRACT,
  jwt?: JwtVerifier,
) =>
  createApp(contract, {
    engine: jwt ? engineWithJwt(jwt) : BUILD_ENGINE,
    xml: XML_CODEC,
    handlers: FIXTURE_VOCABULARY_HANDLERS,
    jsonSchema: toJSONSchema,
  });

const vocabulary = vocabularyApp();

/**
 * Calls the vocabulary app (or `options.app`); `bindings` are added to (or replace) the
 * test runtime's; `options.ctx` is the invocation's `ExecutionContext`, when a test needs one.
 */
export function callVocabulary(
  path: string,
  init?: RequestInit,
  bindings: Readonly<Record<string, unknown>> = {},
  options: { app?: ReturnType<typeof vocabularyApp>; ctx?: ExecutionContext } = {},
): Promise<Response> {
  const app = options.app ?? vocabulary;
  return Promise.resolve(
    app.fetch(
      new Request(`https://fixture.test${path}`, init),
      { ...env, ...bindings } as Env,
      options.ctx,
    ),
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
