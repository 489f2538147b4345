/**
 * One operation of the document as the reference shows it, whole: its method and path, what
 * it does, its retirement (RFC 9745, RFC 8594), the credentials it takes (part 5), its part
 * 3 transition and part 6 webhooks, then its parameters, body and answers (operation.ts).
 */
import { DEPRECATION, EMITS, TRANSITION } from "../../contract-language/document-marks";
import { html, joinHtml, type SafeHtml } from "../html";
import {
  bodyView,
  operationAnchor,
  paragraphs,
  parametersOf,
  parametersView,
  resolved,
  responsesView,
} from "./operation";
import type { Json } from "./schema";
import { link } from "./sections";
import { tryForm } from "./try";

const NOTHING = html``;
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const objectOf = (value: unknown): Json => (isObject(value) ? value : {});
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** One operation of the document, where it is. */
export interface Entry {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly operation: Json;
}

/** Every operation of the document's paths, in its order. */
export function entriesOf(document: Json): Entry[] {
  return Object.entries(objectOf(document.paths)).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = objectOf(item)[method];
      if (!isObject(operation)) return [];
      const id = text(operation.operationId) || `${method} ${path}`;
      return [{ id, method: method.toUpperCase(), path, operation }];
    }),
  );
}

/** Part 5: any one requirement suffices; within one, every scheme (with its scopes). */
function securityView(operation: Json, document: Json): SafeHtml {
  const requirements = Array.isArray(operation.security) ? operation.security : document.security;
  if (!Array.isArray(requirements) || requirements.length === 0)
    return html`<p class="security">No credentials needed.</p>`;
  const options = requirements.map((requirement) =>
    joinHtml(
      Object.entries(objectOf(requirement)).map(([scheme, scopes]) => {
        const asked = strings(scopes);
        return html`<a href="#security-${scheme}"><code>${scheme}</code></a>${
          asked.length > 0
            ? html` with scope ${joinHtml(
                asked.map((s) => html`<code>${s}</code>`),
                ", ",
              )}`
            : NOTHING
        }`;
      }),
      " and ",
    ),
  );
  return html`<p class="security">Credentials: ${options.length > 1 ? "any one of " : ""}${joinHtml(options, "; or ")}.</p>`;
}

/** RFC 9745 and RFC 8594: deprecated since when, served until when, and where the notes are. */
function deprecationView(operation: Json): SafeHtml {
  if (operation.deprecated !== true) return NOTHING;
  const dates = objectOf(operation[DEPRECATION]);
  const facts = [
    dates.deprecated ? html` since <time>${text(dates.deprecated)}</time>` : NOTHING,
    dates.sunset
      ? html`; no longer served after <time>${text(dates.sunset)}</time> (410)`
      : NOTHING,
    dates.migration ? html`; ${link(dates.migration, "migration notes")}` : NOTHING,
  ];
  return html`<p class="deprecated"><strong>Deprecated</strong>${joinHtml(facts, "")}.</p>`;
}

/** Part 3's transition and part 6's webhooks of an operation. */
function effectsView(operation: Json): SafeHtml {
  const parts: SafeHtml[] = [];
  const transition = objectOf(operation[TRANSITION]);
  if (transition.machine) {
    const steps = (Array.isArray(transition.steps) ? transition.steps : []).map(
      (step) =>
        html`<code>${text(objectOf(step).from)}</code> → <code>${text(objectOf(step).to)}</code>`,
    );
    parts.push(
      html`<p>Transition <code>${text(transition.trigger)}</code> of <a href="#states"><code>${text(transition.machine)}</code></a>: ${joinHtml(steps, ", ")}; from any other state, 409.</p>`,
    );
  }
  const emits = strings(operation[EMITS]);
  if (emits.length > 0)
    parts.push(
      html`<p>Sends ${joinHtml(
        emits.map((name) => html`<a href="#webhook-${name}"><code>${name}</code></a>`),
        ", ",
      )} once it succeeds.</p>`,
    );
  return joinHtml(parts, "");
}

/** What the search matches an operation by: method, path, id, summary, tags. */
export const searchText = (entry: Entry): string =>
  [
    entry.method,
    entry.path,
    entry.id,
    text(entry.operation.summary),
    ...strings(entry.operation.tags),
  ]
    .join(" ")
    .toLowerCase();

/**
 * An operation's section; `heading` is its level (h4 inside a folded group); `tried`, with
 * a "Try it" form (an operation of this service's, not a webhook it sends).
 */
export function operationSection(
  entry: Entry,
  document: Json,
  heading = "h3",
  tried = false,
): SafeHtml {
  const { operation } = entry;
  const title = html`<span class="method method-${entry.method.toLowerCase()}">${entry.method}</span> <code class="path">${entry.path}</code>`;
  const head = heading === "h3" ? html`<h3>${title}</h3>` : html`<h4>${title}</h4>`;
  return html`<section class="op" id="${operationAnchor(entry.id)}" data-search="${searchText(entry)}">
${head}
${paragraphs(operation.summary, "summary")}<p class="meta">Operation <code>${entry.id}</code></p>
${deprecationView(operation)}${paragraphs(operation.description)}${securityView(operation, document)}${effectsView(operation)}${parametersView(operation, document)}${bodyView(operation, document)}${responsesView(operation, document)}${
  tried
    ? tryForm(
        entry.method,
        entry.path,
        parametersOf(operation, document),
        operation,
        document,
        resolved(operation.requestBody, document),
      )
    : NOTHING
}
</section>`;
}
