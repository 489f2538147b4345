/**
 * `npm run dev:token -- [--scheme <name>] [--scopes "a b"] [--sub <subject>] [--ttl <seconds>]`:
 * prints an access token of the local issuer (test/tools/dev-credentials.ts) for one of
 * part 5's JWT schemes, for `wrangler dev` only: `curl -H "Authorization: Bearer $(npm run
 * -s dev:token)" …`. Without `--scopes`, the token grants every scope the scheme declares;
 * `--scopes ""` grants none (to see a 403). Exit status 2 on bad usage, 1 when no token can
 * be made (no such scheme, or .dev.vars trusts another issuer for it).
 */
import { contract as shipped } from "../../src/contract";
import type { Contract } from "../../src/contract-language/contract";
import { ensureDevVars, jwtSchemes, mintToken } from "./dev-credentials";

/** The shipped contract, read as any contract: it may declare nothing yet. */
const contract: Contract = shipped;

const USAGE =
  'usage: npm run dev:token -- [--scheme <name>] [--scopes "a b"] [--sub <subject>] [--ttl <seconds>]';
const argv = process.argv.slice(2);
const option = (name: string) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? undefined : argv[at + 1];
};
const known = new Set(["--scheme", "--scopes", "--sub", "--ttl"]);
const unknown = argv.filter((arg, i) => arg.startsWith("--") && !known.has(arg) && i % 2 === 0);
const ttl = option("ttl");
if (unknown.length > 0 || argv.length % 2 !== 0 || (ttl !== undefined && !/^\d+$/.test(ttl))) {
  console.error(USAGE);
  process.exit(2);
}
const schemes = jwtSchemes(contract).map(([name]) => name);
const scheme = option("scheme") ?? (schemes.length === 1 ? schemes[0] : undefined);
if (!scheme) {
  console.error(
    schemes.length === 0
      ? "dev:token: part 5 declares no JWT scheme (OAuth 2, OpenID Connect or bearer JWT)"
      : `dev:token: name the scheme with --scheme (${schemes.join(", ")})`,
  );
  process.exit(1);
}
try {
  await ensureDevVars(contract);
  const scopes = option("scopes");
  console.log(
    await mintToken(contract, scheme, {
      ...(scopes === undefined ? {} : { scopes: scopes.split(/\s+/).filter(Boolean) }),
      ...(option("sub") ? { subject: option("sub") } : {}),
      ...(ttl ? { ttlSeconds: Number(ttl) } : {}),
    }),
  );
} catch (error) {
  console.error(`dev:token: ${(error as Error).message}`);
  process.exit(1);
}
