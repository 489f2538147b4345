/**
 * The string formats of src/contract-language/formats.ts, held to JSON Schema 2020-12 §7.3 and the
 * RFCs it cites: what the standard allows is accepted (where zod's own builder refuses it),
 * what it does not is refused, the JSON Schema says the format's name alone, and a long
 * refused value costs no more than a long accepted one. Also: a `uuid` is `z.guid()`.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { dateTimeFormat, emailFormat, uriFormat } from "../../src/contract-language/formats";
import { describeIssue } from "../../src/engine/zod/issues";

const accepts = (schema: z.ZodMiniType, value: string) => z.safeParse(schema, value).success;

describe("uuid (RFC 9562 §4, JSON Schema 2020-12 §7.3.5): z.guid()", () => {
  it("accepts the hex form of every version and variant, nil, max and upper case; refuses any other form", () => {
    const hex = "0123456789abcdef";
    for (const version of hex)
      for (const variant of hex) {
        const id = `c232ab00-9414-${version}1ec-${variant}3c8-9f6bdeced846`;
        expect([id, accepts(z.guid(), id)]).toEqual([id, true]);
      }
    for (const id of [
      "00000000-0000-0000-0000-000000000000",
      "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    ])
      expect(accepts(z.guid(), id)).toBe(true);
    for (const id of [
      "c232ab0094141ec03c89f6bdeced846",
      "{c232ab00-9414-11ec-b3c8-9f6bdeced846}",
      "c232ab00-9414-11ec-b3c8-9f6bdeced84g",
    ])
      expect([id, accepts(z.guid(), id)]).toEqual([id, false]);
    expect(z.toJSONSchema(z.guid())).toMatchObject({ type: "string", format: "uuid" });
  });

  it("is called a uuid, never a guid, in a 422's detail", () => {
    const issue = z.safeParse(z.guid(), "x").error?.issues[0];
    expect(issue && describeIssue(issue)).toBe("Must be a valid uuid.");
  });
});

describe("date-time (RFC 3339 §5.6, JSON Schema 2020-12 §7.3.1)", () => {
  it("accepts lower-case t and z (§5.6's note), a leap second (§5.7), fractions and offsets; refuses what RFC 3339 does", () => {
    for (const value of [
      "2024-02-29T12:00:00Z",
      "2024-02-29t12:00:00z",
      "2016-12-31T23:59:60Z",
      "2000-02-29T00:00:00.123456789+14:00",
      "2024-01-01T00:00:00-00:00",
    ])
      expect([value, accepts(dateTimeFormat(), value)]).toEqual([value, true]);
    for (const value of [
      "2023-02-29T12:00:00Z",
      "1900-02-29T00:00:00Z",
      "2024-01-01T12:00Z",
      "2024-01-01T12:00:00",
      "2024-01-01T12:00:00+0100",
      "2024-01-01 12:00:00Z",
      "2024-13-01T00:00:00Z",
      "2024-01-01T24:00:00Z",
    ])
      expect([value, accepts(dateTimeFormat(), value)]).toEqual([value, false]);
  });
});

describe("email (RFC 5321 §4.1.2 Mailbox, JSON Schema 2020-12 §7.3.2)", () => {
  it("accepts any atext, a quoted local part, a one-label domain and address literals; refuses what Mailbox does not allow", () => {
    for (const value of [
      "a@example.com",
      "a!#$%&'*+/=?^_`{|}~-b@example.com",
      '"john doe"@example.com',
      '"a\\"b"@example.com',
      "user@localhost",
      "a@b.c1",
      "user@[192.0.2.1]",
      "user@[IPv6:2001:db8::1]",
    ])
      expect([value, accepts(emailFormat(), value)]).toEqual([value, true]);
    for (const value of [
      "nope",
      "a@",
      "@example.com",
      "a..b@example.com",
      ".a@example.com",
      "a.@example.com",
      "a@-example.com",
      "a@example-.com",
      "a@b@c",
      "a b@example.com",
      "user@[300.0.0.1]",
    ])
      expect([value, accepts(emailFormat(), value)]).toEqual([value, false]);
  });
});

describe("uri (RFC 3986 §3, JSON Schema 2020-12 §7.3.5)", () => {
  it("accepts absolute URIs of any scheme, a reg-name that looks like no address, IPv6 and IPvFuture literals; refuses relative references and what RFC 3986 has no place for", () => {
    for (const value of [
      "https://fixture.test/a?b=c#d",
      "http:",
      "urn:isbn:0451450523",
      "mailto:a@b",
      "http://999.999.999.999/",
      "foo://[v1.fe]/",
      "http://[::ffff:192.0.2.1]:8080/",
      "http://u:p@h:80/p",
      "http://%41.example/",
    ])
      expect([value, accepts(uriFormat(), value)]).toEqual([value, true]);
    for (const value of [
      "/relative",
      "//host",
      "http://a/b c",
      "x:%zz",
      "1http://x",
      "http://[1::2::3]/",
      "http://a/<b>",
      "not a uri",
    ])
      expect([value, accepts(uriFormat(), value)]).toEqual([value, false]);
  });
});

describe("each", () => {
  it("is written as its format's name alone in JSON Schema", () => {
    for (const [format, schema] of [
      ["date-time", dateTimeFormat()],
      ["email", emailFormat()],
      ["uri", uriFormat()],
    ] as const)
      expect(z.toJSONSchema(schema)).toEqual({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "string",
        format,
      });
  });

  // workerd's clock stands still while code runs, so the bound is the test's own timeout:
  // a pattern that backtracks quadratically would take minutes over these values.
  it("refuses 200 000-character values shaped to make a pattern backtrack, within the test's 10 s", () => {
    const long = "a".repeat(200_000);
    const shaped = [
      `${long}!`,
      `a@${"a-".repeat(100_000)}`,
      `http://${long}@@`,
      `${"1".repeat(200_000)}-`,
    ];
    for (const schema of [dateTimeFormat(), emailFormat(), uriFormat()])
      for (const value of shaped) expect(accepts(schema, value)).toBe(false);
  }, 10_000);
});
