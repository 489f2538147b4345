/**
 * The deployment's setting for operations without a handler (./unhandled.ts): the
 * `UNHANDLED_OPERATIONS` var, read and checked. Apart from the answers, so the tools that
 * write wrangler.toml (test/support/deployment.ts) name the var without the Worker's types.
 */
import { log } from "../../platform/log";
import type { UnhandledSetting } from "../../platform/status";

/** The Worker var that holds the setting. */
export const UNHANDLED_VAR = "UNHANDLED_OPERATIONS";

const UNHANDLED_SETTINGS: readonly UnhandledSetting[] = ["501", "examples", "sandbox"];

/** Values already logged as refused, so each is logged once per isolate. */
const refused = new Set<string>();

/** The deployment's setting; absent or empty is `501`, and so, logged, is any other value. */
export function unhandledSetting(env: unknown): UnhandledSetting {
  const value = (env as Readonly<Record<string, unknown>> | undefined)?.[UNHANDLED_VAR];
  if (value === undefined || value === "") return "501";
  if (UNHANDLED_SETTINGS.includes(value as UnhandledSetting)) return value as UnhandledSetting;
  const shown = JSON.stringify(value)?.slice(0, 64) ?? typeof value;
  if (!refused.has(shown)) {
    refused.add(shown);
    log("error", `${UNHANDLED_VAR} is not one of 501, examples, sandbox: answering 501`, {
      setting: UNHANDLED_VAR,
      value: shown,
    });
  }
  return "501";
}
