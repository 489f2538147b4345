/**
 * An app as the deployed Worker makes it: the contract built as `npm run build:contract`
 * builds it (checked, its documents made, the parts it needs chosen), then served by
 * `serveApp` from that with exactly those parts (the serving engine with only the parts the
 * contract uses), no converter and no documenter, as src/index.ts does. `assetsApp` serves
 * the documents as the Worker does, from static assets read through an `ASSETS` binding
 * (here a map of the files the build would write).
 */
import { toJSONSchema } from "zod/mini";
import { createApp } from "../../src/app";
import { assetsOf, prepareBuild, servedFeatures } from "../../src/build/generate";
import { BUILD_ENGINE } from "../../src/build-engine";
import type { Contract } from "../../src/contract-language/contract";
import type { AnyHandler } from "../../src/contract-language/define-handlers";
import { XML_CODEC } from "../../src/engine/xml/codec";
import type { BuiltDocuments } from "../../src/platform/documents";
import { type ServeOptions, type ServiceApp, serveApp } from "../../src/serve-app";

export interface BuiltApp {
  readonly app: ServiceApp;
  readonly built: BuiltDocuments;
}

/**
 * Each contract's build, made once for the handlers and setting it was asked with: a test
 * that serves a contract both ways builds it once (an imported contract's build grows with
 * it: Stripe's 452 operations and 775 schemas take half a minute here).
 */
const BUILDS = new WeakMap<Contract, WeakMap<object, Map<boolean, Build>>>();
type Build = ReturnType<typeof prepareBuild>;

function buildOf(contract: Contract, handlers: object, unhandledAnswers = true): Build {
  const byHandlers = BUILDS.get(contract) ?? new WeakMap<object, Map<boolean, Build>>();
  BUILDS.set(contract, byHandlers);
  const bySetting = byHandlers.get(handlers) ?? new Map<boolean, Build>();
  byHandlers.set(handlers, bySetting);
  const made =
    bySetting.get(unhandledAnswers) ??
    prepareBuild(
      contract,
      handlers as Readonly<Record<string, AnyHandler | undefined>>,
      unhandledAnswers,
    );
  bySetting.set(unhandledAnswers, made);
  return made;
}

/** `unhandledAnswers`: false for an upload whose deployment answers 501 (src/build/write.ts). */
export async function builtApp(
  contract: Contract,
  handlers: object = {},
  unhandledAnswers = true,
): Promise<BuiltApp> {
  const { needed, built, sandboxCards } = await buildOf(contract, handlers, unhandledAnswers);
  // The sandbox given the build's routes, as the generated module gives them.
  const features = servedFeatures(needed, undefined, sandboxCards);
  const options = { handlers, built, ...features } as ServeOptions<Contract>;
  return { app: serveApp(contract, options), built };
}

export interface AssetsApp extends BuiltApp {
  /** The files the build writes to the assets directory, by path. */
  readonly files: Readonly<Record<string, string>>;
  /** A deployment's bindings with the `ASSETS` binding added, as wrangler.toml declares it. */
  readonly env: (bindings?: object) => Env;
  /** The same, with the path of every asset read listed in `read`, in order. */
  readonly counted: (bindings?: object) => { readonly env: Env; readonly read: string[] };
}

export async function assetsApp(contract: Contract, handlers: object = {}): Promise<AssetsApp> {
  const build = await buildOf(contract, handlers);
  const { built, files } = assetsOf(build.built);
  const features = servedFeatures(build.needed, undefined, build.sandboxCards);
  const options = { handlers, built, ...features } as ServeOptions<Contract>;
  const ASSETS = {
    fetch: async (request: Request) => {
      const path = new URL(request.url).pathname;
      return Object.hasOwn(files, path)
        ? new Response(files[path])
        : new Response("not found", { status: 404 });
    },
  };
  return {
    app: serveApp(contract, options),
    built,
    files,
    env: (bindings = {}) => ({ ...bindings, ASSETS }) as unknown as Env,
    counted: (bindings = {}) => {
      const read: string[] = [];
      const fetch = (request: Request) => {
        read.push(new URL(request.url).pathname);
        return ASSETS.fetch(request);
      };
      return { env: { ...bindings, ASSETS: { fetch } } as unknown as Env, read };
    },
  };
}

/** The same contract's app as a test builds it in process (`createApp`), with the whole engine. */
export function inProcessApp(contract: Contract, handlers: object = {}): ServiceApp {
  return createApp(contract, {
    engine: BUILD_ENGINE,
    jsonSchema: toJSONSchema,
    xml: XML_CODEC,
    handlers,
  } as never);
}
