/**
 * `npm run dev` runs this first (npm's `predev`): it gives every secret and setting the
 * contract's part 5 names a local value in `.dev.vars` (test/tools/dev-credentials.ts), so
 * `wrangler dev` answers every operation as documented, and prints how to present each
 * scheme's credential with curl. It keeps every value already there. Once the contract
 * declares operations, it also says how to have those without a handler answer from the
 * contract's examples instead of 501 (the `UNHANDLED_OPERATIONS` setting), or, where the
 * sandbox places some operation, from the sandbox.
 */
import { contract as shipped } from "../../src/contract";
import type { Contract, VerifiedScheme } from "../../src/contract-language/contract";
import { UNHANDLED_VAR } from "../../src/engine/operations/unhandled-setting";
import { placeOperations } from "../../src/mocks/sandbox/place";
import { staleDeploymentFiles } from "../support/deployment-files";
import { DEV_VARS, ensureDevVars, jwtSchemes, opaqueToken, schemeScopes } from "./dev-credentials";

/** The shipped contract, read as any contract: it may declare nothing yet. */
const contract: Contract = shipped;

const { made, values } = await ensureDevVars(contract);
// A binding the contract needs and wrangler.toml lacks (the sandbox's Durable Object, a rate
// limit, a queue) fails every request that uses it with a 500: said before wrangler starts.
const stale = staleDeploymentFiles(contract);
if (stale.length > 0)
  console.error(
    `dev: ${stale.join(" and ")} ${stale.length > 1 ? "do" : "does"} not declare what src/contract needs (bindings, secrets, vars): run npm run contract:deployment, or operations that need them answer 500`,
  );
const schemes = Object.entries(contract.securitySchemes);
const say = (line: string) => console.error(`dev: ${line}`);
if (Object.keys(contract.operations).length > 0) {
  // wrangler 4.86 reads from .dev.vars only the names [secrets] lists once wrangler.toml has
  // that table (any security scheme), so the var is given on the command line there.
  const devVars = schemes.length === 0 ? ` (or put ${UNHANDLED_VAR}=examples in ${DEV_VARS})` : "";
  // This runs before wrangler, which alone sees a --var: so it says what each setting does.
  say(
    `operations without a handler answer 501 unless ${UNHANDLED_VAR} says otherwise; from the contract's examples: npm run dev -- --var ${UNHANDLED_VAR}:examples${devVars}`,
  );
  const placed = placeOperations(contract).filter(({ place }) => place !== "examples").length;
  if (placed > 0)
    say(
      `or from a sandbox that keeps what callers write (${placed} operations act on stored resources, the rest answer from examples; /_service/interface says which): npm run dev -- --var ${UNHANDLED_VAR}:sandbox`,
    );
}
if (schemes.length > 0) {
  say(
    made.length > 0
      ? `${DEV_VARS}: local values made for ${made.join(", ")} (gitignored; never deployed)`
      : `${DEV_VARS} already holds a value for each secret and setting part 5 names`,
  );
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  for (const [name, scheme] of schemes) {
    if ("jwt" in scheme) {
      const scopes = schemeScopes(scheme);
      const only = jwtSchemes(contract).length === 1 ? "" : ` --scheme ${name}`;
      // Without --scopes the token grants every scope the scheme declares: the flag stays one
      // short line, however many (Jira's scheme has 180), and says how to grant fewer.
      const token = `npm run -s dev:token${only ? ` --${only}` : ""}`;
      say(`${name}: -H "Authorization: Bearer $(${token})"`);
      if (scopes.length > 1)
        say(
          `  (its token grants all ${scopes.length} scopes ${name} declares; fewer: npm run -s dev:token --${only} --scopes ${quote(scopes[0] ?? "")})`,
        );
      continue;
    }
    if ("introspection" in scheme) {
      const pinned = values.get(scheme.introspection.endpoint)?.startsWith("{");
      say(
        pinned
          ? `${name}: -H ${quote(`Authorization: Bearer ${opaqueToken(".", name)}`)}`
          : `${name}: a token of the authorization server at ${scheme.introspection.endpoint}`,
      );
      continue;
    }
    if (scheme.type === "verified") {
      say(`${name}: ${verifiedHint(scheme, values)}`);
      continue;
    }
    const secret = typeof scheme.secret === "string" ? scheme.secret : scheme.secret[0];
    const value = values.get(secret) ?? "";
    const flag =
      scheme.type === "apiKey"
        ? scheme.in === "header"
          ? `-H ${quote(`${scheme.name}: ${value}`)}`
          : scheme.in === "query"
            ? `add ?${scheme.name}=${encodeURIComponent(value)} to the URL`
            : `-b ${quote(`${scheme.name}=${value}`)}`
        : scheme.scheme === "basic"
          ? `-u ${quote(value)}`
          : `-H ${quote(`Authorization: Bearer ${value}`)}`;
    say(`${name}: ${flag}`);
  }
}

/**
 * How to reach a verified scheme locally: curl signs AWS Signature Version 4 itself
 * (`--aws-sigv4`, any region and service: the signature names them), with the access key
 * made in .dev.vars; a client certificate is verified at Cloudflare's edge only; a scheme
 * the deployment's code verifies needs its verifier in src/handlers.ts.
 */
function verifiedHint(scheme: VerifiedScheme, values: ReadonlyMap<string, string>): string {
  if (scheme.verifiedBy === "aws-sigv4") {
    const names =
      typeof scheme.accessKeys === "string" ? [scheme.accessKeys] : (scheme.accessKeys ?? []);
    const pair =
      names.map((n) => values.get(n)?.split("\n")[0]).find(Boolean) ??
      "<ACCESS_KEY_ID>:<SECRET_ACCESS_KEY>";
    // SigV4 sorts the query's parameters; curl 7.x signs them in the order given.
    return `curl --aws-sigv4 'aws:amz:us-east-1:execute-api' --user '${pair}' (AWS Signature Version 4, signed by curl; with curl 7, give the query's parameters in alphabetical order)`;
  }
  if (scheme.verifiedBy === "mutual-tls")
    return "a client certificate, verified by Cloudflare at the edge (mTLS on the zone): wrangler dev has none, so every request is refused";
  return "verified by code: give its verifier in src/handlers.ts (verifiers); until then every request is refused (401)";
}
