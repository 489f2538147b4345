/**
 * The API reference (`/_service/reference`): the OpenAPI document the build made, written
 * out for people. Every operation, grouped by tag, with its parameters, bodies, examples,
 * answers and problems, credentials, transition and webhooks; then the webhooks (part 6),
 * the security schemes (part 5), the state machines drawn (part 3), the versions (part 9)
 * and the schemas (part 2); the platform's own endpoints last, folded. Rendered when the
 * Worker is built (src/build), and kept among its static assets, out of its script, like
 * the OpenAPI document (src/build/generate.ts, `assetsOf`). It loads nothing from
 * elsewhere: one same-origin stylesheet, and an inline search script its CSP allows by
 * hash (search.ts). Every value the document gives is escaped (`html`).
 */
import { ERROR_TYPE, PLATFORM } from "../../contract-language/document-marks";
import { html, htmlText, joinHtml, raw, type SafeHtml } from "../html";
import { SERVICE_PATHS } from "../paths";
import { type Entry, entriesOf, operationSection, searchText } from "./entry";
import { operationAnchor, paragraphs } from "./operation";
import type { Json } from "./schema";
import { SEARCH_SCRIPT } from "./search";
import {
  errorsSection,
  introSection,
  machinesSection,
  type ReferenceVersion,
  SCHEMAS_HEAD,
  schemaSections,
  schemasSection,
  securitySection,
  versionsSection,
} from "./sections";
import { TRY_SCRIPT } from "./try";

export type { ReferenceVersion };

const NOTHING = html``;
/** Hidden until the search script shows it: without script, there is nothing to type into. */
const SEARCH_FIELD = html`<p class="search" hidden><label for="reference-search">Search the operations</label> <input id="reference-search" type="search" autocomplete="off"> <span id="reference-count" role="status"></span></p>`;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const objectOf = (value: unknown): Json => (isObject(value) ? value : {});
const text = (value: unknown): string => (typeof value === "string" ? value : "");

interface Group {
  readonly name: string;
  readonly anchor: string;
  readonly description: unknown;
  readonly entries: readonly Entry[];
}

/** The interface's operations by their first tag, in the document's order of tags; the platform's apart. */
function groupsOf(document: Json): { groups: Group[]; platform: Entry[] } {
  const tags = (Array.isArray(document.tags) ? document.tags : []).map(objectOf);
  const platformTags = new Set(
    tags.filter((t) => t[PLATFORM] !== undefined).map((t) => text(t.name)),
  );
  const entries = entriesOf(document);
  const isPlatform = (e: Entry) =>
    e.operation[PLATFORM] !== undefined ||
    (Array.isArray(e.operation.tags) && e.operation.tags.some((t) => platformTags.has(String(t))));
  const own = entries.filter((e) => !isPlatform(e));
  const firstTag = (e: Entry) =>
    Array.isArray(e.operation.tags) ? String(e.operation.tags[0] ?? "") : "";
  const groups: Group[] = tags
    .filter((t) => !platformTags.has(text(t.name)))
    .map((t, i) => ({
      name: text(t.name),
      anchor: `tag-${i}`,
      description: t.description,
      entries: own.filter((e) => firstTag(e) === text(t.name)),
    }))
    .filter((g) => g.entries.length > 0);
  const named = new Set(groups.map((g) => g.name));
  const rest = own.filter((e) => !named.has(firstTag(e)));
  if (rest.length > 0)
    groups.push({
      name: groups.length === 0 ? "Operations" : "Other operations",
      anchor: "tag-other",
      description: undefined,
      entries: rest,
    });
  return { groups, platform: entries.filter(isPlatform) };
}

function navigation(
  groups: readonly Group[],
  webhooks: readonly Entry[],
  document: Json,
): SafeHtml {
  const opLinks = (entries: readonly Entry[]) =>
    joinHtml(
      entries.map(
        (e) =>
          html`<li data-search="${searchText(e)}"><a href="#${operationAnchor(e.id)}"><span class="method method-${e.method.toLowerCase()}">${e.method}</span> <code>${e.path}</code></a></li>`,
      ),
      "",
    );
  const items = groups.map(
    (g) =>
      html`<li class="nav-group"><a href="#${g.anchor}">${g.name}</a><ul>${opLinks(g.entries)}</ul></li>`,
  );
  const components = objectOf(document.components);
  const more: SafeHtml[] = [];
  if (webhooks.length > 0) more.push(html`<li><a href="#webhooks">Webhooks</a></li>`);
  if (Object.keys(objectOf(components.securitySchemes)).length > 0)
    more.push(html`<li><a href="#security">Authentication</a></li>`);
  if (Object.values(objectOf(components.responses)).some((r) => isObject(objectOf(r)[ERROR_TYPE])))
    more.push(html`<li><a href="#errors">Errors</a></li>`);
  more.push(
    html`<li><a href="#schemas">Schemas</a></li>`,
    html`<li><a href="#platform">Platform endpoints</a></li>`,
  );
  return html`<nav aria-label="Contents"><h2>Contents</h2><ul>${joinHtml(items, "")}${joinHtml(more, "")}</ul></nav>`;
}

