/**
 * `npm run build:contract`: the build that `wrangler dev`, `wrangler deploy` and
 * `npm run build` run first (`[build]` in wrangler.toml); `npm run typecheck` and the test
 * configurations run it too. It checks the contract with every start-up check of the
 * platform and the engine, and refuses, with the same line `createApp` throws and exit
 * status 1, a contract that cannot work, so such a contract is never uploaded. Otherwise it
 * writes src/generated/ (gitignored): what the Worker serves as it is (the OpenAPI document
 * of each version, the status report and its page as far as the contract decides them, each
 * problem type's page) as static assets under src/generated/assets, outside the Worker's
 * script (`[assets]` in wrangler.toml), and in src/generated/contract.ts their entity tags,
 * the JSON Schemas the XML codec reads by and the engine features the contract needs, which
 * src/index.ts passes to `serveApp`. So the Worker ships neither zod's JSON Schema
 * converter nor the documenter, and computes nothing per isolate that the contract alone
 * decides. Run in Node; nothing the Worker loads imports it
 * (test/service/architecture.node.test.ts). When nothing it reads changed since a build of
 * its own that succeeded, it says so and writes nothing (./stamp.ts): `wrangler dev` runs it
 * twice as it starts.
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
