/**
 * The API reference in a real browser (part of `npm run test:browser`): the shipped
 * Worker's and the FIXTURE vocabulary Worker's `/_service/reference` in headless Chromium.
 * Each must pass axe-core (WCAG 2 A and AA rules, run offline from node_modules) with no
 * serious or critical violation, run its search within its CSP (typing hides what does not
 * match, and says how many are left), and be readable on a phone (390 px wide: no sideways
 * scrolling of the page itself). Screenshots, desktop and phone, go beside the others. The
 * accessibility check is shown to fail on a page with a known critical violation first.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeResult {
  readonly violations: readonly {
    readonly id: string;
    readonly impact: string | null;
    readonly nodes: readonly unknown[];
  }[];
  readonly passes: readonly unknown[];
}

/** axe-core's serious and critical violations of the page, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated by the browser's debugger protocol, so the page's CSP does not apply to it.
  await page.evaluate(AXE);
  const result = (await page.evaluate(() =>
    (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<unknown> };
      }
    ).axe.run(document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
      },
    }),
  )) as AxeResult;
  if (result.passes.length === 0) return ["axe-core checked nothing"];
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `axe ${v.impact} ${v.id} (${v.nodes.length} nodes)`);
}

/** The detector can fail: an image without a text alternative is a critical violation. */
export async function axeSelfTest(browser: Browser): Promise<string[]> {
  const page = await browser.newPage();
  await page.setContent(
    '<!doctype html><html lang="en"><title>t</title><main><img src="data:,"></main></html>',
  );
  const found = await axeViolations(page);
  await page.close();
  return found.some((line) => line.includes("image-alt")) ? [] : ["axe-core missed a missing alt"];
}

/** Search within the page's CSP: a word no operation has hides them all; clearing shows them again. */
async function searchFailures(page: Page): Promise<string[]> {
  const box = page.locator("#reference-search");
  // While part 4 declares no operation there is nothing to search, and no field to search in.
  if ((await page.locator("section.op").count()) === 0)
    return (await box.count()) === 0 ? [] : ["a search field over no operation"];
  if (!(await box.isVisible())) return ["the search field is not shown (its script did not run)"];
  const all = await page.locator("section.op:visible").count();
  await box.fill("zz-no-operation-has-this");
  const none = await page.locator("section.op:visible").count();
  const said = (await page.locator("#reference-count").textContent()) ?? "";
  await box.fill("");
  const again = await page.locator("section.op:visible").count();
  const failures: string[] = [];
  if (none !== 0) failures.push(`${none} operations still shown for a word none has`);
  if (!said.startsWith("0 of ")) failures.push(`the count says ${JSON.stringify(said)}`);
  if (again !== all)
    failures.push(`${again} of ${all} operations shown once the search is cleared`);
  return failures;
}

/** The page at a phone's width: the text wraps, tables and code scroll inside their boxes. */
async function phoneFailures(browser: Browser, url: string, shot: string): Promise<string[]> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(url, { waitUntil: "load" });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  await page.screenshot({ path: shot, fullPage: false });
  await page.close();
  return overflow > 1 ? [`the page scrolls sideways by ${overflow} px on a phone`] : [];
}

/** The checks of one reference page; `watched` is a page the caller already watches for console errors. */
export async function referenceFailures(
  browser: Browser,
  page: Page,
  url: string,
  shots: string,
): Promise<string[]> {
  const response = await page.goto(url, { waitUntil: "load" });
  const failures: string[] = [];
  if (response?.status() !== 200) failures.push(`status ${response?.status()}`);
  if (!response?.headers()["content-security-policy"]?.includes("script-src 'sha256-"))
    failures.push("no CSP allowing the search script by hash");
  failures.push(...(await searchFailures(page)));
  await page.screenshot({ path: `${shots}.png`, fullPage: false });
  failures.push(...(await axeViolations(page)));
  failures.push(...(await phoneFailures(browser, url, `${shots}-phone.png`)));
  return failures;
}
