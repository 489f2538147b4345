/**
 * "Try it": a form beside each operation of the reference that sends the request to this
 * same origin, with a credential the reader types, and shows the answer as text. Its script
 * is inline and allowed by its hash, like the search's (search.ts); the page's CSP lets it
 * reach only this origin (`connect-src 'self'`, CSP Level 3 §6.1.1). Nothing is stored: no
 * cookie, no storage, and the request carries no ambient cookie (`credentials: "omit"`,
 * Fetch §5.3), only what the form says. Without script the form stays hidden (a native
 * submit would go nowhere: `form-action 'none'`).
 */
import { html, joinHtml, type SafeHtml } from "../html";
import type { Json } from "./schema";

const NOTHING = html``;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const objectOf = (value: unknown): Json => (isObject(value) ? value : {});
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Where a parameter goes, as the script reads a field's name (`<in>:<name>`). */
const LOCATIONS = new Set(["path", "query", "header"]);

/**
 * How the credential is sent, as the script reads it: `bearer` and `basic` (RFC 6750 §2.1,
 * RFC 7617 §2, in `Authorization`), `header:<name>` or `query:<name>` (an API key). A
 * cookie cannot be set by a page's script (Fetch §4.6 forbids `Cookie`), so a scheme read
 * from a cookie has no field.
 */
function credentialsOf(operation: Json, document: Json): { how: string; scheme: string }[] {
  const requirements = Array.isArray(operation.security) ? operation.security : document.security;
  const schemes = objectOf(objectOf(document.components).securitySchemes);
  const names = new Set(
    (Array.isArray(requirements) ? requirements : []).flatMap((r) => Object.keys(objectOf(r))),
  );
  return [...names].flatMap((name) => {
    const scheme = objectOf(schemes[name]);
    const kind = text(scheme.type);
    const http = text(scheme.scheme).toLowerCase();
    if (kind === "http" && (http === "bearer" || http === "basic"))
      return [{ how: http, scheme: name }];
    // OAuth 2.0 and OpenID Connect access tokens are sent as bearer tokens (RFC 6750 §2.1).
    if (kind === "oauth2" || kind === "openIdConnect") return [{ how: "bearer", scheme: name }];
    const where = text(scheme.in);
    if (kind === "apiKey" && (where === "header" || where === "query") && text(scheme.name))
      return [{ how: `${where}:${text(scheme.name)}`, scheme: name }];
    return [];
  });
}

/** The first example of a JSON request body, as text to edit. */
function bodyExample(media: Json): string {
  const named = Object.values(objectOf(media.examples)).map((e) => objectOf(e).value);
  const value = "example" in media ? media.example : named[0];
  return value === undefined ? "" : (JSON.stringify(value, null, 2) ?? "");
}

/**
 * The form of one operation: a field per path, query and header parameter, one for the
 * credential of each scheme it takes that a page can send, and its body in its first media
 * type, filled with its first example.
 */
export function tryForm(
  method: string,
  path: string,
  parameters: readonly Json[],
  operation: Json,
  document: Json,
  body: Json,
): SafeHtml {
  const fields = parameters
    .filter((p) => LOCATIONS.has(text(p.in)))
    .map(
      (p) =>
        html`<p><label>${text(p.name)} <span class="constraints">(${text(p.in)}${p.required === true || p.in === "path" ? ", required" : ""})</span> <input name="${text(p.in)}:${text(p.name)}" autocomplete="off"${p.in === "path" ? html` required` : NOTHING}></label></p>`,
    );
  const keys = credentialsOf(operation, document).map(
    ({ how, scheme }) =>
      html`<p><label>Credential of <code>${scheme}</code> <span class="constraints">(${how === "basic" ? "user:password, " : ""}not kept)</span> <input type="password" name="credential" autocomplete="off" data-how="${how}"></label></p>`,
  );
  const [type, media] = Object.entries(objectOf(body.content))[0] ?? [];
  const bodyField =
    type === undefined
      ? NOTHING
      : html`<p><label>Body <span class="constraints">(<code>${type}</code>)</span> <textarea name="body" rows="6" data-type="${type}">${bodyExample(objectOf(media))}</textarea></label></p>`;
  return html`<details class="try" hidden><summary>Try it</summary>
<form class="try-form" data-method="${method}" data-path="${path}">
${joinHtml(fields, "\n")}${joinHtml(keys, "\n")}${bodyField}<p><button type="submit">Send ${method} to this service</button></p>
<pre class="try-answer" role="status" tabindex="0"></pre>
</form></details>`;
}

/** The script, exactly as the page holds it: its hash below is of these bytes. */
export const TRY_SCRIPT = `(() => {
  for (const box of document.querySelectorAll("details.try")) box.hidden = false;
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("try-form")) return;
    event.preventDefault();
    const out = form.querySelector(".try-answer");
    try {
      let path = form.dataset.path || "/";
      const query = new URLSearchParams();
      const headers = new Headers();
      let body;
      for (const field of form.querySelectorAll("input, textarea")) {
        const value = field.value;
        if (field.name === "credential") {
          const how = field.dataset.how || "";
          if (!value) continue;
          if (how === "bearer") headers.set("authorization", "Bearer " + value);
          else if (how === "basic") headers.set("authorization", "Basic " + btoa(value));
          else if (how.startsWith("header:")) headers.set(how.slice(7), value);
          else if (how.startsWith("query:")) query.set(how.slice(6), value);
          continue;
        }
        if (field.name === "body") {
          if (value) { body = value; headers.set("content-type", field.dataset.type || "application/json"); }
          continue;
        }
        const at = field.name.indexOf(":");
        const where = field.name.slice(0, at);
        const name = field.name.slice(at + 1);
        if (where === "path") path = path.split("{" + name + "}").join(encodeURIComponent(value));
        else if (value && where === "query") query.append(name, value);
        else if (value && where === "header") headers.set(name, value);
      }
      const url = path + (query.size ? "?" + query : "");
      out.textContent = "Sending...";
      const answer = await fetch(url, { method: form.dataset.method, headers, body, credentials: "omit", redirect: "manual" });
      const lines = [answer.status + " " + answer.statusText];
      for (const [name, value] of answer.headers) lines.push(name + ": " + value);
      const received = await answer.text();
      out.textContent = lines.join("\\n") + "\\n\\n" + received.slice(0, 100000);
    } catch (error) {
      out.textContent = "Not sent: " + error;
    }
  });
})();`;

/** `sha256-` and the base64 of SHA-256 of `TRY_SCRIPT` (a test computes it again). */
export const TRY_SCRIPT_HASH = "sha256-bO1EANyniDtFsDXHdSu9bZGY3sLP4TzzJAQK/yFMpao=";
