/**
 * The build's engine with another JWT verifier in place of jose's (a test's own, that says
 * what it was asked), for tests that check what the engine does with a verifier's outcome.
 */
import { BUILD_ENGINE, defaultRouter } from "../../src/build-engine";
import { SECURITY_FEATURE } from "../../src/engine/authentication/authenticate";
import { INTROSPECTION_FEATURE } from "../../src/engine/authentication/introspection";
import type { JwtVerifier } from "../../src/engine/authentication/verify-jwt";
import { ERROR_MODEL_FEATURE } from "../../src/engine/error-model";
import { EVENTS_FEATURE } from "../../src/engine/events/feature";
import { RATE_LIMITS_FEATURE } from "../../src/engine/limits/enforce";
import { FORMS_FEATURE } from "../../src/engine/request/forms";
import { servingEngine } from "../../src/engine/serving";
import { STATES_FEATURE } from "../../src/engine/states/transition";
import { VERSIONS_FEATURE } from "../../src/engine/versions/negotiate";
import { EXAMPLES_FEATURE } from "../../src/mocks/examples/answer";
import type { BuildEngine } from "../../src/platform/build-seam";

export function engineWithJwt(jwt: JwtVerifier): BuildEngine {
  const serving = servingEngine(
    {
      versions: VERSIONS_FEATURE,
      rateLimits: RATE_LIMITS_FEATURE,
      security: SECURITY_FEATURE,
      introspection: INTROSPECTION_FEATURE,
      jwt,
      states: STATES_FEATURE,
      events: EVENTS_FEATURE,
      errorModel: ERROR_MODEL_FEATURE,
      forms: FORMS_FEATURE,
      examples: EXAMPLES_FEATURE,
    },
    defaultRouter,
  );
  return { ...BUILD_ENGINE, ...serving };
}
