/** Variant 5b: the same validated POST with @hono/zod-openapi. */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
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

/** The app; `before` may add middleware ahead of the route (the same-headers reference does). */
export function zodOpenapiApp(before?: (app: OpenAPIHono) => void): OpenAPIHono {
  const app = new OpenAPIHono();
  before?.(app);
  app.openapi(route, (c) => c.json({ id: "b1", ...c.req.valid("json") }, 201));
  return app;
}

export default zodOpenapiApp();
