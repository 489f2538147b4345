/**
 * The app built from the FIXTURE operations contract, and a way to call it inside workerd
 * with the test bindings (RESPONSE_VALIDATION = "enforce" unless a test says otherwise).
 */
import { env } from "cloudflare:workers";
import { toJSONSchema } from "zod";
import { type AppOptions, createApp } from "../../src/app";
import { OPERATION_ENGINE } from "../../src/engine";
import { EMPTY_CONTRACT } from "../fixtures/contracts";
import { FIXTURE_HANDLERS, FIXTURE_OPERATIONS_CONTRACT } from "../fixtures/operations";

/** The app of a contract that declares nothing: every platform answer, no operation. */
export function emptyApp(options: { readonly fastPath?: boolean } = {}) {
  return createApp(EMPTY_CONTRACT, options);
}

type FixtureOptions = AppOptions<typeof FIXTURE_OPERATIONS_CONTRACT>;

export function fixtureApp(options: Partial<FixtureOptions> = {}) {
  return createApp(FIXTURE_OPERATIONS_CONTRACT, {
    engine: OPERATION_ENGINE,
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
