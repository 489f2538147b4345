/**
 * Standard Webhooks interoperability of the signer and the exported verifier
 * (src/engine/events/signature.ts): the specification's published test vectors, and the
 * reference `standardwebhooks` package in both directions. Keys are made per test.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "../../../src/engine/events/signature";
import { STANDARD_WEBHOOKS_VECTORS } from "../../fixtures/webhooks/standard-webhooks-vectors";

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const headersOf = (id: string, timestamp: number, signature: string) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature,
});
const BODY = JSON.stringify({
  type: "fixture.happened",
  timestamp: "2026-11-22T00:00:00.000Z",
  data: { n: 1 },
});

describe("Standard Webhooks signatures", () => {
  it("are exported for receivers as contract-edge-service/webhooks", async () => {
    const exported = await import("contract-edge-service/webhooks");
    expect(exported.verifyWebhook).toBe(verifyWebhook);
    expect(exported.signWebhook).toBe(signWebhook);
  });

  it("reproduce the specification's published test vectors", async () => {
    for (const v of STANDARD_WEBHOOKS_VECTORS) {
      expect(await signWebhook([v.secret], v.id, v.timestamp, v.body)).toBe(v.signature);
      const verified = await verifyWebhook(
        v.secret,
        headersOf(v.id, v.timestamp, v.signature),
        v.body,
        {
          now: v.timestamp * 1000,
        },
      );
      expect(verified).toEqual({ ok: true, id: v.id, timestamp: v.timestamp });
    }
  });

  it("ours are verified by the reference package", async () => {
    const secret = newSecret();
    const now = Math.floor(Date.now() / 1000);
    const signature = await signWebhook([secret], "msg_ours", now, BODY);
    expect(new Webhook(secret).verify(BODY, headersOf("msg_ours", now, signature))).toEqual(
      JSON.parse(BODY),
    );
    // A different key refuses it: the check above could fail.
    expect(() =>
      new Webhook(newSecret()).verify(BODY, headersOf("msg_ours", now, signature)),
    ).toThrow();
  });

  it("the reference package's are verified by ours", async () => {
    const secret = newSecret();
    const now = new Date();
    const signature = new Webhook(secret).sign("msg_theirs", now, BODY);
    const stamp = Math.floor(now.getTime() / 1000);
    expect((await verifyWebhook(secret, headersOf("msg_theirs", stamp, signature), BODY)).ok).toBe(
      true,
    );
    expect(
      await verifyWebhook(newSecret(), headersOf("msg_theirs", stamp, signature), BODY),
    ).toEqual({
      ok: false,
      reason: "no-matching-signature",
    });
  });

  it("sign with every key while one is rotated, and either key verifies (ours and theirs)", async () => {
    const [before, after] = [newSecret(), newSecret()];
    const now = Math.floor(Date.now() / 1000);
    const signature = await signWebhook([before, after], "msg_rotated", now, BODY);
    expect(signature.split(" ")).toHaveLength(2);
    for (const secret of [before, after]) {
      expect((await verifyWebhook(secret, headersOf("msg_rotated", now, signature), BODY)).ok).toBe(
        true,
      );
      expect(() =>
        new Webhook(secret).verify(BODY, headersOf("msg_rotated", now, signature)),
      ).not.toThrow();
    }
    // A receiver holding both keys accepts a signature made with only the new one.
    const newOnly = await signWebhook([after], "msg_rotated", now, BODY);
    expect(
      (await verifyWebhook([before, after], headersOf("msg_rotated", now, newOnly), BODY)).ok,
    ).toBe(true);
  });

  it("refuse a tampered body, another id, and a timestamp more than five minutes away", async () => {
    const secret = newSecret();
    const now = Math.floor(Date.now() / 1000);
    const signature = await signWebhook([secret], "msg_1", now, BODY);
    const verify = (id: string, stamp: number, body = BODY, sig = signature) =>
      verifyWebhook(secret, headersOf(id, stamp, sig), body, { now: now * 1000 });
    expect((await verify("msg_1", now)).ok).toBe(true);
    expect(await verify("msg_1", now, `${BODY} `)).toMatchObject({
      reason: "no-matching-signature",
    });
    expect(await verify("msg_2", now)).toMatchObject({ reason: "no-matching-signature" });
    const old = now - 301;
    const oldSig = await signWebhook([secret], "msg_1", old, BODY);
    expect(await verify("msg_1", old, BODY, oldSig)).toMatchObject({ reason: "timestamp-too-old" });
    const ahead = now + 301;
    const aheadSig = await signWebhook([secret], "msg_1", ahead, BODY);
    expect(await verify("msg_1", ahead, BODY, aheadSig)).toMatchObject({
      reason: "timestamp-too-new",
    });
    const edge = now - 300;
    expect(
      (await verify("msg_1", edge, BODY, await signWebhook([secret], "msg_1", edge, BODY))).ok,
    ).toBe(true);
    expect(await verifyWebhook(secret, {}, BODY)).toEqual({ ok: false, reason: "missing-headers" });
    expect(
      await verifyWebhook(secret, headersOf("msg_1", Number.NaN, signature), BODY),
    ).toMatchObject({
      reason: "invalid-timestamp",
    });
  });

  it("read headers from a Headers object, as a receiving Worker has them", async () => {
    const secret = newSecret();
    const now = Math.floor(Date.now() / 1000);
    const signature = await signWebhook([secret], "msg_h", now, BODY);
    const headers = new Headers(headersOf("msg_h", now, signature));
    expect((await verifyWebhook(secret, headers, BODY)).ok).toBe(true);
  });
});
