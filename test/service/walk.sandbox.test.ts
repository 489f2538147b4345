/**
 * The property-based walk (test/tools/walk.ts, fast-check seed 44) in the `sandbox`
 * setting, inside workerd, whose Durable Object the sandbox keeps its data in: every path
 * and method of each FIXTURE sandbox contract's served document, each answer held to it
 * (@cfworker/json-schema), in a sandbox of the walk's own (`Sandbox-Id`). The Node walk
 * (walk.slow.test.ts) covers the other settings.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/contract-language/contract";
import { UNHANDLED_VAR } from "../../src/engine/operations/unhandled-setting";
import {
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../fixtures/sandbox";
import { sandboxApp } from "../support/sandbox-app";
import { CLASSES, walk } from "../tools/walk";

const CONTRACTS: readonly [string, Contract][] = [
  ["FIXTURE sandbox pets", FIXTURE_SANDBOX_PETS_CONTRACT],
  ["FIXTURE sandbox shelves", FIXTURE_SANDBOX_SHELVES_CONTRACT],
];

describe("a property-based walk in the sandbox setting", () => {
  for (const [name, contract] of CONTRACTS)
    it(`finds no answer of any class ${name}'s document does not give`, async () => {
      const app = sandboxApp(contract);
      const sandbox = crypto.randomUUID();
      const bindings = { ...env, RESPONSE_VALIDATION: "log", [UNHANDLED_VAR]: "sandbox" };
      const { requests, found } = await walk((request) => {
        const headers = new Headers(request.headers);
        headers.set("sandbox-id", sandbox);
        return Promise.resolve(app.fetch(new Request(request, { headers }), bindings as Env));
      });
      console.log(
        `walk: ${name} (sandbox): ${requests} requests; ${CLASSES.map((c) => `${c} ${found[c].length}`).join(", ")}`,
      );
      expect(requests).toBeGreaterThan(20);
      expect(CLASSES.flatMap((c) => found[c].slice(0, 3).map((l) => `${c}: ${l}`))).toEqual([]);
    }, 60_000);
});
