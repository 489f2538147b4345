/**
 * Comparing a presented credential with the expected ones in constant time. Both sides are
 * hashed with SHA-256 first and the digests compared with `timingSafeEqual`, so neither the
 * content nor the length of a secret shows in the time taken (OWASP Authentication Cheat
 * Sheet; a plain `===` returns at the first differing byte). With several secrets (a key
 * being rotated), every one is compared, whichever matches.
 */

const encoder = new TextEncoder();
const NOTHING = new Uint8Array(0);

function sha256(bytes: Uint8Array): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", bytes);
}

interface Comparison {
  /** Whether the presented credential equals one of the expected ones. */
  readonly match: boolean;
  /** SHA-256 of what was presented: a key for it that is not the credential itself. */
  readonly digest: ArrayBuffer;
}

/** Compares `presented` with every one of `expected`; a missing credential is hashed too, and never matches. */
export async function compareWithSecrets(
  presented: Uint8Array | undefined,
  expected: readonly string[],
): Promise<Comparison> {
  const [digest, ...secrets] = await Promise.all([
    sha256(presented ?? NOTHING),
    ...expected.map((secret) => sha256(encoder.encode(secret))),
  ]);
  let match = false;
  // No early exit: each secret costs the same comparison whatever the others gave.
  for (const secret of secrets) match = crypto.subtle.timingSafeEqual(digest, secret) || match;
  return { match: presented !== undefined && match, digest };
}
