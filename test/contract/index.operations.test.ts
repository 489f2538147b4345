/**
 * A check of each operation the shipped contract declares, generated from the Worker's own
 * OpenAPI document when the suite starts: one test per operation, so the count grows with
 * the contract. Each sends a valid request (from the document's examples, or generated
 * from its schemas) with a working credential, then the probes that must fail (401, 415,
 * 400, 422, …), and holds every answer to what the document documents for the operation
 * (test/conformance). An operation no valid request can be written for is skipped with the
 * reason in its name: visible, never counted as passed.
 *
 * Credentials are those of the test runtime (test/vitest.config.ts): the secrets made for
 * this run, and tokens of an issuer made for this run whose key set the JWT schemes trust.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { contract as shipped } from "../../src/contract";
import { type Contract, jwtOf } from "../../src/contract-language/contract";
import { accessToken, type LocalIssuer } from "../support/issuer";
import {
  Budget,
  checkConformance,
  describeInstance,
  type Fetcher,
} from "../tools/conformance/checker";
import {
  type Presented,
  presented,
  secretCredentials,
  signedCredentials,
} from "../tools/conformance/credentials";
import { validRequest } from "../tools/conformance/valid-request";

const contract: Contract = shipped;
/**
 * While the contract declares no operation, a check of each one would pass on none: those
 * are skipped with the reason in their name (that the document then lists no operation is
 * held by test/engine/openapi/document.node.test.ts).
 */
const noOperations = Object.keys(contract.operations).length === 0;
const whileEmpty = (name: string) =>
  noOperations ? `${name} (skipped: the shipped contract declares no operations)` : name;
const BASE = "https://shipped.test";
const worker: Fetcher = (request) => exports.default.fetch(request);
const bindings = env as unknown as Record<string, unknown> & {
  TEST_ISSUER: string;
  TEST_OPAQUE_TOKEN: string;
};

/** A working credential of every scheme part 5 declares, from the test runtime. */
async function credentials(): Promise<Record<string, Presented>> {
  const all = {
    ...secretCredentials(contract, bindings),
    ...signedCredentials(contract, bindings),
  };
  const issuer = JSON.parse(bindings.TEST_ISSUER) as LocalIssuer;
  for (const [name, scheme] of Object.entries(contract.securitySchemes)) {
    // An introspection scheme trusts the run's one pinned opaque token.
    if ("introspection" in scheme) all[name] = presented(scheme, bindings.TEST_OPAQUE_TOKEN);
    const jwt = jwtOf(scheme);
    if (!jwt) continue;
    const scopes =
      scheme.type === "oauth2"
        ? Object.values(scheme.flows).flatMap((flow) => Object.keys(flow?.scopes ?? {}))
        : [];
    const token = await accessToken(issuer, {
      issuer: String(bindings[jwt.issuer]),
      audience: String(bindings[jwt.audience]),
      scopes,
    });
    all[name] = presented(scheme, token);
  }
  return all;
}

// Read and indexed once for the whole file: each operation's run reusing it keeps the file
// linear in the document's size (a run that read it again cost the whole document per
// operation: 197 operations and 1.6 MB made that most of the file's time).
const described = await describeInstance(BASE, worker);
if (!described) throw new Error("the shipped Worker's two documents cannot be read");
const document = described.openapi as Record<string, unknown> & {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
const report = described.report;
const given = await credentials();
// One budget for the whole file: probes of operations under one rate limit share it.
const budget = new Budget(report);

const operations = Object.entries(document.paths)
  .filter(([path]) => !path.startsWith("/_service"))
  .flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== "options")
      .map(([method, operation]) => ({
        path,
        method: method.toUpperCase(),
        id: operation.operationId,
      })),
  );

describe("every operation of the shipped contract", () => {
  it.skipIf(noOperations)(
    whileEmpty("is in the served document, and the document has no other"),
    () => {
      const served = operations.map((op) => op.id).sort();
      // With negotiated versions the document is the current version's: it may have fewer.
      const declared = Object.keys(contract.operations).sort();
      if (contract.versioning?.versions) expect(declared).toEqual(expect.arrayContaining(served));
      else expect(served).toEqual(declared);
    },
  );

  if (noOperations)
    it.skip(whileEmpty("routes, validates and answers as declared, each one"), () => {});

  for (const { path, method, id } of operations) {
    const name = `${method} ${path} (${id}): routes, validates and answers as declared`;
    const built = validRequest(document, path, method, given);
    if (!built.ok) {
      it.skip(`${name}; not probed: ${built.reason}`, () => {});
      continue;
    }
    it(name, async () => {
      const result = await checkConformance(BASE, {
        fetch: worker,
        credentials: given,
        operations: [id ?? ""],
        budget,
        described,
      });
      const failing = result.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
      expect(failing).toEqual([]);
      // Probes it could not send count as nothing: only a rate limit's budget may stop them.
      for (const { reason } of result.unprobed) expect(reason).toContain("rate limit");
      expect(result.checks.some((c) => c.name.includes("a valid request"))).toBe(true);
    });
  }
});
