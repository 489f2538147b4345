/**
 * The HTML views of the platform's documents: the interface status report and the
 * problem-type pages. Rendered when the Worker is built (the report's two sections that
 * depend on the deployment, once per isolate), with the `html` tag, so every value a
 * contract or a deployment gives is escaped (OWASP XSS Prevention Cheat Sheet).
 */
import { countOf, specPart } from "../contract-language/parts";
import { html, htmlPage, htmlText, joinHtml, raw, type SafeHtml } from "./html";
import { rateLimitWording } from "./limit-wording";
import { SERVICE_PATHS } from "./paths";
import { type ProblemType, problemTypeUri } from "./problem";
import type { OperationStatus, StatusReport } from "./status";

const NOTHING = html``;

/** A table section of the report, or nothing when it has no rows. */
function tableSection(heading: SafeHtml, rows: readonly SafeHtml[]): SafeHtml {
  return rows.length === 0
    ? NOTHING
    : html`${heading}
<tbody>
${joinHtml(rows, "\n")}
</tbody>
</table>
`;
}

/** A list of ids, each as code. */
const codes = (ids: readonly string[]) =>
  joinHtml(
    ids.map((id) => html`<code>${id}</code>`),
    ", ",
  );

/**
 * A link only to an http(s) URL (OWASP XSS Prevention Cheat Sheet: a URL in `href` must be
 * of an allowed scheme, entity encoding alone does not make it safe); any other is shown.
 */
function link(url: string, text: string): SafeHtml {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}">${text}</a>` : html`<code>${url}</code>`;
}

function partsRows(report: StatusReport): SafeHtml {
  const rows = report.parts.map((part) => {
    const declared = countOf(specPart(part.name), Object.values(part.declared)[0] ?? 0);
    const status = part.specified
      ? html`<span class="yes">specified</span>`
      : html`<span class="no">not specified</span>`;
    return html`<tr><td class="num">${part.number}</td><td>${part.title} <code>${part.name}</code></td><td>${status}</td><td>${declared}</td><td><code>${part.source}</code></td></tr>`;
  });
  return joinHtml(rows, "\n");
}

function limitsSection(report: StatusReport): SafeHtml {
  const rows = report.limits.map((limit) => {
    const bound =
      limit.kind === "body-size"
        ? `at most ${limit.maxBytes} bytes per body`
        : limit.kind === "rate"
          ? rateLimitWording(limit)
          : `${limit.parameter} from ${limit.minimum} to ${limit.maximum}`;
    return html`<tr><td><code>${limit.name}</code></td><td>${limit.kind}</td><td>${bound}</td><td>${codes(limit.operations)}</td></tr>`;
  });
  return tableSection(
    html`<h2>Limits (part 8)</h2>
<table>
<thead><tr><th>Name</th><th>Kind</th><th>Bound</th><th>Operations</th></tr></thead>`,
    rows,
  );
}

function errorModelSection(report: StatusReport): SafeHtml {
  const rows = report.errorModel.map(
    (p) =>
      html`<tr><td><code>${p.failure}</code></td><td><code>${p.errorType}</code>${p.mediaType ? ` (${p.mediaType})` : ""}</td><td class="num">${p.status}</td><td><code>${p.type}</code></td><td>${p.operations ? codes(p.operations) : "every operation"}</td></tr>`,
  );
  return tableSection(
    html`<h2>Error model (part 7)</h2>
<p>The platform's own failures, answered as the specification's error types.</p>
<table>
<thead><tr><th>Failure</th><th>Error type</th><th class="num">Status</th><th>Problem type</th><th>Operations</th></tr></thead>`,
    rows,
  );
}

function eventsSection(report: StatusReport): SafeHtml {
  const rows = report.events.map(
    (e) =>
      html`<tr><td><code>${e.name}</code></td><td>${e.summary ?? ""}</td><td class="num">${e.destinations}</td><td>${e.destinations > 0 ? html`<span class="yes">sent</span>` : html`<span class="no">not sent: no destination configured</span>`}</td></tr>`,
  );
  return tableSection(
    html`<h2>Events (part 6)</h2>
<p>Delivered as signed webhooks (Standard Webhooks) to the destinations this deployment configures.</p>
<table>
<thead><tr><th>Event</th><th>Summary</th><th class="num">Destinations</th><th>Delivery</th></tr></thead>`,
    rows,
  );
}

/** What each way of answering means, for the operations table. */
const ANSWERED_BY = {
  handler: html`<span class="yes">handler</span>`,
  examples: html`<span class="no">examples</span>: made from the contract's examples`,
  sandbox: html`<span class="no">sandbox</span>: a store of its resources`,
  "501": html`<span class="no">501</span>: not implemented`,
} as const;

/** How one operation is answered; under the `sandbox` setting, where and why (or why not). */
function answeredBy(o: OperationStatus, setting: string): SafeHtml {
  if (o.answeredBy === "sandbox" && o.sandbox)
    return html`<span class="no">sandbox</span>: ${o.sandbox.place}, ${o.sandbox.why}`;
  if (setting === "sandbox" && o.answeredBy === "examples" && o.sandbox)
    return html`${ANSWERED_BY.examples} (not in the sandbox: ${o.sandbox.why})`;
  return ANSWERED_BY[o.answeredBy];
}

function operationsSection(report: StatusReport): SafeHtml {
  const rows = report.operations.map(
    (o) =>
      html`<tr><td><code>${o.id}</code></td><td>${o.method}</td><td><code>${o.path}</code></td><td>${answeredBy(o, report.unhandledOperations)}</td></tr>`,
  );
  return tableSection(
    html`<h2>Operations (part 4)</h2>
<p>How each is answered: by its handler, or, without one, as this deployment says (<code>${report.unhandledOperations}</code>). Answers not made by a handler carry <code>Answered-By</code>.</p>
<table>
<thead><tr><th>Operation</th><th>Method</th><th>Path</th><th>Answered by</th></tr></thead>`,
    rows,
  );
}

