/**
 * One operation (or webhook) of an OpenAPI document written out for people: method and
 * path, what it does, whether it is deprecated and until when (RFC 9745, RFC 8594), the
 * credentials it takes, its parameters, its body in each media type with its examples, and
 * each answer by status with its header fields and body, the platform's problems linked to
 * the pages that document them (RFC 9457 §3.1.1), its part 3 transition and the webhooks it
 * sends.
 */
import { ERROR_TYPE } from "../../contract-language/document-marks";
import { PROBLEM_CATALOGUE } from "../../contract-language/problem-catalogue";
import { reasonPhrase } from "../../contract-language/status";
import { html, joinHtml, type SafeHtml } from "../html";
import { SERVICE_PATHS } from "../paths";
import { type Json, schemaView } from "./schema";

const NOTHING = html``;
const REQUEST_ID_PARAMETER = "#/components/parameters/XRequestId";

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const objectOf = (value: unknown): Json => (isObject(value) ? value : {});
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Plain text as paragraphs, one per blank-line-separated block (no markup is read from it). */
export function paragraphs(value: unknown, className = ""): SafeHtml {
  const blocks = text(value)
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
  return joinHtml(
    blocks.map((block) =>
      className ? html`<p class="${className}">${block}</p>` : html`<p>${block}</p>`,
    ),
    "\n",
  );
}

