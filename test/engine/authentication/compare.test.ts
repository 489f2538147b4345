/**
 * The constant-time comparison (OWASP Authentication Cheat Sheet): both sides are hashed
 * with SHA-256, and the two 32-byte digests are compared with timingSafeEqual whatever the
 * lengths, so neither a shorter nor a longer guess returns early.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { compareWithSecrets } from "../../../src/engine/authentication/compare";

const sameCredential = async (presented: Uint8Array | undefined, expected: string) =>
  (await compareWithSecrets(presented, [expected])).match;

const bytes = (text: string) => new TextEncoder().encode(text);
const EXPECTED = "fixture-expected-credential";

afterEach(() => vi.restoreAllMocks());

describe("compareWithSecrets, one secret", () => {
  it.each([
    ["equal", EXPECTED, true],
    ["unequal, same length", "fixture-expected-credentiaL", false],
    ["unequal, shorter", "fixture", false],
    ["unequal, longer", `${EXPECTED}-and-more`, false],
    ["a prefix", EXPECTED.slice(0, -1), false],
    ["empty", "", false],
  ])("%s", async (_label, presented, equal) => {
    const compare = vi.spyOn(crypto.subtle, "timingSafeEqual");
    expect(await sameCredential(bytes(presented), EXPECTED)).toBe(equal);
    expect(compare).toHaveBeenCalledOnce();
    const [a, b] = compare.mock.calls[0] ?? [];
    expect([a?.byteLength, b?.byteLength]).toEqual([32, 32]);
  });

  it("a missing credential is compared too, and is never equal", async () => {
    const compare = vi.spyOn(crypto.subtle, "timingSafeEqual");
    expect(await sameCredential(undefined, EXPECTED)).toBe(false);
    expect(compare).toHaveBeenCalledOnce();
  });

  it("compares bytes, so a non-ASCII credential matches only itself", async () => {
    expect(await sameCredential(bytes("fixture-ключ"), "fixture-ключ")).toBe(true);
    expect(await sameCredential(bytes("fixture-ключ"), "fixture-ключь")).toBe(false);
  });
});

describe("compareWithSecrets, several secrets (rotation without downtime)", () => {
  const OLD = "fixture-old-credential";
  const NEW = "fixture-new-credential-longer";

  it.each([
    ["the first", OLD, true],
    ["the second", NEW, true],
    ["neither", "fixture-other", false],
  ])(
    "accepts %s, and compares every secret whichever matches",
    async (_label, presented, match) => {
      const compare = vi.spyOn(crypto.subtle, "timingSafeEqual");
      expect((await compareWithSecrets(bytes(presented), [OLD, NEW])).match).toBe(match);
      expect(compare).toHaveBeenCalledTimes(2);
    },
  );

  it("gives the digest of what was presented, never the credential", async () => {
    const { digest } = await compareWithSecrets(bytes(OLD), [OLD]);
    const expected = await crypto.subtle.digest("SHA-256", bytes(OLD));
    expect(new Uint8Array(digest)).toEqual(new Uint8Array(expected));
  });
});
