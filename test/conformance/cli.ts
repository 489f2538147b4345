/**
 * `npm run conformance -- <base-url> [--json]`: checks a running instance (wrangler dev on
 * loopback, or a deployment) over real HTTP. One line per check and a summary, or one JSON
 * document with --json. Exit status: 0 all passed, 1 a check failed, 2 bad usage.
 */
import { checkConformance } from "./checker";

const USAGE = "usage: npm run conformance -- <base-url> [--json]";

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes("--json");
  const urls = argv.filter((arg) => !arg.startsWith("--"));
  const unknown = argv.filter((arg) => arg.startsWith("--") && arg !== "--json");
  const [baseUrl] = urls;
  if (urls.length !== 1 || unknown.length > 0 || !baseUrl || !/^https?:\/\/[^/]/.test(baseUrl)) {
    console.error(USAGE);
    return 2;
  }
  const report = await checkConformance(baseUrl);
  if (json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    for (const check of report.checks) {
      console.log(check.ok ? `ok    ${check.name}` : `FAIL  ${check.name}\n      ${check.detail}`);
    }
    console.log(
      `\n${report.checks.length} checks against ${report.baseUrl}: ${report.passed} passed, ${report.failed} failed`,
    );
  }
  return report.failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
