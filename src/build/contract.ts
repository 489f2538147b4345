/**
 * `npm run build:contract`: the build that `wrangler dev`, `wrangler deploy` and
 * `npm run build` run first (`[build]` in wrangler.toml), as do `npm run typecheck` and the
 * test configurations. It runs every start-up check of the platform and the engine, and
 * refuses a contract that cannot work, so such a contract is never uploaded; otherwise it
 * writes src/generated/ (gitignored), so the Worker computes nothing per isolate that the
 * contract alone decides. Run in Node; nothing the Worker loads imports it
 * (test/service/architecture.node.test.ts). What it checks and writes: src/engine/README.md,
 * "Refused when the Worker is built" and "What the build writes".
 */
import { fileURLToPath } from "node:url";
import { inputsDigest, stamp, unchanged } from "./stamp";
import {
  buildContract,
  built,
  BUILD_STAMP as STAMP,
  tenancyRefusal,
  unhandledAnswersWanted,
  uploadRefusal,
} from "./write";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

// `wrangler types` runs the build only to read the entry's exports: what an earlier build
// wrote serves, and a refusal is the typecheck's and the tests' to report, not the types'.
const forTypes = process.env.WRANGLER_COMMAND === "types";
const refused = uploadRefusal() ?? tenancyRefusal();
if (refused) {
  console.error(refused);
  process.exit(1);
}
const digest = inputsDigest(ROOT, unhandledAnswersWanted());
if (built() && unchanged(STAMP, digest))
  console.log("build: nothing it reads changed since the last build; what it wrote stands");
else if (!(forTypes && built())) {
  try {
    await buildContract();
    stamp(STAMP, digest);
  } catch (error) {
    console.error((error as Error).message);
    if (!forTypes) process.exit(1);
  }
}
