/**
 * A fixture app as a Workers service binding sees it: an object with `fetch(request)`, called
 * with the test runtime's bindings, and every request it was given, so a test can read what
 * the client sent.
 */
import { env } from "cloudflare:workers";
import type { Binding } from "../../src/client";
import type { ServiceApp } from "../../src/serve-app";

export interface RecordingBinding extends Binding {
  /** The requests the binding was called with, oldest first. */
  readonly sent: Request[];
}

export function bindingOf(
  app: Pick<ServiceApp, "fetch">,
  bindings: Readonly<Record<string, unknown>> = {},
): RecordingBinding {
  const sent: Request[] = [];
  return {
    sent,
    fetch: async (request) => {
      sent.push(request.clone());
      return app.fetch(request, { ...env, ...bindings } as Env);
    },
  };
}

/** A binding that answers every request with `response` (a server that breaks its contract). */
export function answering(response: () => Response): RecordingBinding {
  const sent: Request[] = [];
  return {
    sent,
    fetch: async (request) => {
      sent.push(request);
      return response();
    },
  };
}
