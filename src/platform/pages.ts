/**
 * The HTML views of the platform's documents: the interface status report and the
 * problem-type pages. Rendered once, when the app is built.
 */
import { countOf, specPart } from "../contract-language/parts";
import { escapeHtml, htmlPage } from "./html";
import { rateLimitWording } from "./limit-wording";
import { SERVICE_PATHS } from "./paths";
import { type ProblemType, problemTypeUri } from "./problem";
import type { StatusReport } from "./status";

export function statusReportPage(
  report: StatusReport,
  problemTypes: readonly ProblemType[],
  /** HTML the engine renders for what the contract declares (part 3's diagrams). */
  declared = "",
): string {
  const rows = report.parts
    .map((part) => {
      const declared = escapeHtml(
        countOf(specPart(part.name), Object.values(part.declared)[0] ?? 0),
      );
      const status = part.specified
        ? '<span class="yes">specified</span>'
        : '<span class="no">not specified</span>';
      return `<tr><td class="num">${part.number}</td><td>${escapeHtml(part.title)} <code>${escapeHtml(part.name)}</code></td><td>${status}</td><td>${declared}</td><td><code>${escapeHtml(part.source)}</code></td></tr>`;
    })
    .join("\n");
  const defaults = report.platformDefaults
    .map(
      (d) =>
        `<tr><td><code>${escapeHtml(d.name)}</code></td><td class="num">${d.value} ${escapeHtml(d.unit)}</td><td>${escapeHtml(d.reason)}</td></tr>`,
    )
    .join("\n");
  const limits = report.limits.map((limit) => {
    const bound =
      limit.kind === "body-size"
        ? `at most ${limit.maxBytes} bytes per body`
        : limit.kind === "rate"
          ? rateLimitWording(limit)
          : `${limit.parameter} from ${limit.minimum} to ${limit.maximum}`;
    return `<tr><td><code>${escapeHtml(limit.name)}</code></td><td>${escapeHtml(limit.kind)}</td><td>${escapeHtml(bound)}</td><td>${limit.operations.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ")}</td></tr>`;
  });
  const limitsSection =
    limits.length === 0
      ? ""
      : `<h2>Limits (part 8)</h2>
<table>
<thead><tr><th>Name</th><th>Kind</th><th>Bound</th><th>Operations</th></tr></thead>
<tbody>
${limits.join("\n")}
</tbody>
</table>
`;
  const presented = report.errorModel.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.failure)}</code></td><td><code>${escapeHtml(p.errorType)}</code>${p.mediaType ? ` (${escapeHtml(p.mediaType)})` : ""}</td><td class="num">${p.status}</td><td><code>${escapeHtml(p.type)}</code></td><td>${p.operations ? p.operations.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ") : "every operation"}</td></tr>`,
  );
  const errorModelSection =
    presented.length === 0
      ? ""
      : `<h2>Error model (part 7)</h2>
<p>The platform's own failures, answered as the specification's error types.</p>
<table>
<thead><tr><th>Failure</th><th>Error type</th><th class="num">Status</th><th>Problem type</th><th>Operations</th></tr></thead>
<tbody>
${presented.join("\n")}
</tbody>
</table>
`;
  const events = report.events.map(
    (e) =>
      `<tr><td><code>${escapeHtml(e.name)}</code></td><td>${escapeHtml(e.summary ?? "")}</td><td class="num">${e.destinations}</td><td>${e.destinations > 0 ? '<span class="yes">sent</span>' : '<span class="no">not sent: no destination configured</span>'}</td></tr>`,
  );
  const eventsSection =
    events.length === 0
      ? ""
      : `<h2>Events (part 6)</h2>
<p>Delivered as signed webhooks (Standard Webhooks) to the destinations this deployment configures.</p>
<table>
<thead><tr><th>Event</th><th>Summary</th><th class="num">Destinations</th><th>Delivery</th></tr></thead>
<tbody>
${events.join("\n")}
</tbody>
</table>
`;
  const versions = report.versions.map(
    (v) =>
      `<tr><td><code>${escapeHtml(v.version)}</code>${v.current ? " (current)" : ""}</td><td>${escapeHtml(v.deprecated ?? "")}</td><td>${escapeHtml(v.sunset ?? "")}</td><td>${v.migration ? `<a href="${escapeHtml(v.migration)}">notes</a>` : ""}</td></tr>`,
  );
  const versionsSection =
    versions.length === 0
      ? ""
      : `<h2>Versions (part 9)</h2>
<table>
<thead><tr><th>Version</th><th>Deprecated</th><th>Sunset</th><th>Migration</th></tr></thead>
<tbody>
${versions.join("\n")}
</tbody>
</table>
`;
  const cors = report.cors;
  const corsSection = `<h2>Cross-origin requests (CORS)</h2>
<p>${
    cors.enabled
      ? `On for ${cors.origins.map((o) => `<code>${escapeHtml(o)}</code>`).join(", ")}, ${cors.credentials ? "with" : "without"} credentials; a preflight is kept ${cors.maxAgeSeconds ?? 0} s.`
      : cors.refused
        ? `Off: the deployment's setting was refused (${escapeHtml(cors.refused)}).`
        : "Off: this deployment allows no other origin, so browsers block cross-origin calls."
  } A setting of the deployment, not of the interface.</p>
`;
  const types = problemTypes
    .map(
      (t) =>
        `<li><a href="${escapeHtml(problemTypeUri(t))}">${escapeHtml(t.title)}</a> (${t.status})</li>`,
    )
    .join("\n");
  return htmlPage(
    "Interface status",
    `<p>${escapeHtml(report.description)}</p>
<p><strong>${report.specifiedParts} of ${report.totalParts}</strong> parts are specified.</p>
<table>
<thead><tr><th class="num">#</th><th>Part</th><th>Status</th><th>Declared</th><th>Declared in</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${declared}${limitsSection}${errorModelSection}${eventsSection}${versionsSection}${corsSection}<h2>Platform defaults</h2>
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
<p>This report as JSON: <code>GET ${SERVICE_PATHS.interface}</code> with <code>Accept: application/json</code>. OpenAPI: <a href="${SERVICE_PATHS.openapi}">${SERVICE_PATHS.openapi}</a>. Health: <a href="${SERVICE_PATHS.health}">${SERVICE_PATHS.health}</a>.</p>`,
  );
}

export function problemTypePage(type: ProblemType): string {
  const members = Object.entries(type.members)
    .map(
      ([name, meaning]) =>
        `<dt><code>${escapeHtml(name)}</code></dt><dd>${escapeHtml(meaning)}</dd>`,
    )
    .join("\n");
  // No heading over nothing: a type without extension members says so in one sentence.
  const membersSection =
    members === ""
      ? "<p>It has no members beyond type, title, status and detail.</p>"
      : `<h2>Members beyond type, title, status and detail</h2>\n<dl>\n${members}\n</dl>`;
  const description = type.description === "" ? "" : `<p>${escapeHtml(type.description)}</p>\n`;
  return htmlPage(
    type.title,
    `<p>Problem type <code>${escapeHtml(problemTypeUri(type))}</code>, answered with HTTP status <strong>${type.status}</strong> as an RFC 9457 problem document (<code>application/problem+json</code>).</p>
${description}${membersSection}
<p><a href="${SERVICE_PATHS.interface}">Interface status</a></p>`,
  );
}
