/**
 * The app built from the FIXTURE operations contract, and a way to call it inside workerd
 * with the test bindings (RESPONSE_VALIDATION = "enforce" unless a test says otherwise).
 */
import { env } from "cloudflare:workers";
import { toJSONSchema } from "zod";
import { type AppOptions, createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { Contract } from "../../src/contract-language/contract";
import { defineContract } from "../../src/contract-language/define-contract";
import { EMPTY_CONTRACT } from "../fixtures/contracts";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";

/** The app of a contract that declares nothing: every platform answer, no operation. */
export function emptyApp(options: { readonly fastPath?: boolean } = {}) {
  return createApp(EMPTY_CONTRACT, options);
}

type FixtureOptions = AppOptions<typeof FIXTURE_OPERATIONS_CONTRACT>;

export function fixtureApp(options: Partial<FixtureOptions> = {}) {
  return createApp(FIXTURE_OPERATIONS_CONTRACT, {
    engine: BUILD_ENGINE,
    handlers: FIXTURE_HANDLERS,
    jsonSchema: toJSONSchema,
    ...options,
  });
}

export function callFixture(
  path: string,
  init?: RequestInit,
  options?: { app?: ReturnType<typeof fixtureApp>; env?: Partial<Env> },
): Promise<Response> {
  const app = options?.app ?? fixtureApp();
  return Promise.resolve(
    app.request(`https://fixture.test${path}`, init, { ...env, ...options?.env }),
  );
}

export const json = (value: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(value),
});

/** A FIXTURE GET operation at `path` answering 200, with `extra` members. */
export const fixtureGet = (path: string, extra: object = {}) => ({
  method: "GET" as const,
  path,
  responses: { 200: { description: "fixture" } },
  ...extra,
});

/** Builds the app from a contract the compiler cannot vouch for (the start-up checks' tests). */
export const buildUnchecked = (parts: object, options: object = { engine: BUILD_ENGINE }) =>
  createApp(defineContract(parts) as Contract, options as AppOptions<Contract>);

/** The options of an app that documents its schemas: the engine and zod's converter. */
export const WITH_SCHEMAS = { engine: BUILD_ENGINE, jsonSchema: toJSONSchema };
