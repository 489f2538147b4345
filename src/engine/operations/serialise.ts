/**
 * A handler's result as an HTTP answer, with the platform's headers, which a handler
 * cannot replace (it may set its own Content-Security-Policy).
 */
import type { AnyResult } from "../../domain/handlers";
import { apiHeaders, complete } from "../../platform/security-headers";
import { isJsonMediaType } from "../validation/media-type";

const FORCED = new Set(["content-type", ...Object.keys(apiHeaders(""))]);
FORCED.delete("content-security-policy");

export function serialise(
  result: AnyResult,
  mediaType: string | undefined,
  requestId: string,
): Response {
  const headers = apiHeaders(requestId);
  // OWASP REST: an answer is not stored unless the handler says otherwise.
  headers["cache-control"] = "no-store";
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    const key = name.toLowerCase();
    if (!FORCED.has(key) && key !== "__proto__") headers[key] = value;
  }
  if (result.body === undefined)
    return complete(new Response(null, { status: result.status, headers }));
  const type = mediaType ?? "application/json";
  headers["content-type"] = type;
  const text = isJsonMediaType(type) ? JSON.stringify(result.body) : String(result.body);
  return complete(new Response(text, { status: result.status, headers }));
}
