/** Variant 3: Hono with its stock requestId and secureHeaders middleware, as a user would assemble it. */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { HEALTH_BODY, HEALTH_PATH, PLACEHOLDER_BODY } from "../shared";

const app = new Hono();
app.use(requestId());
app.use(secureHeaders());
app.get(HEALTH_PATH, (c) =>
  c.body(HEALTH_BODY, 200, { "content-type": "application/health+json" }),
);
app.all("*", (c) => c.body(PLACEHOLDER_BODY, 501, { "content-type": "application/problem+json" }));

export default app;
