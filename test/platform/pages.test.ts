/**
 * The pages escape every value a contract or a deployment gives (OWASP Cross Site
 * Scripting Prevention Cheat Sheet): the report's text, the names in its tables, part 3's
 * diagrams, and a migration URL that is not http(s) is never a link.
 */
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, platformDefaults } from "../../src/platform/defaults";
import { htmlText } from "../../src/platform/html";
import { problemTypePage, reportPage, reportTemplate } from "../../src/platform/pages";
import { statesSection } from "../../src/platform/state-diagram";
import { type StatusReport, statusReport } from "../../src/platform/status";
import { EMPTY_CONTRACT } from "../fixtures/contracts";

const HOSTILE = `<img src=x onerror="alert('x')">&`;
const ESCAPED = "&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;";

const report: StatusReport = {
  ...statusReport(EMPTY_CONTRACT, platformDefaults(MAX_BODY_BYTES)),
  description: HOSTILE,
  limits: [
    {
      name: HOSTILE,
      kind: "page-size",
      parameter: HOSTILE,
      minimum: 1,
      maximum: 2,
      operations: [HOSTILE],
    },
  ],
  versions: [
    { version: HOSTILE, current: true, migration: "javascript:alert(1)" },
    { version: "v0", current: false, migration: "https://example.com/a?b=1&c=2" },
  ],
} as StatusReport;

describe("the pages escape what they are given (OWASP XSS Prevention Cheat Sheet)", () => {
  it("the status report: text, table cells, and a migration link only to http(s)", () => {
    const page = reportPage(reportTemplate(report, []), report);
    expect(page).not.toContain("<img");
    expect(page.split(ESCAPED).length - 1).toBeGreaterThanOrEqual(5);
    expect(page).not.toContain('href="javascript:');
    expect(page).toContain("<code>javascript:alert(1)</code>");
    expect(page).toContain('<a href="https://example.com/a?b=1&amp;c=2">notes</a>');
  });

  it("a problem type's page: its title, text and members", () => {
    const page = problemTypePage({
      slug: "fixture-hostile",
      title: HOSTILE,
      status: 400,
      description: HOSTILE,
      members: { [HOSTILE]: HOSTILE },
    });
    expect(page).not.toContain("<img");
    // The title (in <title> and <h1>), the text, the member and its meaning.
    expect(page.split(ESCAPED).length - 1).toBe(5);
  });

  it("part 3's diagrams and tables", () => {
    const section = htmlText(
      statesSection({
        [HOSTILE]: {
          resource: HOSTILE,
          field: HOSTILE,
          states: [HOSTILE, "b"],
          initial: HOSTILE,
          transitions: [{ from: HOSTILE, to: "b", trigger: HOSTILE }],
        },
      }),
    );
    expect(section).not.toContain("<img");
    expect(section).toContain(`<marker id="arrow-${ESCAPED}"`);
    expect(section).toContain(`aria-label="State machine ${ESCAPED} of ${ESCAPED}:`);
  });
});