function versionsSection(report: StatusReport): SafeHtml {
  const rows = report.versions.map(
    (v) =>
      html`<tr><td><code>${v.version}</code>${v.current ? " (current)" : ""}</td><td>${v.deprecated ?? ""}</td><td>${v.sunset ?? ""}</td><td>${v.migration ? link(v.migration, "notes") : ""}</td></tr>`,
  );
  return tableSection(
    html`<h2>Versions (part 9)</h2>
<table>
<thead><tr><th>Version</th><th>Deprecated</th><th>Sunset</th><th>Migration</th></tr></thead>`,
    rows,
  );
}

function corsSection(report: StatusReport): SafeHtml {
  const cors = report.cors;
  const setting = cors.enabled
    ? html`On for ${codes(cors.origins)}, ${cors.credentials ? "with" : "without"} credentials; a preflight is kept ${cors.maxAgeSeconds ?? 0} s.`
    : cors.refused
      ? html`Off: the deployment's setting was refused (${cors.refused}).`
      : html`Off: this deployment allows no other origin, so browsers block cross-origin calls.`;
  return html`<h2>Cross-origin requests (CORS)</h2>
<p>${setting} A setting of the deployment, not of the interface.</p>
`;
}

/**
 * The report's page as far as the contract decides it, made when the Worker is built: the
 * markup before the operations and events sections, between them and the CORS section, and
 * after that. The sections between are the deployment's (how operations without a handler
 * answer, its destinations and CORS setting), filled in by `reportPage` in the Worker. The slots are comments no escaped value can contain.
 */
export type ReportTemplate = readonly [before: string, between: string, after: string];

const EVENTS_SLOT = "<!--deployment:events-->";
const CORS_SLOT = "<!--deployment:cors-->";

export function reportTemplate(
  report: StatusReport,
  problemTypes: readonly ProblemType[],
  /** Markup the engine renders for what the contract declares (part 3's diagrams). */
  declared: SafeHtml = NOTHING,
): ReportTemplate {
  const defaults = joinHtml(
    report.platformDefaults.map(
      (d) =>
        html`<tr><td><code>${d.name}</code></td><td class="num">${d.value} ${d.unit}</td><td>${d.reason}</td></tr>`,
    ),
    "\n",
  );
  const types = joinHtml(
    problemTypes.map(
      (t) => html`<li><a href="${problemTypeUri(t)}">${t.title}</a> (${t.status})</li>`,
    ),
    "\n",
  );
  const page = htmlPage(
    "Interface status",
    html`<p>${report.description}</p>
<p><strong>${report.specifiedParts} of ${report.totalParts}</strong> parts are specified.</p>
<table>
<thead><tr><th class="num">#</th><th>Part</th><th>Status</th><th>Declared</th><th>Declared in</th></tr></thead>
<tbody>
${partsRows(report)}
</tbody>
</table>
${declared}${limitsSection(report)}${errorModelSection(report)}${raw(EVENTS_SLOT)}${versionsSection(report)}${raw(CORS_SLOT)}<h2>Platform defaults</h2>
<p>Bounds the platform applies where the specification gives none. They are not limits of the service.</p>
<table>
<thead><tr><th>Name</th><th class="num">Value</th><th>Why</th></tr></thead>
<tbody>
${defaults}
</tbody>
</table>
<h2>Problem types</h2>
<ul>
${types}
</ul>
<p>This report as JSON: <code>GET ${SERVICE_PATHS.interface}</code> with <code>Accept: application/json</code>. The API reference: <a href="${SERVICE_PATHS.reference}">${SERVICE_PATHS.reference}</a>. OpenAPI: <a href="${SERVICE_PATHS.openapi}">${SERVICE_PATHS.openapi}</a>. Health: <a href="${SERVICE_PATHS.health}">${SERVICE_PATHS.health}</a>.</p>`,
  );
  const [before = "", rest = ""] = page.split(EVENTS_SLOT);
  const [between = "", after = ""] = rest.split(CORS_SLOT);
  return [before, between, after];
}

/** The report's page: its template, with the deployment's operations, events and CORS sections. */
export function reportPage(template: ReportTemplate, report: StatusReport): string {
  const [before, between, after] = template;
  const deployed = htmlText(html`${operationsSection(report)}${eventsSection(report)}`);
  return `${before}${deployed}${between}${htmlText(corsSection(report))}${after}`;
}

export function problemTypePage(type: ProblemType): string {
  const members = Object.entries(type.members).map(
    ([name, meaning]) => html`<dt><code>${name}</code></dt><dd>${meaning}</dd>`,
  );
  // No heading over nothing: a type without extension members says so in one sentence.
  const membersSection =
    members.length === 0
      ? html`<p>It has no members beyond type, title, status and detail.</p>`
      : html`<h2>Members beyond type, title, status and detail</h2>\n<dl>\n${joinHtml(members, "\n")}\n</dl>`;
  const description = type.description === "" ? NOTHING : html`<p>${type.description}</p>\n`;
  return htmlPage(
    type.title,
    html`<p>Problem type <code>${problemTypeUri(type)}</code>, answered with HTTP status <strong>${type.status}</strong> as an RFC 9457 problem document (<code>application/problem+json</code>).</p>
${description}${membersSection}
<p><a href="${SERVICE_PATHS.interface}">Interface status</a></p>`,
  );
}
