/**
 * The parts of the reference page that are not one operation: what the service is (OpenAPI's
 * `info`, `servers`), its security schemes (part 5), its state machines (part 3, drawn),
 * its versions (part 9) and its schemas (part 2), each with an anchor the operations link to.
 */
import type { StateMachine } from "../../contract-language/contract";
import { ERROR_TYPE, PLATFORM, STATE_MACHINES } from "../../contract-language/document-marks";
import { html, joinHtml, type SafeHtml } from "../html";
import { SERVICE_PATHS } from "../paths";
import { statesSection } from "../state-diagram";
import { paragraphs } from "./operation";
import { type Json, schemaAnchor, schemaView } from "./schema";

const NOTHING = html``;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const objectOf = (value: unknown): Json => (isObject(value) ? value : {});
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** A link only to an http(s) URL (OWASP XSS Prevention: a URL in `href` must be of an allowed scheme). */
export function link(url: unknown, label: string): SafeHtml {
  const target = text(url);
  return /^https?:\/\//i.test(target)
    ? html`<a href="${target}">${label}</a>`
    : html`<code>${target}</code>`;
}

/** OpenAPI's `info`, `servers` and `externalDocs`. */
export function introSection(document: Json): SafeHtml {
  const info = objectOf(document.info);
  const contact = objectOf(info.contact);
  const license = objectOf(info.license);
  const facts: SafeHtml[] = [html`Version <code>${text(info.version)}</code>`];
  if (contact.name || contact.email || contact.url)
    facts.push(
      html`Contact: ${text(contact.name)}${contact.email ? html` <code>${text(contact.email)}</code>` : NOTHING}${contact.url ? html` ${link(contact.url, "site")}` : NOTHING}`,
    );
  if (license.name) facts.push(html`License: ${text(license.name)}`);
  if (info.termsOfService) facts.push(link(info.termsOfService, "Terms of service"));
  const docs = objectOf(document.externalDocs);
  if (docs.url) facts.push(link(docs.url, text(docs.description) || "More documentation"));
  const servers = (Array.isArray(document.servers) ? document.servers : []).map(
    (server) =>
      html`<li><code>${text(objectOf(server).url)}</code> ${text(objectOf(server).description)}</li>`,
  );
  return html`${paragraphs(info.summary, "lead")}${paragraphs(info.description)}
<p>${joinHtml(facts, " · ")}</p>
${servers.length > 0 ? html`<h2 id="servers">Servers</h2>\n<ul>${joinHtml(servers, "")}</ul>` : NOTHING}`;
}

function flowsView(flows: unknown): SafeHtml {
  return joinHtml(
    Object.entries(objectOf(flows)).map(([kind, flow]) => {
      const f = objectOf(flow);
      const scopes = Object.entries(objectOf(f.scopes)).map(
        ([scope, meaning]) => html`<li><code>${scope}</code>: ${text(meaning)}</li>`,
      );
      const urls = ["authorizationUrl", "tokenUrl", "refreshUrl"]
        .filter((key) => typeof f[key] === "string")
        .map((key) => html`${key} <code>${text(f[key])}</code>`);
      return html`<p>OAuth 2 flow <code>${kind}</code>: ${joinHtml(urls, ", ")}</p><ul class="members">${joinHtml(scopes, "")}</ul>`;
    }),
    "",
  );
}

/** Part 5: each security scheme, where its credential goes (RFC 6750, RFC 7617, OpenAPI's apiKey). */
export function securitySection(document: Json): SafeHtml {
  const schemes = Object.entries(objectOf(objectOf(document.components).securitySchemes));
  if (schemes.length === 0) return NOTHING;
  const items = schemes.map(([name, scheme]) => {
    const s = objectOf(scheme);
    const where =
      s["x-amazon-apigateway-authtype"] !== undefined
        ? html`an AWS Signature Version 4 in <code>Authorization: AWS4-HMAC-SHA256 …</code>, made anew for each request`
        : s.type === "mutualTLS"
          ? html`a client certificate (mutual TLS)`
          : s.type === "http" && !["basic", "bearer"].includes(String(s.scheme).toLowerCase())
            ? html`<code>Authorization: ${text(s.scheme)} …</code>`
            : s.type === "apiKey"
              ? html`an API key in the ${text(s.in)} <code>${text(s.name)}</code>`
              : s.type === "http"
                ? html`<code>Authorization: ${text(s.scheme) === "basic" ? "Basic" : "Bearer"} …</code>${s.bearerFormat ? html` (${text(s.bearerFormat)})` : NOTHING}`
                : s.type === "openIdConnect"
                  ? html`an OpenID Connect access token as a bearer token; discovery at <code>${text(s.openIdConnectUrl)}</code>`
                  : html`an OAuth 2 access token as a bearer token (RFC 6750)`;
    return html`<section class="scheme" id="security-${name}"><h3><code>${name}</code></h3><p>${where}.</p>${paragraphs(s.description)}${flowsView(s.flows)}</section>`;
  });
  return html`<h2 id="security">Authentication (part 5)</h2>\n${joinHtml(items, "\n")}`;
}

