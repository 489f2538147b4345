/**
 * The platform's HTML pages: plain documents with one same-origin stylesheet, so they
 * render under a strict Content-Security-Policy with no inline style or script.
 *
 * Every page is written with the `html` tag, which escapes every value it interpolates
 * unless the value is markup `html` itself made (or `raw`'s trusted constant markup): the
 * OWASP Cross Site Scripting Prevention Cheat Sheet's output encoding for HTML contexts
 * (element content, and attribute values, which here are always quoted), made the default
 * rather than remembered at each interpolation. It does not make a URL safe in `href`
 * (the Cheat Sheet's URL context): the values put there are the platform's own paths, and
 * a declared migration URL, which part 9 requires to be absolute; the pages' CSP runs no
 * script, a `javascript:` URL included.
 */
import { SERVICE_PATHS } from "./paths";

const MARKUP: unique symbol = Symbol("safe html");

/** Markup that is safe to put into a page as it is: made by `html` (or `raw`). */
export interface SafeHtml {
  readonly [MARKUP]: string;
}

/** What `html` interpolates: text and numbers are escaped, markup is kept, lists joined. */
type HtmlValue = string | number | SafeHtml | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** OWASP's HTML entity encoding: every character that could start markup or end an attribute. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

function markup(markup: string): SafeHtml {
  return { [MARKUP]: markup };
}

function render(value: HtmlValue): string {
  if (typeof value === "string") return escapeText(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join("");
  return (value as SafeHtml)[MARKUP];
}

/** A template of markup: each interpolated value is escaped unless it is `SafeHtml`. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  for (const [i, value] of values.entries()) out += render(value) + (strings[i + 1] ?? "");
  return markup(out);
}

/** Trusted constant markup, kept as it is: never for anything a contract or request gives. */
export function raw(trusted: string): SafeHtml {
  return markup(trusted);
}

/** Items of markup joined by a separator (text, escaped). */
export function joinHtml(items: readonly SafeHtml[], separator: string): SafeHtml {
  return markup(items.map(render).join(escapeText(separator)));
}

/** The markup as a string, to send. */
export function htmlText(value: SafeHtml): string {
  return value[MARKUP];
}

/** A complete page. */
export function htmlPage(title: string, body: SafeHtml): string {
  return htmlText(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${SERVICE_PATHS.stylesheet}">
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`);
}

export const STYLESHEET = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
main { max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid color-mix(in srgb, currentColor 25%, transparent); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.no { color: #b45309; font-weight: 600; }
.yes { color: #15803d; font-weight: 600; }
code { font-size: 0.95em; }
dt { font-weight: 600; margin-top: 0.5rem; }
pre { overflow-x: auto; padding: 0.5rem; border-radius: 4px; background: color-mix(in srgb, currentColor 7%, transparent); }
figure svg { max-width: 100%; height: auto; }
[hidden] { display: none !important; }
body.reference { margin: 0; }
.reference > header, .reference > nav, .reference > footer { max-width: 60rem; margin: 1rem auto; padding: 0 1rem; }
.reference > main { margin-top: 1rem; }
.subtitle { font-weight: 400; font-size: 0.6em; }
.lead { font-size: 1.1em; }
.reference nav ul { list-style: none; padding-left: 1rem; }
.reference nav > ul { padding-left: 0; }
.reference nav a { text-decoration: none; }
.reference nav a:hover, .reference nav a:focus { text-decoration: underline; }
.search input { font: inherit; padding: 0.3rem 0.5rem; width: 100%; max-width: 28rem; box-sizing: border-box; }
.tag-group > h2 { margin-top: 2.5rem; }
.op { border-top: 1px solid color-mix(in srgb, currentColor 25%, transparent); margin-top: 1.5rem; }
.op h3, .path { overflow-wrap: anywhere; }
.method { display: inline-block; min-width: 4.2em; text-align: center; font: 600 0.8em/1.7 ui-monospace, monospace; border-radius: 4px; color: #fff; background: #374151; }
.method-get { background: #1d4ed8; }
.method-post { background: #15803d; }
.method-put { background: #9a3412; }
.method-patch { background: #6d28d9; }
.method-delete { background: #b91c1c; }
.summary { font-weight: 600; }
.meta, .constraints { font-size: 0.9em; }
.required { font-size: 0.85em; font-weight: 600; text-transform: uppercase; letter-spacing: 0.02em; }
.deprecated { border-left: 4px solid currentColor; padding-left: 0.6rem; }
.members { margin: 0.2rem 0; padding-left: 1.2rem; }
.answers { list-style: none; padding-left: 0; }
.answer { margin-bottom: 0.6rem; }
.answer > p, .media > p { margin: 0.2rem 0; }
.scroll { overflow-x: auto; }
.example figcaption { font-size: 0.9em; }
.try form { display: grid; gap: 0.3rem; }
.try input, .try textarea { width: 100%; box-sizing: border-box; font: inherit; }
.try-answer:empty { display: none; }
.continued > main { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
@media (min-width: 60rem) {
  .media:has(> figure) { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 1rem; align-items: start; }
  .media > p { grid-column: 1; grid-row: 1 / span 8; }
  .media > figure { grid-column: 2; margin: 0 0 0.5rem; }
}
@media (min-width: 76rem) {
  body.reference { display: grid; grid-template-columns: 17rem minmax(0, 60rem); column-gap: 2rem; justify-content: center; }
  .reference > header, .reference > footer { grid-column: 1 / -1; width: 100%; box-sizing: border-box; }
  .reference > nav { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; margin: 0; padding-top: 1rem; }
  .reference > main { margin: 0; padding: 0; }
  body.reference.continued { display: block; }
  .continued > main { margin: 0 auto; padding: 0 1rem; }
}
`;
