/**
 * A reference, not one of the compared variants: a bare Worker fetch handler that answers
 * the validated POST's request without validating anything, with this service's platform
 * headers made the way this service makes them (the same request id and OWASP set, copied
 * from the prebuilt `Headers` of their kind: src/platform/security-headers.ts
 * `platformAnswer`). No framework and no validation can cost less, so its ratio to a peer
 * is the most that any variant sending these headers can reach. Anything else (the
 * harness's `GET /` start-up probe among them) is a bodiless 404, so no request makes it
 * parse a body that is not there.
 */
import { requestIdFor } from "../../../../src/platform/request-id";
import { platformAnswer } from "../../../../src/platform/security-headers";
import { POST_PATH } from "../shared";

const CREATED = { contentType: "application/json", cacheControl: "no-store" };

export default {
  async fetch(request: Request): Promise<Response> {
    const requestId = requestIdFor(request);
    if (request.method !== "POST" || new URL(request.url).pathname !== POST_PATH)
      return platformAnswer(null, 404, requestId, {});
    const body = (await request.json()) as Record<string, unknown>;
    return platformAnswer(JSON.stringify({ id: "b1", ...body }), 201, requestId, CREATED);
  },
};