/** Part 7: each error type (RFC 9457), its status, its problem type and the platform failures it answers. */
export function errorsSection(document: Json): SafeHtml {
  const types = Object.entries(objectOf(objectOf(document.components).responses)).filter(
    ([, response]) => isObject(objectOf(response)[ERROR_TYPE]),
  );
  if (types.length === 0) return NOTHING;
  const rows = types.map(([name, response]) => {
    const type = objectOf(objectOf(response)[ERROR_TYPE]);
    const uri = text(type.type);
    const page = uri
      ? html`<code>${uri}</code>`
      : html`<a href="${SERVICE_PATHS.problems}/${name}"><code>${SERVICE_PATHS.problems}/${name}</code></a>`;
    const presents = Array.isArray(type.presents) ? type.presents.map(String) : [];
    return html`<tr id="error-${name}"><td><code>${name}</code></td><td class="num">${String(type.status ?? "")}</td><td>${text(type.title)}${type.description ? html`: ${text(type.description)}` : NOTHING}</td><td>${page}</td><td>${joinHtml(
      presents.map((p) => html`<code>${p}</code>`),
      ", ",
    )}</td></tr>`;
  });
  return html`<h2 id="errors">Errors (part 7)</h2>
<div class="scroll"><table>
<thead><tr><th scope="col">Error type</th><th scope="col" class="num">Status</th><th scope="col">Meaning</th><th scope="col">Problem type</th><th scope="col">Answers the platform's</th></tr></thead>
<tbody>${joinHtml(rows, "\n")}</tbody>
</table></div>`;
}

/** Part 3: the machines the document carries on its schemas, each drawn once. */
export function machinesSection(document: Json): SafeHtml {
  const machines: Record<string, StateMachine> = {};
  for (const [resource, schema] of Object.entries(objectOf(objectOf(document.components).schemas)))
    for (const machine of (objectOf(schema)[STATE_MACHINES] as Json[] | undefined) ?? []) {
      const { name, ...declared } = machine as unknown as StateMachine & { name: string };
      machines[name] = { ...declared, resource };
    }
  if (Object.keys(machines).length === 0) return NOTHING;
  return html`<section id="states">${statesSection(machines)}</section>`;
}

/** One of part 9's versions, as the status report lists them. */
export interface ReferenceVersion {
  readonly version: string;
  readonly current: boolean;
  readonly deprecated?: string;
  readonly sunset?: string;
  readonly migration?: string;
}

/** Part 9: each version, with its dates (RFC 9745, RFC 8594), its reference and its document. */
export function versionsSection(versions: readonly ReferenceVersion[], shown: string): SafeHtml {
  if (versions.length === 0) return NOTHING;
  const rows = versions.map((v) => {
    const here = v.version === shown ? html` <strong>(this page)</strong>` : NOTHING;
    const query = v.current ? "" : `?version=${encodeURIComponent(v.version)}`;
    return html`<tr><td><a href="${SERVICE_PATHS.reference}${query}"><code>${v.version}</code></a>${v.current ? " (current)" : ""}${here}</td><td>${v.deprecated ?? ""}</td><td>${v.sunset ?? ""}</td><td>${v.migration ? link(v.migration, "notes") : ""} <a href="${SERVICE_PATHS.openapi}${query}">OpenAPI</a></td></tr>`;
  });
  return html`<h2 id="versions">Versions (part 9)</h2>
<div class="scroll"><table>
<thead><tr><th scope="col">Version</th><th scope="col">Deprecated</th><th scope="col">Sunset</th><th scope="col">Documents</th></tr></thead>
<tbody>${joinHtml(rows, "\n")}</tbody>
</table></div>`;
}

/**
 * Part 2: each component schema of the interface. The platform's own (its problems, the
 * status report) are the same on every deployment: the problem pages and the OpenAPI
 * document describe them, so the page does not repeat them.
 */
export function schemasSection(document: Json): SafeHtml {
  const own = schemaSections(document);
  return html`${SCHEMAS_HEAD}
${own.length > 0 ? joinHtml(own, "\n") : html`<p>The interface declares no schema of its own.</p>`}`;
}

export const SCHEMAS_HEAD = html`<h2 id="schemas">Schemas (part 2)</h2>`;

/** Each component schema of the interface's own, as its section. */
export function schemaSections(document: Json): SafeHtml[] {
  const entries = Object.entries(objectOf(objectOf(document.components).schemas));
  return entries
    .filter(([, s]) => objectOf(s)[PLATFORM] === undefined)
    .map(
      ([name, schema]) =>
        html`<section class="schema" id="${schemaAnchor(name)}"><h3><code>${name}</code></h3>${paragraphs(objectOf(schema).description)}<div>${schemaView(schema)}</div></section>`,
    );
}
