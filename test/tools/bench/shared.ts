/**
 * BENCHMARK FIXTURES: what every variant answers, identical bytes wherever the variant
 * does not add its own headers. Nothing here is the service's interface.
 */
export const PLACEHOLDER_PATH = "/bench-fixture/placeholder";
export const HEALTH_PATH = "/_service/health";
export const POST_PATH = "/bench-fixture-items";
export const POST_BODY = JSON.stringify({ name: "fixture widget", size: 3 });

/** The 501 body the bare variants send in place of the service's problem document. */
export const PLACEHOLDER_BODY = JSON.stringify({
  type: "/_service/problems/interface-not-specified",
  title: "Interface not specified",
  status: 501,
  detail:
    "The service's endpoints (specification part 4) are not specified, so no method or path outside /_service can be served yet.",
});
export const HEALTH_BODY = JSON.stringify({ status: "pass" });
