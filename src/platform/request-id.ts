/**
 * Request ids: every answer names the request it answers, so a client's report and the
 * operator's log line meet.
 */
export const REQUEST_ID_HEADER = "x-request-id";

/**
 * A client may bring its own id to correlate across systems. It is kept only if it is
 * short and made of characters that cannot forge a log line or a header (OWASP Logging
 * Cheat Sheet: log injection); otherwise a fresh one is made.
 */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdFor(request: Request): string {
  const offered = request.headers.get(REQUEST_ID_HEADER);
  return offered !== null && ACCEPTABLE_ID.test(offered) ? offered : crypto.randomUUID();
}
