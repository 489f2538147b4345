/**
 * `npm run test:browser`: opens the platform's HTML pages (the interface status report and
 * every problem-type page) in headless Chromium, against the built Worker on
 * `workerd serve`. Each page must render (the report's nine parts, the stylesheet applied)
 * with no console error and no Content-Security-Policy violation; a screenshot of each is
 * saved under test/artifacts/browser/. The API reference of the shipped Worker and of a
 * FIXTURE Worker passes axe-core, searches and reads on a phone (./browser-reference.ts).
 * Then CORS as a browser enforces it: pages of other
 * origins call the Worker with fetch (./browser-cors.ts). Uses Debian's chromium
 * (CHROMIUM_PATH overrides).
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { corsChecks } from "./browser-cors";
import { axeSelfTest, referenceFailures } from "./browser-reference";
import { buildBundle, serveWorker } from "./serve";

const ARTIFACTS = "test/artifacts/browser";

interface Findings {
  readonly console: string[];
  readonly csp: string[];
}

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/**
 * The console warnings accepted: Chromium built for Linux lacks Web Share, and Debian 12's
 * Chromium lacks Speaker Selection, so they call `web-share` and `speaker-selection` in
 * Permissions-Policy unrecognised; each is denied for the browsers that have it
 * (src/platform/security-headers.ts). Any other unrecognised feature fails.
 */
const KNOWN_WARNINGS = new Set([
  "Error with Permissions-Policy header: Unrecognized feature: 'web-share'.",
  "Error with Permissions-Policy header: Unrecognized feature: 'speaker-selection'.",
]);

/** Listens for console errors, page errors and CSP violations (reported as DOM events). */
async function watch(page: Page): Promise<Findings> {
  const findings: Findings = { console: [], csp: [] };
  page.on("console", (message) => {
    if (message.type() === "warning" && KNOWN_WARNINGS.has(message.text())) return;
    if (message.type() === "error" || message.type() === "warning")
      findings.console.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => findings.console.push(`pageerror: ${error.message}`));
  // Injected by the browser itself, so the page's CSP does not block the listener.
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations?.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return findings;
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__cspViolations ?? []);
}

async function checkPage(
  browser: Browser,
  url: string,
  name: string,
  parts: readonly string[],
): Promise<string[]> {
  const page = await browser.newPage();
  const findings = await watch(page);
  const failures: string[] = [];
  const response = await page.goto(url, { waitUntil: "load" });
  if (response?.status() !== 200) failures.push(`status ${response?.status()}`);
  if (!response?.headers()["content-type"]?.startsWith("text/html")) failures.push("not text/html");
  if (!response?.headers()["content-security-policy"]) failures.push("no Content-Security-Policy");
  // The stylesheet is the page's only subresource; its rules must apply.
  const styled = await page.evaluate(() => {
    const main = document.querySelector("main");
    return (
      document.styleSheets.length === 1 &&
      main !== null &&
      getComputedStyle(main).maxWidth !== "none"
    );
  });
  if (!styled) failures.push("the stylesheet is not applied");
  if (name === "interface") {
    const rows = await page.locator("table").first().locator("tbody tr").count();
    // The specification has nine parts; the report must list each, and the page show each.
    if (parts.length !== 9) failures.push(`the JSON report lists ${parts.length} parts, not 9`);
    if (rows !== parts.length)
      failures.push(`the parts table has ${rows} rows, not ${parts.length}`);
    const names = await page.locator("table").first().locator("tbody code").allTextContents();
    const missing = parts.filter((part) => !names.includes(part));
    if (missing.length > 0) failures.push(`parts not shown: ${missing.join(", ")}`);
  }
  failures.push(
    ...findings.console,
    ...(await cspViolations(page)).map((v) => `CSP violation: ${v}`),
  );
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
  await page.close();
  return failures;
}

/**
 * Part 3's diagrams on the interface page of the FIXTURE states Worker: one inline SVG per
 * machine, drawn (a real box on the page), naming every state, within the page's CSP.
 */
async function checkDiagrams(browser: Browser): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "states-"));
  const bundle = await buildBundle("fixture-states", resolve("test/tools/states-worker.ts"), dir);
  const worker = await serveWorker({ bundle });
  const page = await browser.newPage();
  const findings = await watch(page);
  const failures: string[] = [];
  try {
    const report = (await (await fetch(`${worker.url}/_service/interface`)).json()) as {
      states: { name: string; states: string[] }[];
    };
    await page.goto(`${worker.url}/_service/interface`, { waitUntil: "load" });
    const diagrams = page.locator("figure svg[role=img]");
    if ((await diagrams.count()) !== report.states.length)
      failures.push(`${await diagrams.count()} diagrams for ${report.states.length} machines`);
    for (const [i, machine] of report.states.entries()) {
      const svg = diagrams.nth(i);
      const box = await svg.boundingBox();
      if (!box || box.width < 100 || box.height < 40) failures.push(`${machine.name} is not drawn`);
      const texts = await svg.locator("text").allTextContents();
      const missing = machine.states.filter((state) => !texts.includes(state));
      if (missing.length > 0) failures.push(`${machine.name} does not show ${missing.join(", ")}`);
    }
    failures.push(
      ...findings.console,
      ...(await cspViolations(page)).map((v) => `CSP violation: ${v}`),
    );
    await page.screenshot({ path: `${ARTIFACTS}/interface-states.png`, fullPage: true });
  } finally {
    await page.close();
    await worker.stop();
  }
  return failures;
}

