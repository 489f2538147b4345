/**
 * A reference, not one of the compared variants: a bare Worker fetch handler that answers
 * the validated POST's request without validating anything, with this service's platform
 * headers (the same request id and OWASP set, from src/platform/security-headers.ts). No
 * framework and no validation can cost less, so its ratio to a peer is the most that any
 * variant sending these headers can reach. Anything else (the harness's `GET /` start-up
 * probe among them) is a bodiless 404, so no request makes it parse a body that is not there.
 */
import { requestIdFor } from "../../../../src/platform/request-id";
import { apiHeaders } from "../../../../src/platform/security-headers";
import { POST_PATH } from "../shared";

export default {
  async fetch(request: Request): Promise<Response> {
    const headers = apiHeaders(requestIdFor(request));
    if (request.method !== "POST" || new URL(request.url).pathname !== POST_PATH)
      return new Response(null, { status: 404, headers });
    const body = (await request.json()) as Record<string, unknown>;
    headers["content-type"] = "application/json";
    headers["cache-control"] = "no-store";
    return new Response(JSON.stringify({ id: "b1", ...body }), { status: 201, headers });
  },
};
