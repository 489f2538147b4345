/**
 * The features of the serving engine, each given only to a Worker whose contract uses it, so
 * the code of a feature the contract does not use is not in its bundle. The build chooses
 * them (`servingFeatures`, src/contract-language/needs.ts; src/build/generate.ts writes their
 * imports), and the engine refuses to mount a contract that needs a feature it was not given
 * (a stale build), naming it. Each feature lives beside the code it serves. The mocks'
 * features follow from the handlers too (`engineFeatures`; src/mocks/examples/answer.ts,
 * src/mocks/sandbox/place.ts): when each is given, src/engine/README.md, "Bundle size".
 */
import type { ServingFeature } from "../contract-language/needs";
import type { SecurityFeature } from "./authentication/authenticate";
import type { SignaturesFeature } from "./authentication/aws-sigv4";
import type { IntrospectionFeature } from "./authentication/introspection";
import type { JwtVerifier } from "./authentication/verify-jwt";
import type { ErrorModelFeature } from "./error-model";
import type { EventsFeature } from "./events/feature";
import type { RateLimitsFeature } from "./limits/enforce";
import type { SandboxFeature, StoreFeature } from "./mock-features";
import type { FormsFeature } from "./request/forms";
import type { StatesFeature } from "./states/transition";
import type { VersionsFeature } from "./versions/negotiate";

interface FeatureTypes {
  readonly versions: VersionsFeature;
  readonly rateLimits: RateLimitsFeature;
  readonly security: SecurityFeature;
  readonly introspection: IntrospectionFeature;
  readonly signatures: SignaturesFeature;
  readonly jwt: JwtVerifier;
  readonly states: StatesFeature;
  readonly events: EventsFeature;
  readonly errorModel: ErrorModelFeature;
  readonly forms: FormsFeature;
}

/**
 * The features a serving engine was given: any of them, by name; and the sandbox's two
 * (src/mocks/sandbox/, through ./mock-features.ts), which follow from where it places
 * operations (src/build/features.ts): its store (for handlers, and the reset) and its
 * answers (for operations without a handler). The examples' answers are the third of the
 * mocks' (`EngineFeatures`, serving.ts, typed there as the operations' code types them).
 */
export type ServingFeatures = { readonly [P in ServingFeature]?: FeatureTypes[P] } & {
  readonly store?: StoreFeature;
  readonly sandbox?: SandboxFeature;
};

/** A feature of the serving engine: one the contract uses, or one of the mocks' three. */
export type EngineFeature = ServingFeature | "examples" | "store" | "sandbox";
