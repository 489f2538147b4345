/**
 * String formats (JSON Schema 2020-12 §7.3 and the OpenAPI format registry): for each, a
 * maker of a string of that format within a length range, and a test of whether a string
 * is of it. The tests read formats as strictly as the stricter of ajv-formats ("full") and
 * @cfworker/json-schema, so an example the generator keeps passes both. An unknown format
 * is an annotation only (§7.2.1): any string does.
 */
import type { Random } from "./random";

interface Format {
  /** A string of the format with `lo` to `hi` code points, or undefined when none has. */
  readonly make: (rand: Random, lo: number, hi: number) => string | undefined;
  /** Whether `text` is of the format. */
  readonly test: (text: string) => boolean;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const WORDS = [
  "amber",
  "basil",
  "cedar",
  "delta",
  "ember",
  "fjord",
  "grove",
  "harbor",
  "indigo",
  "juniper",
  "kestrel",
  "lumen",
  "maple",
  "nova",
  "orbit",
  "pixel",
  "quartz",
  "river",
  "sierra",
  "tundra",
  "umber",
  "velvet",
  "willow",
  "yonder",
  "zephyr",
];

function chars(rand: Random, alphabet: string, n: number): string {
  let out = "";
  for (let i = 0; i < n; i += 1) out += alphabet[rand.int(0, alphabet.length - 1)];
  return out;
}

const letters = (rand: Random, n: number): string => chars(rand, LETTERS, n);
const two = (n: number): string => String(n).padStart(2, "0");

/**
 * A length within [lo, hi] and what the format can make [min, max], as near to the
 * preferred range as it can be; undefined when the two ranges do not meet.
 */
export function pickLength(
  rand: Random,
  bounds: readonly [lo: number, hi: number],
  can: readonly [min: number, max: number],
  preferred: readonly [lo: number, hi: number],
): number | undefined {
  const lo = Math.max(bounds[0], can[0]);
  const hi = Math.min(bounds[1], can[1]);
  if (lo > hi) return undefined;
  const plo = Math.max(lo, preferred[0]);
  const phi = Math.min(hi, preferred[1]);
  if (plo <= phi) return rand.int(plo, phi);
  return preferred[1] < lo ? lo : hi;
}

/** Readable text (words) of exactly `n` code points, with no space at either end. */
export function plainText(rand: Random, n: number): string {
  let text = rand.pick(WORDS);
  while (text.length < n) text += ` ${rand.pick(WORDS)}`;
  text = text.slice(0, n);
  return text.endsWith(" ") ? `${text.slice(0, -1)}s` : text;
}

/** A hostname of exactly `n` characters (1 to 253); one with a dot from 3 on. */
function hostname(rand: Random, n: number): string {
  if (n >= 11 && n !== 12) return n === 11 ? "example.com" : `${labels(rand, n - 12)}.example.com`;
  if (n < 3) return letters(rand, n);
  const top = Math.min(3, n - 2);
  return `${labels(rand, n - top - 1)}.${letters(rand, top)}`;
}

/** Dot-separated labels of 1 to 63 letters, `n` characters in all (n ≥ 1). */
function labels(rand: Random, n: number): string {
  if (n <= 63) return letters(rand, n);
  const first = Math.min(63, n - 2);
  return `${letters(rand, first)}.${labels(rand, n - first - 1)}`;
}

function randomDate(rand: Random): string {
  return `${rand.int(2000, 2030)}-${two(rand.int(1, 12))}-${two(rand.int(1, 28))}`;
}

function randomTime(rand: Random): string {
  return `${two(rand.int(0, 23))}:${two(rand.int(0, 59))}:${two(rand.int(0, 59))}`;
}

/** Bytes as base64 (RFC 4648 §4, padded); written here, as `btoa` wants a binary string. */
export function base64(bytes: readonly number[]): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = bytes.slice(i, i + 3);
    const n = (a << 16) | (b << 8) | c;
    out += BASE64[(n >> 18) & 63];
    out += BASE64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : "=";
    out += i + 2 < bytes.length ? BASE64[n & 63] : "=";
  }
  return out;
}

/** A code point string's UTF-8 bytes (no TextEncoder, so no runtime type is assumed). */
export function utf8(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else {
      bytes.push(
        0xf0 | (c >> 18),
        0x80 | ((c >> 12) & 63),
        0x80 | ((c >> 6) & 63),
        0x80 | (c & 63),
      );
    }
  }
  return bytes;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const last = month === 2 && !leap ? 28 : (DAYS[month - 1] ?? 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= last;
}

function isTime(text: string): boolean {
  const match = /^(\d\d):(\d\d):(\d\d)(\.\d+)?(z|[+-](\d\d):(\d\d))$/i.exec(text);
  if (!match) return false;
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return (
    h <= 23 && m <= 59 && s <= 59 && Number(match[6] ?? 0) <= 23 && Number(match[7] ?? 0) <= 59
  );
}

function isIpv4(text: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(
    text,
  );
}

