/** Variant 2: bare Hono with the same routes. */
import { Hono } from "hono";
import { HEALTH_BODY, HEALTH_PATH, PLACEHOLDER_BODY } from "../shared";

const app = new Hono();
app.get(HEALTH_PATH, (c) =>
  c.body(HEALTH_BODY, 200, { "content-type": "application/health+json" }),
);
app.all("*", (c) => c.body(PLACEHOLDER_BODY, 501, { "content-type": "application/problem+json" }));

export default app;
