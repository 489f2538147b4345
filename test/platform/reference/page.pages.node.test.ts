/**
 * The reference at any size (src/platform/reference/page.ts, `referenceBook`): one page
 * while it is small; above its budget an index whose contents list and search every
 * operation, and pages of operations, webhooks and schemas, none much over the budget,
 * each operation and schema on exactly one, and every link to an anchor naming the page
 * that holds it. Served at `/_service/reference/<n>` (404 in the platform's problem shape,
 * echoing nothing, for a page there is not); each operation of the API has a "Try it" form
 * (try.ts) whose fields are the document's parameters and credentials.
 */
import { describe, expect, it } from "vitest";
import type { Contract } from "../../../src/contract-language/contract";
import { defineContract } from "../../../src/contract-language/define-contract";
import { REFERENCE_PAGE_BYTES, referenceBook } from "../../../src/platform/reference/page";
import {
  FIXTURE_VOCABULARY_CONTRACT,
  FIXTURE_VOCABULARY_HANDLERS,
} from "../../fixtures/vocabulary";
import { assetsApp, inProcessApp } from "../../support/built-app";

const appOf = inProcessApp;

const vocabulary = appOf(FIXTURE_VOCABULARY_CONTRACT, FIXTURE_VOCABULARY_HANDLERS);
const documentOf = async (app: ReturnType<typeof appOf>) =>
  (await (await app.request("/_service/openapi.json")).json()) as Record<string, unknown>;
const bytes = (page: string) => new TextEncoder().encode(page).length;
const idsOf = (page: string) => [...page.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1] ?? "");

