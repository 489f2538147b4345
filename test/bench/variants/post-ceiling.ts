/**
 * A reference, not one of the compared variants: a bare Worker fetch handler that answers
 * the validated POST's request without validating anything, with this service's platform
 * headers (the same request id and OWASP set, from src/http/security-headers.ts). No
 * framework and no validation can cost less, so its ratio to a peer is the most that any
 * variant sending these headers can reach.
 */
import { requestIdFor } from "../../../src/platform/request-id";
import { apiHeaders } from "../../../src/platform/security-headers";

export default {
  async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as Record<string, unknown>;
    const headers = apiHeaders(requestIdFor(request));
    headers["content-type"] = "application/json";
    headers["cache-control"] = "no-store";
    return new Response(JSON.stringify({ id: "b1", ...body }), { status: 201, headers });
  },
};
