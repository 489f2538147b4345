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
export type HtmlValue = string | number | SafeHtml | readonly HtmlValue[];

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
`;
