/**
 * HTTP statuses' reason phrases (RFC 9110 §15): the platform's problem titles where no type
 * names one, and the importer's title for an error answer whose description says nothing.
 * Data only, so both sides read it without importing each other.
 */

/** Reason phrases for the statuses the platform answers with (RFC 9110 §15). */
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  410: "Gone",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
  // RFC 4918 §11.5: a sandbox that holds as much as its quota lets it.
  507: "Insufficient Storage",
};

/** The status's reason phrase, or its class's (RFC 9110 §15.5, §15.6). */
export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 500 ? "Server Error" : "Client Error");
}
