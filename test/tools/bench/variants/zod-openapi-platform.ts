/**
 * A reference, not one of the compared variants: @hono/zod-openapi (variant 5b, unchanged)
 * with this service's platform middleware (request id, OWASP headers). It shows what the
 * platform's headers alone cost a validated POST, over HTTP.
 */
import { platform } from "../../../../src/platform/middleware";
import { zodOpenapiApp } from "./zod-openapi";

// The platform middleware is typed for the service's AppEnv; its variables are its own.
export default zodOpenapiApp((app) =>
  app.use(platform() as unknown as Parameters<typeof app.use>[0]),
);