function isIpv6(text: string): boolean {
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = halves.map((half) => (half === "" ? [] : half.split(":")));
  const all = groups.flat();
  const last = all[all.length - 1];
  const v4 = typeof last === "string" && last.includes(".");
  if (v4 && !isIpv4(last)) return false;
  const hex = v4 ? all.slice(0, -1) : all;
  if (!hex.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  const count = hex.length + (v4 ? 2 : 0);
  return halves.length === 2 ? count <= 7 : count === 8;
}

const URI_CHARS = /^(?:[a-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9a-f]{2})*$/i;
const isUri = (text: string): boolean =>
  /^[a-z][a-z0-9+\-.]*:./i.test(text) && URI_CHARS.test(text);
const isEmail = (text: string): boolean => {
  const at = text.lastIndexOf("@");
  const local = text.slice(0, at);
  return (
    /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(
      text,
    ) &&
    local.length <= 64 &&
    isHostname(text.slice(at + 1))
  );
};
const isHostname = (text: string): boolean =>
  text.length <= 253 &&
  /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*$/i.test(text);

function ipv4(rand: Random, lo: number, hi: number): string | undefined {
  const length = pickLength(rand, [lo, hi], [7, 15], [7, 15]);
  if (length === undefined) return undefined;
  const digits = [1, 1, 1, 1];
  for (let rest = length - 7; rest > 0; rest -= 1) {
    const open = [0, 1, 2, 3].filter((i) => (digits[i] as number) < 3);
    const i = rand.pick(open);
    digits[i] = (digits[i] as number) + 1;
  }
  const octet = (d: number) =>
    d === 1 ? rand.int(0, 9) : d === 2 ? rand.int(10, 99) : rand.int(100, 255);
  return digits.map(octet).join(".");
}

function ipv6(rand: Random, lo: number, hi: number): string | undefined {
  const length = pickLength(rand, [lo, hi], [2, 39], [39, 39]);
  if (length === undefined) return undefined;
  const group = (n: number) => chars(rand, HEX, n);
  if (length >= 15) {
    const sizes = [1, 1, 1, 1, 1, 1, 1, 1];
    for (let rest = length - 15; rest > 0; rest -= 1) {
      const i = rand.pick([0, 1, 2, 3, 4, 5, 6, 7].filter((j) => (sizes[j] as number) < 4));
      sizes[i] = (sizes[i] as number) + 1;
    }
    return sizes.map(group).join(":");
  }
  // Shorter: "::" then groups, the first costing its digits, each next one a ":" more.
  const parts: string[] = [];
  for (let rest = length - 2; rest > 0; ) {
    const cost = parts.length === 0 ? 0 : 1;
    let size = Math.min(4, rest - cost);
    if (rest - cost - size === 1) size -= 1;
    parts.push(group(size));
    rest -= size + cost;
  }
  return `::${parts.join(":")}`;
}

function email(rand: Random, lo: number, hi: number): string | undefined {
  const length = pickLength(rand, [lo, hi], [5, 64 + 1 + 253], [14, 24]);
  if (length === undefined) return undefined;
  const local = Math.min(64, Math.max(1, length - 12));
  return `${letters(rand, local)}@${hostname(rand, length - 1 - local)}`;
}

function uri(rand: Random, lo: number, hi: number): string | undefined {
  const length = pickLength(rand, [lo, hi], [3, 2000], [24, 40]);
  if (length === undefined) return undefined;
  if (length >= 20) return `https://example.com/${letters(rand, length - 20)}`;
  if (length >= 9) return `https://${hostname(rand, length - 8)}`;
  return length >= 5 ? `urn:${letters(rand, length - 4)}` : `a:${letters(rand, length - 2)}`;
}

/** Makers of fixed-length strings: one shape, one length. */
function fixed(length: number, make: (rand: Random) => string) {
  return (rand: Random, lo: number, hi: number): string | undefined =>
    lo <= length && length <= hi ? make(rand) : undefined;
}

/** `prefix` then letters, `min` or more characters in all. */
function prefixed(prefix: string, min: number, preferred: readonly [number, number]) {
  return (rand: Random, lo: number, hi: number): string | undefined => {
    const length = pickLength(rand, [lo, hi], [min, 4096], preferred);
    if (length === undefined) return undefined;
    return (prefix + letters(rand, Math.max(0, length - prefix.length))).slice(0, length);
  };
}

function dateTime(rand: Random, lo: number, hi: number): string | undefined {
  const length = lo <= 20 && 20 <= hi ? 20 : pickLength(rand, [lo, hi], [22, 60], [24, 24]);
  if (length === undefined) return undefined;
  const fraction = length > 20 ? `.${chars(rand, "0123456789", length - 21)}` : "";
  return `${randomDate(rand)}T${randomTime(rand)}${fraction}Z`;
}

function uuid(rand: Random): string {
  const hex = chars(rand, HEX, 32).split("");
  hex[12] = "4";
  hex[16] = "89ab"[rand.int(0, 3)] as string;
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function bytes(rand: Random, lo: number, hi: number): string | undefined {
  const length = pickLength(rand, [Math.ceil(lo / 4), Math.floor(hi / 4)], [0, 1024], [3, 6]);
  if (length === undefined) return undefined;
  return base64(Array.from({ length: length * 3 }, () => rand.int(0, 255)));
}

function duration(rand: Random, lo: number, hi: number): string | undefined {
  const shapes = ["P1D", "PT30M", "P3DT4H", "P1Y2M10D", "PT1H30M", "P2W"];
  const fits = shapes.filter((s) => lo <= s.length && s.length <= hi);
  if (fits.length > 0) return rand.pick(fits);
  const length = pickLength(rand, [lo, hi], [3, 64], [3, 3]);
  return length === undefined ? undefined : `P${chars(rand, "123456789", length - 2)}D`;
}

function text(rand: Random, lo: number, hi: number): string | undefined {
  const length = pickLength(rand, [lo, hi], [0, 1_000_000], [5, 16]);
  return length === undefined ? undefined : plainText(rand, length);
}

const URI_TEMPLATE =
  /^(?:(?:[^"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
const BASE64_TEXT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const always = (): boolean => true;

function compiles(source: string): boolean {
  try {
    new RegExp(source, "u");
    return !/[^\\]\\Z/.test(source);
  } catch {
    return false;
  }
}

const EMAIL: Format = { make: email, test: isEmail };
const HOSTNAME: Format = {
  make: (rand, lo, hi) => {
    const length = pickLength(rand, [lo, hi], [1, 253], [11, 20]);
    return length === undefined ? undefined : hostname(rand, length);
  },
  test: isHostname,
};
const URI: Format = { make: uri, test: (t) => isUri(t) && /[/:]/.test(t) };
const URI_REFERENCE: Format = { make: prefixed("/", 0, [6, 16]), test: (t) => URI_CHARS.test(t) };
const TEXT: Format = { make: text, test: always };

/** The formats it knows, by name. */
export const FORMATS: Readonly<Record<string, Format>> = {
  "date-time": {
    make: dateTime,
    test: (t) => {
      const [date, time, extra] = t.split(/t/i);
      return (
        extra === undefined &&
        date !== undefined &&
        time !== undefined &&
        isDate(date) &&
        isTime(time)
      );
    },
  },
  date: { make: fixed(10, randomDate), test: isDate },
  time: { make: fixed(9, (rand) => `${randomTime(rand)}Z`), test: isTime },
  duration: {
    make: duration,
    test: (t) =>
      /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/.test(t) &&
      /^P(?:\d+W|(?:(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)))$/.test(
        t,
      ),
  },
  email: EMAIL,
  "idn-email": EMAIL,
  hostname: HOSTNAME,
  "idn-hostname": HOSTNAME,
  ipv4: { make: ipv4, test: isIpv4 },
  ipv6: { make: ipv6, test: isIpv6 },
  uri: URI,
  iri: URI,
  url: {
    make: (rand, lo, hi) => {
      const length = pickLength(rand, [lo, hi], [19, 2000], [24, 40]);
      if (length === undefined) return undefined;
      return length === 19
        ? "https://example.com"
        : `https://example.com/${letters(rand, length - 20)}`;
    },
    test: (t) => /^(?:https?|ftp):\/\/[^\s/?#]+\.[a-z]{2,}(?:[/?#]\S*)?$/i.test(t),
  },
  "uri-reference": URI_REFERENCE,
  "iri-reference": URI_REFERENCE,
  "uri-template": {
    make: (rand, lo, hi) => {
      if (lo <= 30 && 30 <= hi) return "https://example.com/items/{id}";
      const length = pickLength(rand, [lo, hi], [4, 4096], [12, 12]);
      if (length === undefined) return undefined;
      return length === 4 ? "{id}" : `/${letters(rand, length - 5)}{id}`;
    },
    // Outside expressions, no control character, space or DEL (RFC 6570 §2.1).
    test: (t) => ![...t].some((c) => c <= " " || c === "\u007f") && URI_TEMPLATE.test(t),
  },
  uuid: {
    make: fixed(36, uuid),
    test: (t) => /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(t),
  },
  byte: { make: bytes, test: (t) => BASE64_TEXT.test(t) },
  binary: TEXT,
  password: TEXT,
  regex: {
    make: (rand, lo, hi) => {
      if (lo <= 8 && 8 <= hi) return "^[a-z]+$";
      const length = pickLength(rand, [lo, hi], [0, 4096], [1, 1]);
      return length === undefined ? undefined : letters(rand, length);
    },
    test: compiles,
  },
  "json-pointer": {
    make: prefixed("/", 0, [6, 12]),
    test: (t) => /^(?:\/(?:[^~/]|~0|~1)*)*$/.test(t),
  },
  "relative-json-pointer": {
    make: (rand, lo, hi) => {
      const length = pickLength(rand, [lo, hi], [1, 4096], [1, 8]);
      if (length === undefined) return undefined;
      return length === 1 ? "0" : `0/${letters(rand, length - 2)}`;
    },
    test: (t) => /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/.test(t),
  },
};

/** Whether `text` is of `format`; true for a format it does not know (an annotation). */
export function isOfFormat(format: string, text: string): boolean {
  const known = FORMATS[format];
  return known ? known.test(text) : true;
}
