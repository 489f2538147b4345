/**
 * What a client sends of part 5 and part 9: the credentials of the first requirement it
 * holds every credential of, each where its scheme says (a header, the query or a cookie
 * for an API key; `Authorization` for bearer, RFC 6750 §2.1, and basic, RFC 7617), and the
 * version part 9 negotiates, wherever its placement puts it. Against the FIXTURE security
 * and versions apps, called as service bindings inside workerd.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createApp } from "../../src/app";
import { BUILD_ENGINE } from "../../src/build-engine";
import { createClient } from "../../src/client";
import type { VersionPlacement } from "../../src/contract-language/contract";
import { FIXTURE_SECRETS, FIXTURE_SECURITY_CONTRACT } from "../fixtures/security";
import { FIXTURE_VERSIONS_HANDLERS, fixtureVersionsContract } from "../fixtures/versions";
import { bindingOf } from "../support/client-binding";
import { securityApp } from "../support/security-app";

const binding = bindingOf(securityApp());
const secured = (
  credentials: Parameters<typeof createClient<typeof FIXTURE_SECURITY_CONTRACT>>[1]["credentials"],
) => createClient(FIXTURE_SECURITY_CONTRACT, { binding, credentials, checkAnswers: true });

describe("credentials (part 5)", () => {
  const all = secured({
    fixturePartnerKey: FIXTURE_SECRETS.FIXTURE_PARTNER_KEY,
    fixtureQueryKey: FIXTURE_SECRETS.FIXTURE_QUERY_KEY,
    fixtureCookieKey: FIXTURE_SECRETS.FIXTURE_COOKIE_KEY,
    fixtureToken: () => FIXTURE_SECRETS.FIXTURE_BEARER_TOKEN,
    fixtureBasic: FIXTURE_SECRETS.FIXTURE_BASIC_CREDENTIALS,
  });

  it("an API key in a header, the query and a cookie, a bearer token and basic credentials are each let in", async () => {
    for (const call of [
      () => all.fixtureByHeader(),
      () => all.fixtureByQuery(),
      () => all.fixtureByCookie(),
      () => all.fixtureByBearer(),
      () => all.fixtureByBasic(),
      () => all.fixtureBoth(),
    ])
      expect((await call()).status).toBe(200);
  });

  it("keeps the credential out of what the handler sees (the platform hides it from the schemas)", async () => {
    const answer = await all.fixtureByQuery({ query: { other: "x" } });
    expect(answer.status).toBe(200);
    if (answer.status !== 200) return;
    expect(answer.body.seen).toContain("other");
    expect(answer.body.seen).not.toContain("fixture_key");
    expect(new URL(binding.sent.at(-1)?.url ?? "").searchParams.get("fixture_key")).toBe(
      FIXTURE_SECRETS.FIXTURE_QUERY_KEY,
    );
  });

  it("uses the first requirement it can satisfy: basic, where it holds no bearer token", async () => {
    const basicOnly = secured({ fixtureBasic: FIXTURE_SECRETS.FIXTURE_BASIC_CREDENTIALS });
    expect((await basicOnly.fixtureEither()).status).toBe(200);
    expect(binding.sent.at(-1)?.headers.get("authorization")).toMatch(/^Basic /);
  });

  it("sends none it does not hold, and reads the 401 with its challenge (RFC 9110 §11.6.1)", async () => {
    const answer = await secured({}).fixtureByBearer();
    expect(answer.status).toBe(401);
    if (answer.status !== 401) return;
    expect(answer.body.type).toBe("/_service/problems/authentication-required");
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(binding.sent.at(-1)?.headers.has("authorization")).toBe(false);
  });

  it("a wrong credential gets the same 401, and a public operation needs none", async () => {
    expect((await secured({ fixtureToken: "wrong" }).fixtureByBearer()).status).toBe(401);
    expect((await secured({}).fixturePublic()).status).toBe(200);
  });

  it("reads the 413 of a body over part 8's cap", async () => {
    const answer = await all.fixtureUpload({ body: { note: "x".repeat(100) } });
    expect(answer.status).toBe(413);
    if (answer.status === 413) expect(answer.body.maxBytes).toBe(64);
  });
});

const versionsApp = (placement: VersionPlacement) =>
  createApp(fixtureVersionsContract(placement), {
    engine: BUILD_ENGINE,
    handlers: FIXTURE_VERSIONS_HANDLERS,
    jsonSchema: z.toJSONSchema,
  });

describe("the version (part 9), wherever its placement puts it", () => {
  const placements: readonly [VersionPlacement, (request: Request) => string | null][] = [
    [{ in: "header", name: "Api-Version" }, (r) => r.headers.get("api-version")],
    [{ in: "query", name: "api-version" }, (r) => new URL(r.url).searchParams.get("api-version")],
    [{ in: "media-type", parameter: "version" }, (r) => r.headers.get("accept")],
    [{ in: "path" }, (r) => new URL(r.url).pathname],
  ];

  for (const [placement, where] of placements)
    it(`in ${placement.in}: the current one by default, or the one asked for`, async () => {
      const binding = bindingOf(versionsApp(placement));
      const api = createClient(fixtureVersionsContract(placement), { binding });
      expect(await api.fixtureEveryVersion()).toMatchObject({
        status: 200,
        body: { version: "v2" },
      });
      expect(where(binding.sent.at(-1) as Request)).toContain("v2");
      const v1 = await api.fixtureEveryVersion({}, { version: "v1" });
      expect(v1).toMatchObject({ status: 200, body: { version: "v1" } });
      // RFC 9745: a deprecated version's answers say so.
      expect(v1.headers.get("deprecation")).toMatch(/^@\d+$/);
    });

  it("sends a variant's body in the version that has it, and reads the 410 of a version past its sunset (RFC 8594)", async () => {
    const placement = { in: "header", name: "Api-Version" } as const;
    const api = createClient(fixtureVersionsContract(placement), {
      binding: bindingOf(versionsApp(placement)),
      version: "v1",
      checkAnswers: true,
    });
    const created = await api.fixtureCreateThing({ body: { name: "old" } });
    expect(created).toMatchObject({ status: 201, body: { name: "old" } });
    const gone = await api.fixtureEveryVersion({}, { version: "v0" });
    expect(gone.status).toBe(410);
    if (gone.status === 410) expect(gone.body.type).toBe("/_service/problems/version-gone");
  });
});
