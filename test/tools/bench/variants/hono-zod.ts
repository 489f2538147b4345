/** Variant 5a: a validated JSON POST, hand-written with Hono and zod's safeParse. */
import { Hono } from "hono";
import { z } from "zod";
import { POST_PATH } from "../shared";

const Item = z.object({ name: z.string().min(1).max(40), size: z.number().int().min(1) });
const app = new Hono();
app.post(POST_PATH, async (c) => {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return c.json({ title: "Malformed request" }, 400);
  }
  const parsed = Item.safeParse(body);
  if (!parsed.success)
    return c.json({ title: "Validation failed", issues: parsed.error.issues }, 422);
  return c.json({ id: "b1", ...parsed.data }, 201);
});

export default app;