/**
 * The API reference of the shipped Worker, and of the FIXTURE vocabulary Worker (every kind
 * of declaration), each with no console error and no CSP violation besides.
 */
async function checkReferences(browser: Browser, shipped: string): Promise<[string, string[]][]> {
  const dir = mkdtempSync(join(tmpdir(), "reference-"));
  const bundle = await buildBundle(
    "fixture-vocabulary",
    resolve("test/tools/fixture-worker.ts"),
    dir,
  );
  const fixture = await serveWorker({ bundle });
  const results: [string, string[]][] = [];
  try {
    for (const [name, base] of [
      ["reference", shipped],
      ["reference-fixture", fixture.url],
    ] as const) {
      const page = await browser.newPage();
      const findings = await watch(page);
      const url = `${base}/_service/reference`;
      const failures = await referenceFailures(
        browser,
        page,
        url,
        `${ARTIFACTS}/${name}`,
        findings.console,
      );
      failures.push(
        ...findings.console,
        ...(await cspViolations(page)).map((v) => `CSP violation: ${v}`),
      );
      await page.close();
      results.push([
        `${name}: /_service/reference passes axe-core (no serious or critical violation), searches, reads on a phone`,
        failures,
      ]);
    }
  } finally {
    await fixture.stop();
  }
  return results;
}

/** The detector itself must be able to fail: a page that breaks its own CSP is caught. */
async function selfTest(browser: Browser): Promise<string[]> {
  const page = await browser.newPage();
  const findings = await watch(page);
  await page.goto("about:blank");
  await page.setContent(
    `<meta http-equiv="Content-Security-Policy" content="style-src 'none'"><style>body{color:red}</style>`,
  );
  const caught = (await cspViolations(page)).length + findings.console.length;
  await page.close();
  return caught > 0 ? [] : ["a page that violates its CSP went unnoticed"];
}

mkdirSync(ARTIFACTS, { recursive: true });
const worker = await serveWorker();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
});
let failed = false;
try {
  const openapi = (await (await fetch(`${worker.url}/_service/openapi.json`)).json()) as {
    paths: Record<
      string,
      { get?: { parameters?: { name?: string; schema?: { enum?: string[] } }[] } }
    >;
  };
  // What the page must show comes from the JSON form of the same report.
  const report = (await (await fetch(`${worker.url}/_service/interface`)).json()) as {
    parts: { name: string }[];
  };
  const parts = report.parts.map((part) => part.name);
  // The path's `type` parameter (the first is the request id every operation takes).
  const types =
    openapi.paths["/_service/problems/{type}"]?.get?.parameters?.find((p) => p.name === "type")
      ?.schema?.enum ?? [];
  const pages: [string, string][] = [
    ["interface", `${worker.url}/_service/interface`],
    ...types.map((t): [string, string] => [`problem-${t}`, `${worker.url}/_service/problems/${t}`]),
  ];
  const results: [string, string[]][] = [
    ["the CSP detector catches a violation", await selfTest(browser)],
    ["the accessibility check (axe-core) catches a critical violation", await axeSelfTest(browser)],
  ];
  results.push(...(await checkReferences(browser, worker.url)));
  results.push([
    "part 3's state diagrams are drawn on the interface page, within its CSP",
    await checkDiagrams(browser),
  ]);
  for (const [name, url] of pages) {
    results.push([
      `${new URL(url).pathname} renders with no console error or CSP violation`,
      await checkPage(browser, url, name, parts),
    ]);
  }
  // Cross-origin fetch from pages of other origins, under each kind of CORS setting.
  results.push(...(await corsChecks(browser)));
  for (const [label, failures] of results) {
    console.log(
      failures.length === 0 ? `ok    ${label}` : `FAIL  ${label}\n      ${failures.join("; ")}`,
    );
    if (failures.length > 0) failed = true;
  }
  console.log(`\n${results.length} browser checks; screenshots in ${ARTIFACTS}/`);
} finally {
  await browser.close();
  await worker.stop();
}
process.exitCode = failed ? 1 : 0;
