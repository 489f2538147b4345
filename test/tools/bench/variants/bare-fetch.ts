/** Variant 1, the baseline: a bare Worker fetch handler, the limit of what a Worker can do. */
import { HEALTH_BODY, HEALTH_PATH, PLACEHOLDER_BODY } from "../shared";

export default {
  fetch(request: Request): Response {
    if (new URL(request.url).pathname === HEALTH_PATH) {
      return new Response(HEALTH_BODY, { headers: { "content-type": "application/health+json" } });
    }
    return new Response(PLACEHOLDER_BODY, {
      status: 501,
      headers: { "content-type": "application/problem+json" },
    });
  },
};