describe("the reference cut into pages above its budget", async () => {
  const document = await documentOf(vocabulary);
  const whole = referenceBook(document, { versions: [], shown: "" });
  const budget = 12_000;
  const book = referenceBook(document, { versions: [], shown: "" }, budget);
  const pages = [book.index, ...book.pages];
  const urlOf = (n: number) => (n === 0 ? "/_service/reference" : `/_service/reference/${n}`);

  it("is one page while it holds in the budget (the FIXTURE vocabulary does)", () => {
    expect(bytes(whole.index)).toBeLessThan(REFERENCE_PAGE_BYTES);
    expect(whole.pages).toEqual([]);
  });

  it("is an index and pages, none much over the budget", () => {
    expect(book.pages.length).toBeGreaterThan(2);
    const largestOperation = Math.max(
      ...[...whole.index.matchAll(/<section class="op"[\s\S]*?<\/section>/g)].map((m) =>
        bytes(m[0]),
      ),
    );
    for (const page of pages)
      expect(bytes(page)).toBeLessThanOrEqual(budget + largestOperation + 4_000);
  });

  it("holds each operation and schema section on exactly one page, as the whole page has it", () => {
    const sections = (page: string) =>
      [...page.matchAll(/<section class="(op|schema)" id="([^"]*)"/g)].map((m) => m[2]);
    const everywhere = pages.flatMap(sections);
    expect(new Set(everywhere).size).toBe(everywhere.length);
    expect(everywhere.sort()).toEqual(sections(whole.index).sort());
    // No id twice across the pages: a link to one names one page.
    const ids = pages.flatMap(idsOf);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("lists and searches every operation on the index, each linked to the page that holds it", () => {
    expect(book.index).toContain('id="reference-search"');
    const listed = [
      ...book.index.matchAll(/<li data-search="[^"]*"><a href="([^"#]*)#(op-[^"]*)"/g),
    ];
    // Every operation's section but the webhooks' (which the contents link as one entry).
    const sections = [...whole.index.matchAll(/<section class="op"/g)].length;
    const webhooks = [...whole.index.matchAll(/<div id="webhook-/g)].length;
    expect(webhooks).toBeGreaterThan(0);
    expect(listed.length).toBe(sections - webhooks);
    for (const [, url, anchor] of listed) {
      const n = pages.findIndex((page) => idsOf(page).includes(anchor ?? ""));
      expect(n, anchor).toBeGreaterThan(0);
      expect(url).toBe(urlOf(n));
    }
  });

  it("makes every link to an anchor name the page that holds it", () => {
    for (const [n, page] of pages.entries())
      for (const [, url, anchor] of page.matchAll(/href="([^"#]*)#([^"]*)"/g)) {
        const at = url === "" ? n : pages.findIndex((_, i) => urlOf(i) === url);
        expect(at, `${url}#${anchor} on page ${n}`).toBeGreaterThanOrEqual(0);
        expect(idsOf(pages[at] ?? ""), `${url}#${anchor} on page ${n}`).toContain(anchor);
      }
  });

  it("puts small groups on one page rather than a page each", async () => {
    const groups = (page: string) => [...page.matchAll(/class="tag-group" id=/g)].length;
    const all = groups(whole.index);
    expect(all).toBeGreaterThan(1);
    const roomy = referenceBook(
      document,
      { versions: [], shown: "" },
      Math.floor(bytes(whole.index) * 0.9),
    );
    expect(roomy.pages.length).toBeGreaterThan(0);
    expect(Math.max(...roomy.pages.map(groups))).toBe(all);
  });

  it("links each page to the index and to the pages either side of it", () => {
    for (const [i, page] of book.pages.entries()) {
      expect(page).toContain('<a href="/_service/reference">Contents and search</a>');
      if (i > 0) expect(page).toContain(`href="${urlOf(i)}" rel="prev"`);
      if (i < book.pages.length - 1) expect(page).toContain(`href="${urlOf(i + 2)}" rel="next"`);
    }
  });

  it("names a version's pages with the version", () => {
    const versioned = referenceBook(document, { versions: [], shown: "v2", version: "v2" }, budget);
    expect(versioned.index).toContain('href="/_service/reference/1?version=v2#');
  });
});

describe("Try it, beside each operation of the API", async () => {
  const page = await (await vocabulary.request("/_service/reference")).text();
  const formOf = (id: string) => {
    const start = page.indexOf(`<section class="op" id="op-${id}"`);
    return page.slice(
      page.indexOf('<details class="try"', start),
      page.indexOf("</details>", start),
    );
  };

  it("sends the operation's method and path, hidden until its script runs", () => {
    const form = formOf("fixtureGetPet");
    expect(form).toContain('<details class="try" hidden>');
    expect(form).toContain('data-method="GET" data-path="/fixture-pets/{petId}"');
    expect(form).toContain('name="path:petId"');
  });

  it("has a credential field for each scheme it takes that a page can send, none kept", () => {
    const form = formOf("fixtureGetPet");
    expect(form).toContain('data-how="bearer"');
    expect(form).toContain('data-how="header:X-Fixture-Rotated-Key"');
    expect(form.match(/type="password" name="credential" autocomplete="off"/g)).toHaveLength(4);
  });

  it("fills the body with the request's first example, in its media type", () => {
    const form = formOf("fixtureCreatePet");
    expect(form).toContain('data-type="application/json"');
    expect(form).toContain("&quot;name&quot;: &quot;Rex&quot;");
  });

  it("is not offered for a webhook, which this service sends rather than answers", () => {
    const start = page.indexOf('<section id="webhooks"');
    const hooks = page.slice(start, page.indexOf('<h2 id="security"', start));
    expect(hooks).toContain('<section class="op"');
    expect(hooks).not.toContain("try-form");
    expect(page.slice(0, start)).toContain("try-form");
  });
});

/** FIXTURE: a contract whose reference passes one page's budget (long descriptions). */
const FIXTURE_LARGE_CONTRACT = defineContract({
  purpose: { title: "Fixture large", summary: "A fixture service, for tests only." },
  operations: Object.fromEntries(
    Array.from({ length: 120 }, (_, i) => [
      `fixtureOperation${i}`,
      {
        method: "GET",
        path: `/fixture-things-${i}`,
        tags: [`fixtureGroup${i % 3}`],
        description: `FIXTURE: operation ${i}. ${"A long description for the size of the page. ".repeat(200)}`,
        responses: { 204: { description: "FIXTURE: done" } },
      },
    ]),
  ),
} as never) as Contract;

describe("a reference larger than a page, served", () => {
  it("serves its index and every page, in process and from the Worker's assets alike", async () => {
    const app = appOf(FIXTURE_LARGE_CONTRACT);
    const index = await app.request("/_service/reference");
    expect(index.status).toBe(200);
    const text = await index.text();
    expect(bytes(text)).toBeLessThan(REFERENCE_PAGE_BYTES);
    const deployed = await assetsApp(FIXTURE_LARGE_CONTRACT);
    const pages = Number(text.match(/on (\d+) pages/)?.[1] ?? 0) - 1;
    expect(pages).toBeGreaterThan(0);
    for (let n = 0; n <= pages; n++) {
      const path = n === 0 ? "/_service/reference" : `/_service/reference/${n}`;
      const made = await app.request(path);
      const served = await deployed.app.request(path, {}, deployed.env());
      expect(made.status, path).toBe(200);
      expect(bytes(await made.clone().text())).toBeLessThanOrEqual(REFERENCE_PAGE_BYTES * 1.1);
      expect(served.status, path).toBe(200);
      expect(served.headers.get("etag")).toBe(made.headers.get("etag"));
      expect(await served.text()).toBe(await made.text());
    }
  });

  it("goes on with a large group on the next page, under the same heading", async () => {
    const document = await documentOf(appOf(FIXTURE_LARGE_CONTRACT));
    const book = referenceBook(document, { versions: [], shown: "" });
    // One group of 120 operations, about 1.1 MB: two pages, the second continuing it.
    expect(book.pages).toHaveLength(2);
    expect(book.pages[0]).toContain('class="tag-group" id="tag-other"');
    expect(book.pages[1]).toContain('class="tag-group" id="tag-other-2"');
    expect(book.pages[1]).toContain("(continued)");
  });

  it("answers 404 in the platform's problem shape for a page there is not, echoing nothing", async () => {
    const app = appOf(FIXTURE_LARGE_CONTRACT);
    for (const asked of ["999", "0", "01", "abc<script>", "1e3"]) {
      const res = await app.request(`/_service/reference/${encodeURIComponent(asked)}`);
      expect(res.status, asked).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      // The request id aside, which is random: nothing of the path asked for comes back.
      const { requestId: _id, ...problem } = (await res.json()) as Record<string, unknown>;
      expect(problem).toMatchObject({ status: 404, title: "Not Found" });
      if (asked.length > 2) expect(JSON.stringify(problem)).not.toContain(asked);
    }
    // A small reference is one page: it continues on none.
    expect((await vocabulary.request("/_service/reference/1")).status).toBe(404);
  });
});