/** Part 6: each webhook, as the operation a receiver must answer. */
function webhooksOf(document: Json): Entry[] {
  return Object.entries(objectOf(document.webhooks)).flatMap(([name, item]) =>
    Object.entries(objectOf(item)).flatMap(([method, operation]) =>
      isObject(operation)
        ? [{ id: name, method: method.toUpperCase(), path: name, operation }]
        : [],
    ),
  );
}

/** A group of operations' heading, and its description on its first page only. */
function groupHead(g: Group, part: number): SafeHtml {
  const anchor = part === 1 ? g.anchor : `${g.anchor}-${part}`;
  return html`<h2 id="${anchor}-title">${g.name}${part === 1 ? NOTHING : html` <span class="subtitle">(continued)</span>`}</h2>
${part === 1 ? paragraphs(g.description) : NOTHING}`;
}

/** A group's section around its operations (`part` > 1 on a page that continues it). */
function groupSection(g: Group, part: number, operations: readonly SafeHtml[]): SafeHtml {
  const anchor = part === 1 ? g.anchor : `${g.anchor}-${part}`;
  return html`<section class="tag-group" id="${anchor}" aria-labelledby="${anchor}-title">
${groupHead(g, part)}${joinHtml(operations, "\n")}
</section>`;
}

const operationsOf = (g: Group, document: Json) =>
  g.entries.map((e) => operationSection(e, document, "h3", true));

function operationsSection(groups: readonly Group[], document: Json): SafeHtml {
  if (groups.length === 0)
    return html`<h2 id="operations">Operations</h2>
<p>The interface declares no operation yet: part 4 of its specification (endpoints) is not specified. <a href="${SERVICE_PATHS.interface}">The interface status</a> says which parts are.</p>`;
  return joinHtml(
    groups.map((g) => groupSection(g, 1, operationsOf(g, document))),
    "\n",
  );
}

/**
 * The platform's own endpoints, one line each: they are the same on every deployment, and
 * the OpenAPI document has them whole, so the page spends no bytes on their answers.
 */
function platformSection(platform: readonly Entry[]): SafeHtml {
  const rows = platform.map(
    (e) =>
      html`<tr><td><span class="method method-${e.method.toLowerCase()}">${e.method}</span></td><td>${e.path.includes("{") ? html`<code>${e.path}</code>` : html`<a href="${e.path}"><code>${e.path}</code></a>`}</td><td>${text(e.operation.summary)}</td></tr>`,
  );
  return html`<section id="platform"><h2>Platform endpoints</h2>
<p>Answered by the platform under <code>/_service</code>, whatever the interface declares, each with the platform's problems (RFC 9457); every path also answers <code>OPTIONS</code> with <code>Allow</code>. <a href="${SERVICE_PATHS.openapi}">The OpenAPI document</a> has their answers in full.</p>
<div class="scroll"><table>
<thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">What it answers</th></tr></thead>
<tbody>${joinHtml(rows, "\n")}</tbody>
</table></div>
</section>`;
}

interface ReferenceOptions {
  /** Part 9's versions, as the status report lists them; empty when none is negotiated. */
  readonly versions: readonly ReferenceVersion[];
  /** The version this page shows. */
  readonly shown: string;
}

/** What every page of a document's reference is made of, rendered once. */
interface Parts {
  readonly title: string;
  readonly groups: readonly Group[];
  readonly platform: readonly Entry[];
  readonly webhooks: readonly Entry[];
  readonly hooks: SafeHtml;
}

