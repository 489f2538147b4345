/**
 * The operational namespace. Everything under it belongs to the platform (health, the
 * interface status report, documentation); everything outside it belongs to the service's
 * interface, which the contract alone decides.
 */
export const SERVICE_PREFIX = "/_service";

export const SERVICE_PATHS = {
  health: `${SERVICE_PREFIX}/health`,
  interface: `${SERVICE_PREFIX}/interface`,
  openapi: `${SERVICE_PREFIX}/openapi.json`,
  problems: `${SERVICE_PREFIX}/problems`,
  reference: `${SERVICE_PREFIX}/reference`,
  stylesheet: `${SERVICE_PREFIX}/style.css`,
  /** Only where the contract places an operation in the sandbox (src/mocks/sandbox). */
  sandbox: `${SERVICE_PREFIX}/sandbox`,
} as const;
