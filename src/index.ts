/**
 * The Worker entry: the app built from the service's contract. Nothing else happens here.
 */
import { createApp } from "./app";
import { contract } from "./contract";

const app = createApp(contract);

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
