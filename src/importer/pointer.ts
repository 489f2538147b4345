/**
 * JSON values and the JSON Pointers (RFC 6901) every finding is located with: what reading a
 * document (./source.ts) and cleaning it (./mistyped.ts) share.
 */

export type Json = { [key: string]: unknown };

export const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** One reference token of a JSON Pointer, escaped (RFC 6901 §3). */
const escapeToken = (token: string | number) =>
  String(token).replace(/~/g, "~0").replace(/\//g, "~1");

/** `pointer` extended by `tokens`, as a URI fragment (`#/paths/~1items/get`). */
export function child(pointer: string, ...tokens: (string | number)[]): string {
  return `${pointer}${tokens.map((token) => `/${escapeToken(token)}`).join("")}`;
}
