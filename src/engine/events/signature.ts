/**
 * Standard Webhooks signatures (standardwebhooks.com, "Signature scheme"): HMAC-SHA256 over
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed by the base64 bytes of a `whsec_` secret,
 * sent as `v1,{base64}`; several space-separated in `webhook-signature` while a key is
 * rotated. WebCrypto only, so the same module signs in the Worker and verifies in a
 * receiver's Worker or in Node (`import { verifyWebhook } from
 * "contract-edge-service/webhooks"`).
 */

const SECRET_PREFIX = "whsec_";
/** The spec's default tolerance: a timestamp further than this from now is refused (replay). */
const TOLERANCE_SECONDS = 5 * 60;

const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The key bytes of a secret, `whsec_` prefixed (or bare base64, as the reference libraries accept). */
function secretKey(secret: string): Uint8Array {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  try {
    const bytes = fromBase64(text);
    if (bytes.length > 0) return bytes;
  } catch {}
  throw new Error("a webhook secret must be whsec_ followed by base64 key bytes");
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    secretKey(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

const signedContent = (id: string, timestamp: number, body: string) =>
  encoder.encode(`${id}.${timestamp}.${body}`);

/** `webhook-signature`'s value: one `v1,` signature per secret, space-separated. */
export async function signWebhook(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const content = signedContent(id, timestamp, body);
  const signatures = await Promise.all(
    secrets.map(
      async (secret) =>
        `v1,${toBase64(await crypto.subtle.sign("HMAC", await hmacKey(secret), content))}`,
    ),
  );
  return signatures.join(" ");
}

type VerifyFailure =
  | "missing-headers"
  | "invalid-timestamp"
  | "timestamp-too-old"
  | "timestamp-too-new"
  | "no-matching-signature";

type VerifyResult =
  | { readonly ok: true; readonly id: string; readonly timestamp: number }
  | { readonly ok: false; readonly reason: VerifyFailure };

/** The three headers, from a `Headers` or a plain record (Node's lower-cased `IncomingHttpHeaders`). */
type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(" ") : (value as string | undefined);
}

/**
 * Verifies a delivery as a receiver: the timestamp within `toleranceSeconds` of `now`, and
 * a `v1` signature that matches one of `secrets` (several while a key is rotated). The
 * comparison is WebCrypto's HMAC verify, which is constant-time. Use the raw body, as
 * received, before parsing it.
 */
export async function verifyWebhook(
  secrets: string | readonly string[],
  headers: HeaderSource,
  body: string,
  options: { readonly now?: number; readonly toleranceSeconds?: number } = {},
): Promise<VerifyResult> {
  const id = header(headers, "webhook-id");
  const stamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (!id || !stamp || !signature) return { ok: false, reason: "missing-headers" };
  if (!/^\d{1,15}$/.test(stamp)) return { ok: false, reason: "invalid-timestamp" };
  const timestamp = Number(stamp);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? TOLERANCE_SECONDS;
  if (timestamp < now - tolerance) return { ok: false, reason: "timestamp-too-old" };
  if (timestamp > now + tolerance) return { ok: false, reason: "timestamp-too-new" };
  const content = signedContent(id, timestamp, body);
  const given = signature
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => {
      try {
        return fromBase64(entry.slice(3));
      } catch {
        return undefined;
      }
    })
    .filter((bytes): bytes is Uint8Array => bytes !== undefined);
  for (const secret of typeof secrets === "string" ? [secrets] : secrets) {
    const key = await hmacKey(secret);
    for (const bytes of given)
      if (await crypto.subtle.verify("HMAC", key, bytes, content))
        return { ok: true, id, timestamp };
  }
  return { ok: false, reason: "no-matching-signature" };
}
