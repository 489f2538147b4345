/**
 * Comparing a presented credential with the expected one in constant time. Both sides are
 * hashed with SHA-256 first and the digests compared with `timingSafeEqual`, so neither
 * the content nor the length of the secret shows in the time taken (OWASP Authentication
 * Cheat Sheet; a plain `===` returns at the first differing byte).
 */

const encoder = new TextEncoder();
const NOTHING = new Uint8Array(0);

function sha256(bytes: Uint8Array): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", bytes);
}

/** Whether `presented` equals `expected`; a missing credential is hashed too, and never equal. */
export async function sameCredential(
  presented: Uint8Array | undefined,
  expected: string,
): Promise<boolean> {
  const [a, b] = await Promise.all([
    sha256(presented ?? NOTHING),
    sha256(encoder.encode(expected)),
  ]);
  const equal = crypto.subtle.timingSafeEqual(a, b);
  return presented !== undefined && equal;
}
