/**
 * The app built from the FIXTURE security contract, called inside workerd with the test
 * runtime's bindings (the fixture secrets and rate limiters of test/vitest.config.ts).
 */
import { env } from "cloudflare:workers";
import { toJSONSchema } from "zod";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { FIXTURE_SECURITY_CONTRACT, FIXTURE_SECURITY_HANDLERS } from "../fixtures/security";

export const securityApp = () =>
  createApp(FIXTURE_SECURITY_CONTRACT, {
    engine: BUILD_ENGINE,
    handlers: FIXTURE_SECURITY_HANDLERS,
    jsonSchema: toJSONSchema,
  });

const app = securityApp();

export function callSecured(
  path: string,
  init?: RequestInit,
  bindings: object = env,
): Promise<Response> {
  return Promise.resolve(app.request(`https://fixture.test${path}`, init, bindings));
}

/** RFC 7617 §2: `Basic` then base64 of the UTF-8 bytes of user-id:password. */
export function basic(credentials: string): string {
  const bytes = new TextEncoder().encode(credentials);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** The body of a problem with its request id taken out, for byte-for-byte comparison. */
export async function withoutRequestId(res: Response): Promise<string> {
  const id = res.headers.get("x-request-id") ?? "";
  return (await res.text()).replaceAll(id, "<request-id>");
}
