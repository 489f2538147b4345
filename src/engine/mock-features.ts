/**
 * What the serving engine asks of the mocks (src/mocks/README.md), each handed in as a
 * feature (features.ts) only when the Worker needs it: the sandbox as a handler, its store,
 * and what the document says of the sandbox's operations. The engine reads the mocks only
 * through these; the mocks see the engine through ./mock-seam.ts. (The examples' answer is
 * `ExamplesFeature`, operations/model.ts, beside the exchange it answers.)
 */
import type { Contract } from "../contract-language/contract";
import type { AnyHandler } from "../contract-language/define-handlers";
import type { ResourceStore } from "../contract-language/handler-store";
import type { SandboxResetRoute } from "../platform/worker-seam";
import type { Identity, SecurityFeature } from "./authentication/authenticate";
import type { IntrospectionFeature } from "./authentication/introspection";
import type { JwtVerifier } from "./authentication/verify-jwt";
import type { Refusal } from "./refusal";

/** Who the caller is to the store: what authentication found, never a credential. */
export interface StoreCaller extends Identity {
  /** The digest per-credential limits count by; undefined when let in without one. */
  readonly key: string | undefined;
}

/** The caller as the sandbox names it: by the credential it was let in with, if any. */
export type SandboxCaller = (
  request: Request,
  env: Readonly<Record<string, unknown>>,
  requestId: string,
) => Promise<
  | { readonly ok: true; readonly caller: StoreCaller | undefined }
  | { readonly ok: false; readonly refusal: Refusal }
>;

/** The `sandbox` feature: the sandbox as the handler of an operation it places. */
export interface SandboxFeature {
  readonly handler: (contract: Contract, id: string) => AnyHandler | undefined;
}

/**
 * The `store` feature: the caller's store for handlers (`context.store`), the refusal the
 * sandbox throws, and `DELETE /_service/sandbox`.
 */
export interface StoreFeature {
  readonly open: (
    contract: Contract,
    env: Readonly<Record<string, unknown>>,
    caller: () => Promise<StoreCaller | undefined>,
    request: Request,
  ) => Readonly<Record<string, ResourceStore<unknown>>>;
  readonly caller: (
    contract: Contract,
    jwt: JwtVerifier | undefined,
    security: SecurityFeature | undefined,
    introspection: IntrospectionFeature | undefined,
    open?: boolean,
  ) => SandboxCaller;
  readonly Refused: abstract new (refusal: Refusal) => Error & { readonly refusal: Refusal };
  readonly reset: (
    contract: Contract,
    jwt: JwtVerifier | undefined,
    security: SecurityFeature | undefined,
    introspection: IntrospectionFeature | undefined,
    places: (contract: Contract) => boolean,
  ) => SandboxResetRoute;
  /** Whether the deployment's store is each caller's sandbox, not shared by a tenant (STORE_TENANCY). */
  readonly sandboxed: (env: Readonly<Record<string, unknown>>) => boolean;
}

/** What the OpenAPI document says of the sandbox's operations, by operation id. */
export interface SandboxMarks {
  /** Those that answer 404 for an item the caller's sandbox does not hold. */
  readonly notFound: ReadonlySet<string>;
  readonly writes: ReadonlySet<string>;
  readonly stores: ReadonlySet<string>;
  readonly creates: ReadonlySet<string>;
}
