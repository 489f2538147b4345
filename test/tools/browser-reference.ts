/**
 * The API reference in a real browser (part of `npm run test:browser`): the shipped
 * Worker's and the FIXTURE vocabulary Worker's `/_service/reference` in headless Chromium.
 * Each must pass axe-core (WCAG 2 A and AA rules, run offline from node_modules) with no
 * serious or critical violation, run its search within its CSP (typing hides what does not
 * match, and says how many are left), send an operation's "Try it" form to this origin and
 * show the answer (CSP `connect-src 'self'`), and be readable on a phone (390 px wide: no sideways
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

/**
 * "Try it" within the page's CSP (`connect-src 'self'`): an operation's form, opened and
 * sent, shows the answer this origin gave.
 */
async function tryFailures(page: Page, logged: string[]): Promise<string[]> {
  if ((await page.locator("section.op").count()) === 0) return [];
  const forms = page.locator("details.try");
  if ((await forms.count()) === 0) return ["no operation has a Try it form"];
  // A GET that needs no credential nor path, where there is one: its answer is a success,
  // which the browser does not report as a failed load in the console.
  const open = page.locator(
    'details.try:has(form[data-method="GET"]):not(:has(input[name="credential"])):not(:has(input[name^="path:"]))',
  );
  const details = (await open.count()) > 0 ? open.first() : forms.first();
  if (!(await details.isVisible())) return ["Try it is not shown (its script did not run)"];
  await details.locator("summary").click();
  const form = details.locator("form");
  for (const field of await form.locator('input[name^="path:"]').all()) await field.fill("fixture");
  await form.locator('button[type="submit"]').click();
  const answer = form.locator(".try-answer");
  try {
    await page.waitForFunction(
      (element) => /^\d{3} /.test(element?.textContent ?? ""),
      await answer.elementHandle(),
      { timeout: 5_000 },
    );
  } catch {
    return [`Try it showed ${JSON.stringify((await answer.textContent())?.slice(0, 80))}`];
  }
  // A failure's status is also reported by the browser as a failed load: that one line is
  // the answer Try it shows, not a fault of the page.
  const status = (await answer.textContent())?.slice(0, 3) ?? "";
  const reported = logged.findIndex(
    (line) =>
      line.startsWith("error: Failed to load resource:") && line.includes(`status of ${status} `),
  );
  if (reported >= 0) logged.splice(reported, 1);
  return [];
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

/**
 * The checks of one reference page; `page` is one the caller already watches for console
 * errors, into `logged`.
 */
export async function referenceFailures(
  browser: Browser,
  page: Page,
  url: string,
  shots: string,
  logged: string[],
): Promise<string[]> {
  const response = await page.goto(url, { waitUntil: "load" });
  const failures: string[] = [];
  if (response?.status() !== 200) failures.push(`status ${response?.status()}`);
  if (!response?.headers()["content-security-policy"]?.includes("script-src 'sha256-"))
    failures.push("no CSP allowing the search script by hash");
  if (!response?.headers()["content-security-policy"]?.includes("connect-src 'self'"))
    failures.push("no CSP holding Try it to this origin");
  failures.push(...(await searchFailures(page)));
  failures.push(...(await tryFailures(page, logged)));
  await page.screenshot({ path: `${shots}.png`, fullPage: false });
  failures.push(...(await axeViolations(page)));
  failures.push(...(await phoneFailures(browser, url, `${shots}-phone.png`)));
  return failures;
}