/** The anchor of an operation on the page. */
export function operationAnchor(id: string): string {
  return `op-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
}

/** A named example, or the single `example`, as JSON. */
function examples(media: Json): SafeHtml {
  const named = Object.entries(objectOf(media.examples)).map(([name, example]) => {
    const { summary, value } = objectOf(example);
    const json = JSON.stringify(value, null, 2) ?? "";
    return html`<figure class="example"><figcaption>Example <code>${name}</code>${summary ? html`: ${text(summary)}` : NOTHING}</figcaption><pre><code>${json}</code></pre></figure>`;
  });
  if ("example" in media)
    named.push(
      html`<figure class="example"><figcaption>Example</figcaption><pre><code>${JSON.stringify(media.example, null, 2) ?? ""}</code></pre></figure>`,
    );
  return joinHtml(named, "\n");
}

/** The `$ref`s a schema holds, at any depth. */
function refsOf(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) refsOf(item, into);
  else if (isObject(schema))
    for (const [key, value] of Object.entries(schema))
      if (key === "$ref" && typeof value === "string") into.add(value.split("/").at(-1) ?? "");
      else refsOf(value, into);
  return into;
}

/** The platform's problem types a problem body's schema names, each linked to its page. */
function problemLinks(schema: unknown): SafeHtml {
  const names = refsOf(schema);
  const links = PROBLEM_CATALOGUE.filter(
    (entry) => names.has(entry.schemaName) && !("uri" in entry),
  ).map(
    (entry) =>
      html`<a href="${SERVICE_PATHS.problems}/${entry.slug}">${entry.title}</a> (<code>${entry.slug}</code>)`,
  );
  return links.length === 0 ? NOTHING : html` Problem type: ${joinHtml(links, ", ")}.`;
}

const isProblem = (type: string) => /^application\/problem\+(json|xml)$/i.test(type);

/** A body in each of its media types: its schema, its examples; a problem as the types it can be. */
function contentView(content: unknown): SafeHtml {
  const entries = Object.entries(objectOf(content));
  const problems = entries.filter(([type]) => isProblem(type));
  const bodies = entries.filter(([type]) => !isProblem(type));
  const views = bodies.map(([type, media]) => {
    const m = objectOf(media);
    return html`<div class="media"><p><code>${type}</code>: ${schemaView(m.schema)}</p>${examples(m)}</div>`;
  });
  if (problems.length > 0) {
    const [, first] = problems[0] as [string, unknown];
    views.push(
      html`<p class="media">RFC 9457 problem, as ${joinHtml(
        problems.map(([type]) => html`<code>${type}</code>`),
        " or ",
      )}.${problemLinks(objectOf(first).schema)}</p>`,
    );
  }
  return joinHtml(views, "\n");
}

/** An object, its `$ref` followed when it names one of the document's components (one step). */
export function resolved(value: unknown, document: Json): Json {
  const object = objectOf(value);
  const ref = object.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/components/")) return object;
  const [kind = "", name = ""] = ref.slice("#/components/".length).split("/");
  return objectOf(objectOf(objectOf(document.components)[kind])[name]);
}

/** A parameter, its `$ref` followed; the request id every operation takes aside. */
function resolveParameter(parameter: unknown, document: Json): Json | undefined {
  if (objectOf(parameter).$ref === REQUEST_ID_PARAMETER) return undefined;
  return resolved(parameter, document);
}

/** An operation's parameters, each `$ref` followed, the request id aside. */
export function parametersOf(operation: Json, document: Json): Json[] {
  return (Array.isArray(operation.parameters) ? operation.parameters : [])
    .map((p) => resolveParameter(p, document))
    .filter((p): p is Json => p !== undefined && typeof p.name === "string");
}

function parametersView(operation: Json, document: Json): SafeHtml {
  const parameters = parametersOf(operation, document);
  if (parameters.length === 0) return NOTHING;
  const rows = parameters.map((p) => {
    const style =
      typeof p.style === "string"
        ? html` <span class="constraints">(style ${p.style}${p.explode === undefined ? "" : `, explode ${String(p.explode)}`})</span>`
        : NOTHING;
    return html`<tr><td><code>${text(p.name)}</code>${p.required === true ? html` <span class="required">required</span>` : NOTHING}</td><td>${text(p.in)}</td><td>${schemaView(p.schema)}${style}</td><td>${text(p.description)}</td></tr>`;
  });
  return html`<h4>Parameters</h4>
<div class="scroll"><table>
<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Value</th><th scope="col">Description</th></tr></thead>
<tbody>${joinHtml(rows, "\n")}</tbody>
</table></div>`;
}

function bodyView(operation: Json, document: Json): SafeHtml {
  const body = resolved(operation.requestBody, document);
  if (!isObject(body.content)) return NOTHING;
  const required = body.required === true ? "required" : "optional";
  return html`<h4>Request body <span class="constraints">(${required})</span></h4>
${paragraphs(body.description)}${contentView(body.content)}`;
}

/** The header fields of an answer, the request id every answer carries aside. */
function headersView(headers: unknown): SafeHtml {
  const own = Object.entries(objectOf(headers)).filter(([, h]) => !("$ref" in objectOf(h)));
  if (own.length === 0) return NOTHING;
  return html`<ul class="members">${joinHtml(
    own.map(
      ([name, h]) =>
        html`<li>Header <code>${name}</code>: ${schemaView(objectOf(h).schema)} ${text(objectOf(h).description)}</li>`,
    ),
    "",
  )}</ul>`;
}

/** RFC 9110 §15's reason phrases of the successes; the platform's own for its failures. */
const SUCCESS_PHRASES: Readonly<Record<string, string>> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  304: "Not Modified",
};

function phraseOf(status: string): string {
  if (SUCCESS_PHRASES[status]) return SUCCESS_PHRASES[status];
  if (!/^[45]\d\d$/.test(status)) return "";
  const phrase = reasonPhrase(Number(status));
  return phrase === "Client Error" || phrase === "Server Error" ? "" : phrase;
}

/** Part 7: an error type's answer, with its problem type URI (RFC 9457 §3.1.1). */
function errorTypeView(response: Json, name: string): SafeHtml {
  const type = objectOf(response[ERROR_TYPE]);
  if (!type.title) return NOTHING;
  // Without a URI of its own, the type's page is hosted here.
  const uri = text(type.type);
  const page = uri
    ? html`<code>${uri}</code>`
    : html`<a href="${SERVICE_PATHS.problems}/${name}"><code>${name}</code></a>`;
  return html`<p class="media">Error type ${text(type.title)}, problem type ${page}.</p>`;
}

function responsesView(operation: Json, document: Json): SafeHtml {
  const entries = Object.entries(objectOf(operation.responses));
  if (entries.length === 0) return NOTHING;
  const items = entries.map(([status, response]) => {
    const r = resolved(response, document);
    const named = phraseOf(status);
    return html`<li class="answer"><p><strong>${status}</strong>${named ? html` ${named}` : NOTHING}: ${text(r.description)}</p>${errorTypeView(
      r,
      String(objectOf(response).$ref ?? "")
        .split("/")
        .at(-1) ?? "",
    )}${headersView(r.headers)}${contentView(r.content)}</li>`;
  });
  return html`<h4>Answers</h4>
<ul class="answers">${joinHtml(items, "\n")}</ul>`;
}

export { bodyView, parametersView, responsesView };
