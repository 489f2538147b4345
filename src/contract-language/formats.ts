/**
 * String formats as JSON Schema 2020-12 validation §7.3 defines them, where zod's own
 * builders are stricter than the RFCs that section cites: a value the standard allows (a
 * document's own example among them) must not be refused. Each is a zod string format, so
 * the JSON Schema zod writes says the format's name (`format: "date-time"`) and nothing else.
 * Each format, the RFC it follows and what zod refuses: src/contract-language/README.md,
 * "String formats".
 */
import { stringFormat } from "zod/mini";

// RFC 3339 §5.6: full-date, with the days of each month and the leap day of leap years.
const DAY =
  "(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))|(?:\\d\\d(?:[2468][048]|[13579][26]|0[48])|(?:[02468][048]|[13579][26])00)-02-29)";
// RFC 3339 §5.6 full-time: seconds up to 60 (§5.7), a fraction, `Z` or an offset.
const TIME =
  "(?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)";
const DATE_TIME = new RegExp(`^${DAY}[Tt]${TIME}$`);

// RFC 5321 §4.1.2, with RFC 5322 §3.2.3's atext.
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const QUOTED = '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"';
// Letters and digits, hyphens only between them (RFC 5321 Ldh-str), written so that no text
// can be matched two ways: a refused value is never retried in other splits.
const LABEL = "[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)*";
const SNUM = "(?:25[0-5]|2[0-4]\\d|[01]?\\d?\\d)";
// IPv4-address-literal, or General-address-literal (whose tag `IPv6` covers IPv6's).
const ADDRESS = `\\[(?:${SNUM}(?:\\.${SNUM}){3}|-*${LABEL}:[\\x21-\\x5a\\x5e-\\x7e]+)\\]`;
const MAILBOX = new RegExp(
  `^(?:${ATOM}(?:\\.${ATOM})*|${QUOTED})@(?:${LABEL}(?:\\.${LABEL})*|${ADDRESS})$`,
);

// RFC 3986 §3 and Appendix A.
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const H16 = "[0-9A-Fa-f]{1,4}";
const DEC_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const LS32 = `(?:${H16}:${H16}|${DEC_OCTET}(?:\\.${DEC_OCTET}){3})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join("|");
const IP_LITERAL = `\\[(?:${IPV6}|v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+)\\]`;
// A reg-name also covers IPv4address, which is one syntactically.
const HOST = `(?:${IP_LITERAL}|(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*)`;
const AUTHORITY = `(?:(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*@)?${HOST}(?::\\d*)?`;
const HIER_PART = `(?://${AUTHORITY}(?:/${PCHAR}*)*|/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR}+(?:/${PCHAR}*)*|)`;
const URI = new RegExp(
  `^[A-Za-z][A-Za-z0-9+\\-.]*:${HIER_PART}(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`,
);

/** A `date-time` (RFC 3339 §5.6, JSON Schema 2020-12 §7.3.1). */
export function dateTimeFormat() {
  return stringFormat("date-time", (value) => DATE_TIME.test(value));
}

/** An `email` (RFC 5321 §4.1.2 `Mailbox`, JSON Schema 2020-12 §7.3.2). */
export function emailFormat() {
  return stringFormat("email", (value) => MAILBOX.test(value));
}

/** A `uri` (RFC 3986 §3 `URI`: absolute, with a scheme; JSON Schema 2020-12 §7.3.5). */
export function uriFormat() {
  return stringFormat("uri", (value) => URI.test(value));
}

/**
 * A JSON Schema `pattern` (2020-12 validation §6.3.3: ECMA-262) as a document wrote it, kept
 * as text. An imported pattern may hold what a linter refuses in a regular expression literal
 * (a control character or `\x00`: Biome's noControlCharactersInRegex), so the importer
 * writes every pattern through this and never as a literal.
 */
export const pattern = (source: string, flags?: string): RegExp => new RegExp(source, flags);
