/**
 * AWS Signature Version 4 (`Authorization: AWS4-HMAC-SHA256 Credential=<id>/<date>/<region>/
 * <service>/aws4_request, SignedHeaders=…, Signature=…`), verified as AWS does: the signature
 * is computed anew from the request, with the secret access key of its access key id, by
 * `aws4fetch` (WebCrypto, made for Workers), and compared in constant time. A request dated
 * more than 15 minutes from now is refused, as AWS refuses it (RequestTimeTooSkewed). The
 * access keys are deployment secrets: one `<access key id>:<secret access key>` per line.
 */
import { AwsV4Signer } from "aws4fetch";
import { readBodyBytes } from "../request/body";

/** AWS's bound on the distance between a request's date and the server's clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request, ?SignedHeaders=([a-z0-9;._-]+), ?Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** The access keys a deployment's secrets hold, by access key id. */
function accessKeysOf(values: readonly string[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const value of values)
    for (const line of value.split(/\r?\n/)) {
      const at = line.indexOf(":");
      const id = line.slice(0, at).trim();
      const secret = line.slice(at + 1).trim();
      if (at > 0 && id !== "" && secret !== "" && !keys.has(id)) keys.set(id, secret);
    }
  return keys;
}

/** What the signature check found: the access key id that signed, or nothing valid. */
type SignatureOutcome =
  | { readonly kind: "valid"; readonly accessKeyId: string }
  | { readonly kind: "invalid" };

const INVALID: SignatureOutcome = { kind: "invalid" };
const encoder = new TextEncoder();

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(text));
}

/** The hex SHA-256 of bytes. */
async function hexHash(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether `request` carries a valid signature by one of `keys`. The body is read (a copy, at
 * most `maxBodyBytes`) to hash it, unless the client signed its hash in
 * `X-Amz-Content-Sha256`, which must then be the body's (or `UNSIGNED-PAYLOAD`, as S3 allows);
 * a body over the cap is signed as that header says, and refused for its size when read.
 */
async function verifyAwsSignature(
  request: Request,
  keys: ReadonlyMap<string, string>,
  maxBodyBytes: number,
  now: number = Date.now(),
): Promise<SignatureOutcome> {
  const match = AUTHORIZATION.exec(request.headers.get("authorization") ?? "");
  const datetime = request.headers.get("x-amz-date") ?? "";
  const date = AMZ_DATE.exec(datetime);
  if (!match || !date) return INVALID;
  const [, accessKeyId = "", day, region, service, signed = "", signature = ""] = match;
  const [, y, mo, d, h, mi, s] = date.map(Number) as number[];
  const at = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
  if (day !== datetime.slice(0, 8) || Math.abs(now - at) > MAX_SKEW_MS) return INVALID;
  const names = signed.split(";");
  if (!names.includes("host") || !names.includes("x-amz-date")) return INVALID;
  // Only what the client signed, as it sent it; the host is the URL's (the signer reads it so).
  const headers = new Headers();
  for (const name of names)
    if (name !== "host") {
      const value = request.headers.get(name);
      if (value === null) return INVALID;
      headers.set(name, value);
    }
  const hashSigned = headers.get("x-amz-content-sha256");
  let body: Uint8Array | undefined;
  if (request.body) {
    const read = await readBodyBytes(request.clone(), maxBodyBytes);
    if (read.ok) body = read.value;
    else if (hashSigned === null) return INVALID;
  }
  if (
    hashSigned !== null &&
    hashSigned !== "UNSIGNED-PAYLOAD" &&
    body !== undefined &&
    hashSigned !== (await hexHash(body))
  )
    return INVALID;
  // Unknown ids are signed with a stand-in, so the time taken does not tell which exist.
  const signer = new AwsV4Signer({
    method: request.method,
    url: request.url,
    headers,
    // aws4fetch hashes the body unless the hash header is among those signed.
    body: hashSigned === null ? (body ?? "") : undefined,
    accessKeyId,
    secretAccessKey: keys.get(accessKeyId) ?? "\u0000 no such access key",
    service,
    region,
    datetime,
    allHeaders: true,
  });
  const [expected, presented] = await Promise.all([
    digest(await signer.signature()),
    digest(signature),
  ]);
  const same = crypto.subtle.timingSafeEqual(expected, presented);
  return same && keys.has(accessKeyId) ? { kind: "valid", accessKeyId } : INVALID;
}

/**
 * Request signatures as the serving engine uses them (src/engine/features.ts): in a Worker only
 * when a scheme of part 5 is AWS Signature Version 4, so no other Worker ships the signer.
 */
export const SIGNATURES_FEATURE = { accessKeys: accessKeysOf, verify: verifyAwsSignature } as const;

export type SignaturesFeature = typeof SIGNATURES_FEATURE;
