/**
 * `npm run conformance -- <base-url> [--json] [--credential <scheme>=<value>]…`: checks a
 * running instance (wrangler dev on loopback, or a deployment) over real HTTP. With a
 * credential for a security scheme of the served document (an API key, a token, or basic
 * `user-id:password`), each operation it guards gets a valid request too; an operation the
 * checker cannot send a valid request to is listed, with the reason, and never counted as
 * passed. One line per check and a summary, or one JSON document with --json. Exit status:
 * 0 all passed, 1 a check failed, 2 bad usage.
 */
import { checkConformance } from "./checker";
import { type Presented, presented } from "./credentials";

const USAGE =
  "usage: npm run conformance -- <base-url> [--json] [--credential <scheme>=<value>]...";

/** The credentials given, as the served document says each scheme sends one. */
async function credentialsFor(
  baseUrl: string,
  given: readonly string[],
): Promise<Record<string, Presented> | string> {
  if (given.length === 0) return {};
  const document = (await (
    await fetch(`${baseUrl.replace(/\/+$/, "")}/_service/openapi.json`)
  ).json()) as {
    components?: { securitySchemes?: Record<string, never> };
  };
  const schemes = document.components?.securitySchemes ?? {};
  const credentials: Record<string, Presented> = {};
  for (const pair of given) {
    const at = pair.indexOf("=");
    const name = pair.slice(0, at);
    if (at <= 0 || !schemes[name])
      return `--credential ${name || pair}: the document declares no such security scheme (${Object.keys(schemes).join(", ") || "none"})`;
    credentials[name] = presented(schemes[name], pair.slice(at + 1));
  }
  return credentials;
}

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes("--json");
  const given: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--credential") given.push(argv[++i] ?? "");
    else if (arg !== "--json") rest.push(arg);
  }
  const [baseUrl] = rest;
  if (rest.length !== 1 || !baseUrl || !/^https?:\/\/[^/]/.test(baseUrl) || given.includes("")) {
    console.error(USAGE);
    return 2;
  }
  const credentials = await credentialsFor(baseUrl, given);
  if (typeof credentials === "string") {
    console.error(credentials);
    return 2;
  }
  const report = await checkConformance(baseUrl, { credentials });
  if (json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    for (const check of report.checks) {
      console.log(check.ok ? `ok    ${check.name}` : `FAIL  ${check.name}\n      ${check.detail}`);
    }
    for (const { operation, reason } of report.unprobed)
      console.log(`SKIP  ${operation}: ${reason}`);
    console.log(
      `\n${report.checks.length} checks against ${report.baseUrl}: ${report.passed} passed, ${report.failed} failed; ${report.unprobed.length} operations not fully probed`,
    );
  }
  return report.failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
