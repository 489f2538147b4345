import { describe, expect, it } from "vitest";
import { escapeHtml, htmlPage } from "../../src/platform/html";

describe("HTML pages", () => {
  it("escapes every character that could start markup or end an attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("escapes the page title and loads only the same-origin stylesheet", () => {
    const page = htmlPage("<b>t</b>", "<p>body</p>");
    expect(page).toContain("<title>&lt;b&gt;t&lt;/b&gt;</title>");
    expect(page).toContain('<link rel="stylesheet" href="/_service/style.css">');
    expect(page).not.toMatch(/<script|style=|<style/);
  });
});
