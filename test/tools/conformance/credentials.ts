/**
 * How a request presents a credential of one security scheme (OpenAPI's Security Scheme
 * Object): an API key in its header, query parameter or cookie, a bearer token or basic
 * `user-id:password` in Authorization (RFC 6750 §2.1, RFC 7617 §2). Used by the checker's
 * valid requests, by the tests that give it the test runtime's secrets, and by
 * `npm run dev`'s local credentials. Runs in Node and workerd (btoa, no Buffer).
 */
import { AwsClient } from "aws4fetch";
import type { Contract, SecurityScheme } from "../../../src/contract-language/contract";
import type { Presented } from "./valid-request";

export type { Presented };

/** RFC 7617 §2: base64 of the UTF-8 bytes of `user-id:password`. */
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** A credential of `scheme` with value `value` (a token, a key, or `user-id:password`). */
export function presented(scheme: SecurityScheme, value: string): Presented {
  if (scheme.type === "apiKey") {
    if (scheme.in === "header") return { headers: { [scheme.name]: value }, query: {} };
    if (scheme.in === "query") return { headers: {}, query: { [scheme.name]: value } };
    return { headers: { cookie: `${scheme.name}=${value}` }, query: {} };
  }
  if (scheme.type === "http" && scheme.scheme === "basic")
    return { headers: { authorization: `Basic ${base64(value)}` }, query: {} };
  return { headers: { authorization: `Bearer ${value}` }, query: {} };
}

/**
 * A working credential for each AWS Signature Version 4 scheme of `contract`, from the access
 * keys a runtime holds (the first of the first secret): each request signed as an AWS SDK
 * signs it (aws4fetch), for any region and service, which the signature itself names.
 */
export function signedCredentials(
  contract: Contract,
  env: Readonly<Record<string, unknown>>,
): Record<string, Presented> {
  const credentials: Record<string, Presented> = {};
  for (const [name, scheme] of Object.entries(contract.securitySchemes)) {
    if (scheme.type !== "verified" || scheme.verifiedBy !== "aws-sigv4" || !scheme.accessKeys)
      continue;
    const first = typeof scheme.accessKeys === "string" ? scheme.accessKeys : scheme.accessKeys[0];
    const line = String(env[first] ?? "").split("\n")[0] ?? "";
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const client = new AwsClient({
      accessKeyId: line.slice(0, at),
      secretAccessKey: line.slice(at + 1),
      service: "execute-api",
      region: "us-east-1",
    });
    credentials[name] = { headers: {}, query: {}, sign: (request) => client.sign(request) };
  }
  return credentials;
}

/**
 * A working credential for each secret-compared scheme of `contract`, from the secrets a
 * runtime holds (the first set of each scheme's names); schemes without one are left out.
 */
export function secretCredentials(
  contract: Contract,
  env: Readonly<Record<string, unknown>>,
): Record<string, Presented> {
  const credentials: Record<string, Presented> = {};
  for (const [name, scheme] of Object.entries(contract.securitySchemes)) {
    if (!("secret" in scheme)) continue;
    const names = typeof scheme.secret === "string" ? [scheme.secret] : scheme.secret;
    const value = names.map((secret) => env[secret]).find((v) => typeof v === "string" && v !== "");
    if (typeof value === "string") credentials[name] = presented(scheme, value);
  }
  return credentials;
}
