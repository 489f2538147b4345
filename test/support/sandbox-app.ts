/**
 * Apps whose unhandled operations the sandbox answers (src/mocks/sandbox), for the sandbox
 * suites inside workerd, with the test runtime's SANDBOX binding (vitest.config.ts): each
 * request carries the deployment's setting `UNHANDLED_OPERATIONS = sandbox`, as a
 * deployment gives it. Each caller names a sandbox of its own with `Sandbox-Id`, so tests
 * share no data.
 */
import { env } from "cloudflare:workers";
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { Contract } from "../../src/contract-language/contract";
import type { AnyHandler } from "../../src/contract-language/define-handlers";
import { UNHANDLED_VAR } from "../../src/engine/operations/unhandled-setting";

/**
 * The app of `contract` with `own` handlers, every other operation answered as the
 * `sandbox` setting says (callerOf sends it): by the sandbox where it places it.
 */
export function sandboxApp(
  contract: Contract,
  own: Readonly<Record<string, AnyHandler>> = {},
): ReturnType<typeof createApp> {
  return createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: toJSONSchema,
    handlers: own,
  } as never);
}

export interface Caller {
  (
    path: string,
    init?: { method?: string; body?: unknown; type?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  readonly sandbox: string;
}

/** A caller with a sandbox of its own (`Sandbox-Id`), against `app`. */
export function callerOf(
  app: ReturnType<typeof createApp>,
  sandbox: string = crypto.randomUUID(),
  bindings: Readonly<Record<string, unknown>> = {},
): Caller {
  const call = (path: string, init: Parameters<Caller>[1] = {}) => {
    const headers: Record<string, string> = { "sandbox-id": sandbox, ...init.headers };
    if (init.body !== undefined) headers["content-type"] = init.type ?? "application/json";
    return Promise.resolve(
      app.request(
        `https://fixture.test${path}`,
        {
          method: init.method ?? "GET",
          headers,
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        },
        { ...env, RESPONSE_VALIDATION: "enforce", [UNHANDLED_VAR]: "sandbox", ...bindings },
      ),
    );
  };
  return Object.assign(call, { sandbox });
}
