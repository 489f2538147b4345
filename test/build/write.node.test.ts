/**
 * Which builds give the Worker the answers of operations without a handler (the examples'
 * and the sandbox's): every build but an upload's, and an upload's only when wrangler.toml
 * asks for them (src/build/write.ts, `unhandledAnswersWanted`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tenancyRefusal, unhandledAnswersWanted, uploadRefusal } from "../../src/build/write";

const dir = mkdtempSync(join(tmpdir(), "unhandled-answers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A FIXTURE wrangler.toml with `text`, its path. */
function toml(name: string, text: string): string {
  const file = join(dir, `${name}.toml`);
  writeFileSync(file, `name = "fixture"\nmain = "src/index.ts"\n${text}`);
  return file;
}

describe("the build gives the answers of operations without a handler", () => {
  const answers501 = toml("501", '[vars]\nUNHANDLED_OPERATIONS = "501"\n');

  it.each([undefined, "dev", "types"])(
    "always where --var or .dev.vars may ask for them (WRANGLER_COMMAND %j)",
    (command) => {
      expect(unhandledAnswersWanted(command, answers501)).toBe(true);
    },
  );

  it.each(["deploy", "versions upload"])(
    "to an upload (%s) only when wrangler.toml sets examples or sandbox, in any [vars]",
    (command) => {
      expect(unhandledAnswersWanted(command, answers501)).toBe(false);
      expect(unhandledAnswersWanted(command, toml("none", "[vars]\n"))).toBe(false);
      expect(unhandledAnswersWanted(command, join(dir, "absent.toml"))).toBe(false);
      expect(
        unhandledAnswersWanted(command, toml("commented", '# UNHANDLED_OPERATIONS = "sandbox"\n')),
      ).toBe(false);
      expect(
        unhandledAnswersWanted(
          command,
          toml("examples", "[vars]\nUNHANDLED_OPERATIONS = 'examples'\n"),
        ),
      ).toBe(true);
      expect(
        unhandledAnswersWanted(
          command,
          toml("env", '[env.staging.vars]\n  UNHANDLED_OPERATIONS = "sandbox"\n'),
        ),
      ).toBe(true);
    },
  );
});

describe("an upload whose wrangler.toml sets the loopback deliveries of npm run dev (OWASP SSRF Prevention)", () => {
  const local = toml("local", '[vars]\nWEBHOOK_LOCAL_DELIVERY = "loopback"\n');

  it.each(["deploy", "versions upload"])("is refused by the build (%s)", (command) => {
    expect(uploadRefusal(command, local)).toMatch(
      /sets WEBHOOK_LOCAL_DELIVERY, which only npm run dev may set/,
    );
    expect(uploadRefusal(command, toml("plain", "[vars]\n"))).toBeUndefined();
  });

  it.each([undefined, "dev", "types"])(
    "is no concern of any other build (WRANGLER_COMMAND %j)",
    (command) => {
      expect(uploadRefusal(command, local)).toBeUndefined();
    },
  );
});

describe("wrangler.toml's STORE_TENANCY (src/mocks/sandbox/tenancy.ts)", () => {
  it.each([
    ['STORE_TENANCY = "tenant"', "tenant"],
    ["STORE_TENANCY = 'claim:'", "empty"],
    ['  STORE_TENANCY = "scheme:a b" # the users', "spaced"],
  ])("that is none of its settings is refused by the build (%s)", (line, name) => {
    expect(tenancyRefusal(toml(`tenancy-${name}`, `[env.production.vars]\n${line}\n`))).toMatch(
      /^build: wrangler\.toml sets STORE_TENANCY = .*; STORE_TENANCY must be sandbox, deployment, claim:<name> or scheme:<name>$/,
    );
  });

  it.each(["sandbox", "deployment", "claim:tenant", "scheme:tenantKey"])(
    "%s is let through",
    (setting) => {
      expect(
        tenancyRefusal(toml(`tenancy-${setting}`, `[vars]\nSTORE_TENANCY = "${setting}" # ok\n`)),
      ).toBeUndefined();
    },
  );
});
