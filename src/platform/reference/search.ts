/**
 * The reference page's search: a few lines of script, inline and allowed by its hash alone
 * (CSP Level 3 §8.4, `script-src 'sha256-…'`), so the page keeps `default-src 'none'` and
 * runs nothing else. Without script the page is whole and the search field stays hidden;
 * with it, typing hides the operations (and the groups left empty) whose method, path, id,
 * summary and tags do not hold every word typed, and says how many are left. A reference
 * on several pages is searched on its first, whose contents list every operation (a `status`
 * region, WAI-ARIA §6.3.24, so a screen reader hears it).
 */
import { TRY_SCRIPT_HASH } from "./try";

/** The script, exactly as the page holds it: its hash below is of these bytes. */
export const SEARCH_SCRIPT = `(() => {
  const box = document.getElementById("reference-search");
  const count = document.getElementById("reference-count");
  if (!box || !count) return;
  box.closest("[hidden]")?.removeAttribute("hidden");
  const items = [...document.querySelectorAll("[data-search]")];
  const sections = items.filter((item) => item.tagName === "SECTION");
  const counted = sections.length ? sections : items;
  const groups = [...document.querySelectorAll(".tag-group, .nav-group")];
  box.addEventListener("input", () => {
    const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    for (const item of items)
      item.hidden = !words.every((word) => item.dataset.search.includes(word));
    for (const group of groups) group.hidden = !group.querySelector("[data-search]:not([hidden])");
    const shown = counted.filter((item) => !item.hidden).length;
    count.textContent = words.length ? shown + " of " + counted.length + " operations" : "";
  });
})();`;

/** `sha256-` and the base64 of SHA-256 of `SEARCH_SCRIPT` (a test computes it again). */
export const SEARCH_SCRIPT_HASH = "sha256-N8AJIak1LcN5wQWMzpGYx5956iC2a1WLPdXiWs/8psk=";

/**
 * The reference page's Content-Security-Policy: the other pages' (src/platform/security-headers.ts),
 * and the search and "Try it" scripts by their hashes: no other script, inline or not, may
 * run; and requests only to this origin, which "Try it" sends (try.ts).
 */
export const REFERENCE_CSP = `default-src 'none'; style-src 'self'; script-src '${SEARCH_SCRIPT_HASH}' '${TRY_SCRIPT_HASH}'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
