/**
 * A reference, not one of the compared variants: @hono/zod-openapi with this service's
 * platform middleware (request id, OWASP headers). It shows what the platform's headers
 * alone cost a validated POST, over HTTP.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { platform } from "../../../src/http/platform";
import { POST_PATH } from "../shared";

const Item = z.object({ name: z.string().min(1).max(40), size: z.number().int().min(1) });
const Created = Item.extend({ id: z.string() });
const route = createRoute({
  method: "post",
  path: POST_PATH,
  request: { body: { content: { "application/json": { schema: Item } }, required: true } },
  responses: {
    201: { description: "Created", content: { "application/json": { schema: Created } } },
  },
});
const app = new OpenAPIHono();
// The platform middleware is typed for the service's AppEnv; its variables are its own.
app.use(platform() as unknown as Parameters<typeof app.use>[0]);
app.openapi(route, (c) => c.json({ id: "b1", ...c.req.valid("json") }, 201));

export default app;
