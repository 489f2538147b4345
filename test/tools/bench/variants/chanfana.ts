/** Variant 5c: the same validated POST with chanfana on Hono. */
import { contentJson, fromHono, OpenAPIRoute } from "chanfana";
import { Hono } from "hono";
import { z } from "zod";
import { POST_PATH } from "../shared";

const Item = z.object({ name: z.string().min(1).max(40), size: z.number().int().min(1) });

class CreateItem extends OpenAPIRoute {
  override schema = {
    request: { body: contentJson(Item) },
    responses: { "201": { description: "Created" } },
  };
  override async handle() {
    const data = await this.getValidatedData<typeof this.schema>();
    return Response.json({ id: "b1", ...data.body }, { status: 201 });
  }
}

const app = new Hono();
const openapi = fromHono(app);
openapi.post(POST_PATH, CreateItem);

export default app;
