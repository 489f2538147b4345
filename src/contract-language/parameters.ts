/**
 * How a parameter is serialised (OpenAPI 3.1 §4.8.12.4, Style Values): the `style` and
 * `explode` of a path, query, header or cookie parameter, declared as zod metadata on the
 * member schema of `request.params`, `query`, `headers` or `cookies`:
 *
 * ```ts
 * query: z.object({
 *   metrics: z.array(z.string()).check(z.meta({ style: "form", explode: false })),
 * }),
 * ```
 *
 * The metadata says exactly what OpenAPI's Parameter Object says: the OpenAPI document moves
 * `style`, `explode` and `allowReserved` from the member's schema into its Parameter Object,
 * and a member without them is read as OpenAPI's defaults say (query and cookie: `form`,
 * path and header: `simple`; `explode` true for `form` only).
 */

/** The serialisation styles of OpenAPI 3.1 §4.8.12.4. */
export type ParameterStyle =
  | "matrix"
  | "label"
  | "simple"
  | "form"
  | "spaceDelimited"
  | "pipeDelimited"
  | "deepObject";

/** Where a parameter is (OpenAPI's `in`). */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** The styles each location may use, its default first (OpenAPI 3.1 §4.8.12.4's table). */
export const PARAMETER_STYLES: Readonly<Record<ParameterLocation, readonly ParameterStyle[]>> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};

/** A parameter's serialisation, as its member's metadata declares it (each field optional). */
export interface ParameterSerialisation {
  /** One of the location's styles (`PARAMETER_STYLES`); its default when absent. */
  readonly style?: ParameterStyle;
  /** Whether arrays and objects are split into one name per value; true for `form` only when absent. */
  readonly explode?: boolean;
  /**
   * Query parameters only: values may carry RFC 3986 reserved characters unencoded
   * (RFC 6570 §3.2.3). Documented; reading is the same, since percent-decoding a character
   * that was not encoded leaves it as it is.
   */
  readonly allowReserved?: boolean;
}

declare module "zod/v4/core" {
  /** Typed metadata: a parameter's serialisation is checked by the compiler too. */
  interface GlobalMeta {
    style?: ParameterSerialisation["style"];
    explode?: ParameterSerialisation["explode"];
    allowReserved?: ParameterSerialisation["allowReserved"];
  }
}
