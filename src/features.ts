/**
 * Every feature a Worker may be built with, under the name its generated module imports it
 * by: the build writes one import of this file (src/generated/contract.ts), naming what the
 * contract needs (src/build/generate.ts), so a reader and the import graph follow the
 * Worker's imports here and on to each feature's module. A bundle keeps only the names
 * imported (test/service/bundle-contents.slow.test.ts holds it).
 */
export { SECURITY_FEATURE } from "./engine/authentication/authenticate";
export { SIGNATURES_FEATURE } from "./engine/authentication/aws-sigv4";
export { INTROSPECTION_FEATURE } from "./engine/authentication/introspection";
export { JWT_VERIFIER } from "./engine/authentication/verify-jwt";
export { ERROR_MODEL_FEATURE } from "./engine/error-model";
export { EVENTS_FEATURE } from "./engine/events/feature";
export { RATE_LIMITS_FEATURE } from "./engine/limits/enforce";
export { FORMS_FEATURE } from "./engine/request/forms";
export { servingEngine } from "./engine/serving";
export { STATES_FEATURE } from "./engine/states/transition";
export { VERSIONS_FEATURE } from "./engine/versions/negotiate";
export { XML_CODEC } from "./engine/xml/codec";
export { EXAMPLES_FEATURE } from "./mocks/examples/answer";
export { SANDBOX_FEATURE, sandboxFeature } from "./mocks/sandbox/answer";
export { STORE_FEATURE } from "./mocks/sandbox/store";