function partsOf(document: Json): Parts {
  const { groups, platform } = groupsOf(document);
  const webhooks = webhooksOf(document);
  const hooks =
    webhooks.length === 0
      ? NOTHING
      : html`<section id="webhooks"><h2>Webhooks (part 6)</h2>
<p>Requests this service sends to the receivers a deployment configures, signed as Standard Webhooks says; a receiver answers as each says.</p>
${joinHtml(
  webhooks.map((e) => html`<div id="webhook-${e.id}">${operationSection(e, document)}</div>`),
  "\n",
)}</section>`;
  return {
    title: text(objectOf(document.info).title) || "API",
    groups,
    platform,
    webhooks,
    hooks,
  };
}

/** A page of the reference: its head, body and the scripts it runs (search, "Try it"). */
function pageOf(
  title: string,
  body: SafeHtml,
  scripts: { search: boolean; tried: boolean; continued?: boolean },
) {
  return htmlText(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${SERVICE_PATHS.stylesheet}">
</head>
<body class="reference${scripts.continued ? " continued" : ""}">
${body}
${scripts.search ? html`<script>${raw(SEARCH_SCRIPT)}</script>` : NOTHING}${scripts.tried ? html`<script>${raw(TRY_SCRIPT)}</script>` : NOTHING}
</body>
</html>
`);
}

const FOOTER = html`<footer><p>This page is written from <a href="${SERVICE_PATHS.openapi}">the OpenAPI document</a>. <a href="${SERVICE_PATHS.interface}">Interface status</a>.</p></footer>`;

/** The reference page of `document`, whole. */
function referencePage(document: Json, options: ReferenceOptions): string {
  const { title, groups, platform, webhooks, hooks } = partsOf(document);
  // Nothing to search while part 4 declares no operation: no field, no script.
  const searchable = groups.length > 0;
  return pageOf(
    `${title}: API reference`,
    html`<header>
<h1>${title} <span class="subtitle">API reference</span></h1>
${introSection(document)}
</header>
${navigation(groups, webhooks, document)}
<main>
${searchable ? SEARCH_FIELD : NOTHING}
${operationsSection(groups, document)}
${hooks}${securitySection(document)}${errorsSection(document)}${machinesSection(document)}${versionsSection(options.versions, options.shown)}${schemasSection(document)}
${platformSection(platform)}
</main>
${FOOTER}`,
    { search: searchable, tried: searchable },
  );
}

/** The reference of a document: its first page, and the pages it continues on (none when one holds it). */
interface ReferenceBook {
  readonly index: string;
  readonly pages: readonly string[];
}

/**
 * Below this, the reference is one page; above, an index and pages of about this size, so
 * a browser opens any of them at once (Chromium's parser takes a 17 MB page in seconds).
 */
export const REFERENCE_PAGE_BYTES = 1_000_000;

const byteLength = (value: string) => new TextEncoder().encode(value).length;

/** One section of a page, with the run it belongs to (a group, the webhooks, the schemas). */
interface Piece {
  readonly run: string;
  readonly item: SafeHtml;
  /** The run's wrapper around its sections on one page; `part` counts the run's pages from 1. */
  readonly wrap: (part: number, items: readonly SafeHtml[]) => SafeHtml;
}

/**
 * Pages of `pieces` in order, each filled up to about `budget` bytes: small groups share a
 * page, a large one goes on over several, each page's runs wrapped as their own.
 */
function paginate(
  pieces: readonly Piece[],
  budget: number,
  tried: boolean,
): { name: string; body: SafeHtml; tried: boolean }[] {
  const pages: { name: string; body: SafeHtml; tried: boolean }[] = [];
  const parts = new Map<string, number>();
  let taken: Piece[] = [];
  let size = 0;
  const flush = () => {
    const runs: Piece[][] = [];
    for (const piece of taken) {
      const last = runs.at(-1);
      if (last?.[0]?.run === piece.run) last.push(piece);
      else runs.push([piece]);
    }
    const bodies = runs.map((run) => {
      const first = run[0] as Piece;
      const part = (parts.get(first.run) ?? 0) + 1;
      parts.set(first.run, part);
      return first.wrap(
        part,
        run.map((p) => p.item),
      );
    });
    const names = runs.map((run) => run[0]?.run ?? "");
    const name = names.length > 3 ? `${names[0]} to ${names.at(-1)}` : names.join(", ");
    pages.push({ name, body: joinHtml(bodies, "\n"), tried });
    taken = [];
    size = 0;
  };
  for (const piece of pieces) {
    const bytes = byteLength(htmlText(piece.item));
    if (taken.length > 0 && size + bytes > budget * 0.9) flush();
    taken.push(piece);
    size += bytes;
  }
  if (taken.length > 0) flush();
  return pages;
}

/**
 * The reference of `document`: one page while it holds in `budget` bytes; else an index
 * (contents of every operation, searchable, linking to their pages; authentication,
 * errors, states, versions and the platform's endpoints) and pages of operations, by
 * group, then of webhooks and of schemas, each about `budget` bytes. Every link to an
 * anchor of another page names that page.
 */
export function referenceBook(
  document: Json,
  options: ReferenceOptions & { readonly version?: string },
  budget = REFERENCE_PAGE_BYTES,
): ReferenceBook {
  // The sections, each rendered once: a large document's are not rendered again for pages.
  const { title, groups, platform, webhooks, hooks } = partsOf(document);
  const operations = groups.flatMap((g) =>
    operationsOf(g, document).map((item) => ({
      run: g.name,
      item,
      wrap: (part: number, items: readonly SafeHtml[]) => groupSection(g, part, items),
    })),
  );
  const sized = operations.reduce((sum, { item }) => sum + byteLength(htmlText(item)), 0);
  if (sized <= budget) {
    const whole = referencePage(document, options);
    if (byteLength(whole) <= budget) return { index: whole, pages: [] };
  }
  const query =
    options.version === undefined ? "" : `?version=${encodeURIComponent(options.version)}`;
  const urlOf = (n: number) => `${SERVICE_PATHS.reference}${n === 0 ? "" : `/${n}`}${query}`;
  // Each page's content: sections cut where the next would pass the budget.
  const bodies = [
    ...paginate(operations, budget, true),
    ...paginate(
      webhooks.length > 0
        ? [
            {
              run: "Webhooks",
              item: hooks,
              wrap: (_: number, items: readonly SafeHtml[]) => joinHtml(items, ""),
            },
          ]
        : [],
      budget,
      false,
    ),
    ...paginate(
      schemaSections(document).map((item) => ({
        run: "Schemas",
        item,
        wrap: (part: number, items: readonly SafeHtml[]) =>
          html`${part === 1 ? SCHEMAS_HEAD : html`<h2>Schemas (continued)</h2>`}
${joinHtml(items, "\n")}`,
      })),
      budget,
      false,
    ),
  ];
  const index = html`<header>
<h1>${title} <span class="subtitle">API reference</span></h1>
${introSection(document)}
<p>The reference is on ${bodies.length + 1} pages: this one lists every operation (search them here) and the rest link from it.</p>
</header>
${navigation(groups, webhooks, document)}
<main>
${SEARCH_FIELD}
${securitySection(document)}${errorsSection(document)}${machinesSection(document)}${versionsSection(options.versions, options.shown)}
${platformSection(platform)}
</main>
${FOOTER}`;
  const pages = [
    pageOf(`${title}: API reference`, index, { search: groups.length > 0, tried: false }),
    ...bodies.map(({ name, body, tried }, i) => {
      const n = i + 1;
      const pager = html`<nav class="pager" aria-label="Pages"><a href="${urlOf(0)}">Contents and search</a>${n > 1 ? html` · <a href="${urlOf(n - 1)}" rel="prev">Previous page</a>` : NOTHING}${n < bodies.length ? html` · <a href="${urlOf(n + 1)}" rel="next">Next page</a>` : NOTHING}</nav>`;
      return pageOf(
        `${title}: ${name} (page ${n + 1} of ${bodies.length + 1})`,
        html`<header>
<p class="subtitle">${title}: API reference, page ${n + 1} of ${bodies.length + 1}</p>
${pager}
</header>
<main>
${body}
</main>
${FOOTER}`,
        { search: false, tried, continued: true },
      );
    }),
  ];
  const linked = linkedAcross(pages, urlOf);
  return { index: linked[0] ?? "", pages: linked.slice(1) };
}

/** Each page with its links to another page's anchor made to name that page. */
function linkedAcross(pages: readonly string[], urlOf: (n: number) => string): string[] {
  const home = new Map<string, number>();
  for (const [n, page] of pages.entries())
    for (const [, id] of page.matchAll(/\sid="([^"]*)"/g))
      if (id !== undefined && !home.has(id)) home.set(id, n);
  return pages.map((page, n) =>
    page.replace(/href="#([^"]*)"/g, (link, id: string) => {
      const at = home.get(id);
      return at === undefined || at === n ? link : `href="${urlOf(at)}#${id}"`;
    }),
  );
}
