/**
 * The `html` tag escapes by default (OWASP Cross Site Scripting Prevention Cheat Sheet:
 * output encoding for HTML element content and quoted attribute values); only markup
 * `html` itself made, or `raw`'s trusted constant markup, is kept as it is.
 */
import { describe, expect, it } from "vitest";
import { html, htmlPage, htmlText, joinHtml, raw } from "../../src/platform/html";

const HOSTILE = `<script>alert("x")</script> & 'y'`;
const ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;";

describe("the html tag (OWASP XSS Prevention Cheat Sheet, output encoding)", () => {
  it("escapes an interpolated value in element content", () => {
    expect(htmlText(html`<p>${HOSTILE}</p>`)).toBe(`<p>${ESCAPED}</p>`);
  });

  it("escapes an interpolated value in a quoted attribute, so it cannot end the attribute", () => {
    expect(htmlText(html`<a title="${HOSTILE}" data-x='${HOSTILE}'>t</a>`)).toBe(
      `<a title="${ESCAPED}" data-x='${ESCAPED}'>t</a>`,
    );
  });

  it("keeps markup html made, without escaping it twice, and joins lists of it", () => {
    const inner = html`<code>${"a&b"}</code>`;
    expect(htmlText(html`<p>${inner}</p>`)).toBe("<p><code>a&amp;b</code></p>");
    expect(htmlText(html`<ul>${[html`<li>${"<1>"}</li>`, html`<li>2</li>`]}</ul>`)).toBe(
      "<ul><li>&lt;1&gt;</li><li>2</li></ul>",
    );
    expect(htmlText(joinHtml([html`<i>1</i>`, html`<i>2</i>`], ", <b>"))).toBe(
      "<i>1</i>, &lt;b&gt;<i>2</i>",
    );
  });

  it("needs raw to keep a string's markup, and writes numbers as they are", () => {
    expect(htmlText(html`${"<b>x</b>"}`)).toBe("&lt;b&gt;x&lt;/b&gt;");
    expect(htmlText(html`${raw("<b>x</b>")}`)).toBe("<b>x</b>");
    expect(htmlText(html`<td>${413}</td>`)).toBe("<td>413</td>");
  });

  it("escapes the page title and loads only the same-origin stylesheet", () => {
    const page = htmlPage("<b>t</b>", html`<p>body</p>`);
    expect(page).toContain("<title>&lt;b&gt;t&lt;/b&gt;</title>");
    expect(page).toContain("<h1>&lt;b&gt;t&lt;/b&gt;</h1>");
    expect(page).toContain("<main>\n<h1>&lt;b&gt;t&lt;/b&gt;</h1>\n<p>body</p>\n</main>");
    expect(page).toContain('<link rel="stylesheet" href="/_service/style.css">');
    expect(page).not.toMatch(/<script|style=|<style/);
  });
});
