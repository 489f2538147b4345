/**
 * The API reference (`/_service/reference`, src/platform/reference): every operation of the
 * served document written out, by tag, with its parameters, body, examples, answers,
 * problems (each linked to its page, RFC 9457 §3.1.1), credentials, transition and
 * webhooks; part 3's machines drawn, part 9's versions each with its own page. What it must
 * hold is read from the same app's OpenAPI document, so the page cannot leave out what the
 * document says. Served under a CSP whose two scripts are allowed by hash (CSP Level 3), with
 * an entity tag (RFC 9110 §8.8.3); every value from the contract escaped (OWASP).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../../src/app";
import { BUILD_ENGINE } from "../../../src/build-engine";
import { defineContract } from "../../../src/contract-language/define-contract";
import {
  REFERENCE_CSP,
  SEARCH_SCRIPT,
  SEARCH_SCRIPT_HASH,
} from "../../../src/platform/reference/search";
import { TRY_SCRIPT, TRY_SCRIPT_HASH } from "../../../src/platform/reference/try";
import { FIXTURE_STATES_CONTRACT } from "../../fixtures/states";
import { FIXTURE_VERSIONS_CONTRACT, FIXTURE_VERSIONS_HANDLERS } from "../../fixtures/versions";
import { expectPlatformHeaders } from "../../support/assertions";
import { emptyApp } from "../../support/fixture-app";
import { vocabularyApp } from "../../support/vocabulary-app";

type App = ReturnType<typeof createApp>;
type Operation = {
  operationId: string;
  parameters?: { name?: string; $ref?: string }[];
  responses: Record<string, unknown>;
  "x-platform"?: unknown;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, unknown>;
  components: { securitySchemes?: Record<string, unknown>; schemas: Record<string, unknown> };
};

const get = (app: App, path: string, init?: RequestInit) =>
  Promise.resolve(app.request(`https://fixture.test${path}`, init, env));

async function pageAndDocument(app: App): Promise<{ page: string; document: Document }> {
  const res = await get(app, "/_service/reference");
  expect(res.status).toBe(200);
  return {
    page: await res.text(),
    document: (await (await get(app, "/_service/openapi.json")).json()) as Document,
  };
}

/** The page's section of an operation, from its anchor to the section's end. */
function sectionOf(page: string, id: string): string {
  const start = page.indexOf(`<section class="op" id="op-${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf("</section>", start));
}

describe("the reference page of the FIXTURE vocabulary app", () => {
  const app = vocabularyApp();

  it("is an HTML page under its own CSP, with the platform's headers and an entity tag", async () => {
    const res = await get(app, "/_service/reference");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(REFERENCE_CSP);
    expectPlatformHeaders(res, "html");
    const etag = res.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    // RFC 9110 §13.1.2: a client holding it gets 304.
    expect(
      (await get(app, "/_service/reference", { headers: { "if-none-match": etag } })).status,
    ).toBe(304);
  });

  it("runs exactly two scripts, the search and Try it, each allowed by its SHA-256 and nothing else", async () => {
    const { page } = await pageAndDocument(app);
    expect(page.match(/<script/g)).toHaveLength(2);
    const hashes: string[] = [];
    for (const [script, hash] of [
      [SEARCH_SCRIPT, SEARCH_SCRIPT_HASH],
      [TRY_SCRIPT, TRY_SCRIPT_HASH],
    ] as const) {
      expect(page).toContain(`<script>${script}</script>`);
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script));
      const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
      expect(hash).toBe(`sha256-${base64}`);
      hashes.push(`'${hash}'`);
    }
    expect(REFERENCE_CSP).toContain(`script-src ${hashes.join(" ")};`);
    // Try it reaches this origin only (CSP Level 3 §6.1.1); nothing else may be fetched.
    expect(REFERENCE_CSP).toContain("connect-src 'self';");
    expect(REFERENCE_CSP).toContain("default-src 'none';");
    expect(REFERENCE_CSP).not.toContain("unsafe");
  });

  it("shows every operation of the document with its parameters and every answer's status", async () => {
    const { page, document } = await pageAndDocument(app);
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item)) {
        if (method === "options") continue;
        // The platform's own endpoints are one line each; the document has them whole.
        if (operation["x-platform"] !== undefined || path.startsWith("/_service")) {
          expect(page).toContain(`<code>${path}</code>`);
          continue;
        }
        const section = sectionOf(page, operation.operationId);
        expect(section).toContain(`>${method.toUpperCase()}</span>`);
        expect(section).toContain(path.replaceAll("&", "&amp;"));
        for (const parameter of operation.parameters ?? [])
          if (parameter.name)
            expect(section, parameter.name).toContain(`<code>${parameter.name}</code>`);
        for (const status of Object.keys(operation.responses))
          expect(section, `${operation.operationId} ${status}`).toContain(
            `<strong>${status}</strong>`,
          );
      }
  });

  it("shows examples, credentials, problems linked to their pages, and part 7's error types", async () => {
    const { page } = await pageAndDocument(app);
    const create = sectionOf(page, "fixtureCreatePet");
    expect(create).toContain("&quot;name&quot;: &quot;Rex&quot;");
    expect(create).toContain('href="#security-fixtureOAuth"');
    expect(create).toContain("<code>pets:write</code>");
    expect(create).toContain('href="/_service/problems/validation-failed"');
    expect(create).toContain('href="/_service/problems/FixturePetTaken"');
    // Part 7's error types, each with its problem type URI and the failures it answers.
    expect(page).toMatch(
      /<tr id="error-FixtureInvalidInput">.*https:\/\/errors\.fixture\.test\/invalid-input.*<code>validation-failed<\/code>/,
    );
  });

  it("groups operations by tag, describes each security scheme, each webhook and each schema", async () => {
    const { page, document } = await pageAndDocument(app);
    expect(page).toContain('<h2 id="tag-0-title">fixturePets</h2>');
    for (const name of Object.keys(document.components.securitySchemes ?? {}))
      expect(page).toContain(`id="security-${name}"`);
    for (const name of Object.keys(document.webhooks ?? {}))
      expect(page).toContain(`id="webhook-${name}"`);
    for (const [name, schema] of Object.entries(document.components.schemas))
      if ((schema as { "x-platform"?: unknown })["x-platform"] === undefined)
        expect(page).toContain(`<h3><code>${name}</code></h3>`);
  });

  it("is linked from the interface page", async () => {
    const res = await get(app, "/_service/interface", { headers: { accept: "text/html" } });
    expect(await res.text()).toContain('<a href="/_service/reference">');
  });
});

describe("the reference of other contracts", () => {
  it("draws part 3's machines, and says what each transition does", async () => {
    const app = createApp(FIXTURE_STATES_CONTRACT, {
      engine: BUILD_ENGINE,
      jsonSchema: z.toJSONSchema,
    });
    const { page } = await pageAndDocument(app);
    expect(page).toContain('<section id="states">');
    expect(page).toMatch(/<svg [^>]*role="img" aria-label="State machine fixtureOrderLifecycle/);
    expect(sectionOf(page, "fixturePlaceOrder")).toContain(
      'Transition <code>place</code> of <a href="#states"><code>fixtureOrderLifecycle</code></a>: <code>draft</code> → <code>placed</code>',
    );
  });

  it("has a page per version of part 9, each linking the others; an unknown one is a 404 that does not echo it", async () => {
    const app = createApp(FIXTURE_VERSIONS_CONTRACT, {
      engine: BUILD_ENGINE,
      jsonSchema: z.toJSONSchema,
      handlers: FIXTURE_VERSIONS_HANDLERS,
    });
    const current = await (await get(app, "/_service/reference")).text();
    expect(current).toContain('href="/_service/reference?version=v1"');
    expect(current).toContain("<code>v2</code></a> (current) <strong>(this page)</strong>");
    expect(current).not.toContain("fixtureOldThing");
    const v1 = await get(app, "/_service/reference?version=v1");
    expect(v1.status).toBe(200);
    expect(await v1.text()).toContain("fixtureOldThing");
    const unknown = await get(app, "/_service/reference?version=v9%3Cb%3E");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain("v9");
  });

  it("says part 4 is not specified when the contract declares no operation", async () => {
    const page = await (await get(emptyApp(), "/_service/reference")).text();
    expect(page).toContain("part 4 of its specification (endpoints) is not specified");
    // Nothing to search: no field, no script.
    expect(page).not.toContain("<script");
    expect(page).not.toContain('id="reference-search"');
  });

  it("escapes what the contract says: no markup of a summary or description reaches the page", async () => {
    const hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    const contract = defineContract({
      purpose: { title: `FIXTURE ${hostile}`, description: hostile },
      operations: {
        fixtureHostile: {
          method: "GET",
          path: "/fixture-hostile",
          summary: hostile,
          description: hostile,
          responses: { 204: { description: hostile } },
        },
      },
    });
    const app = createApp(contract, { engine: BUILD_ENGINE });
    const page = await (await get(app, "/_service/reference")).text();
    expect(page).not.toContain("<img");
    expect(page).not.toContain("<script>alert");
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
