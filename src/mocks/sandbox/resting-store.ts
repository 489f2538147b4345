/**
 * The sandbox's Durable Object class as a Worker exports it when nothing in it reads the
 * store: no handler is attached and the deployment answers operations without one by 501
 * (src/engine/features.ts, `store`). wrangler.toml still binds the class, and a bound class is
 * kept rather than removed: removing it takes a `deleted_classes` migration, which deletes
 * the records a sandbox deployment stored. Nothing calls it; a build with the store exports
 * ./durable-object.ts's class under the same name, over the same records.
 */
import { DurableObject } from "cloudflare:workers";

export class SandboxStore extends DurableObject {}
