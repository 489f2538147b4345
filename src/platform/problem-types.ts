/**
 * The platform's own problem types: those whose meaning goes beyond the status code.
 * Each has a page under `/_service/problems/` (RFC 9457 §3.1.1: the type URI should
 * resolve to human-readable documentation).
 */
import { INTERFACE_NOT_SPECIFIED_SLUG } from "../contract-language/reserved";
import type { ProblemType } from "./problem";

/** The member every platform problem carries. */
export const REQUEST_ID_MEMBER = {
  requestId: "The id of the request, also sent as the X-Request-Id header.",
};

export const INTERFACE_NOT_SPECIFIED: ProblemType = {
  slug: INTERFACE_NOT_SPECIFIED_SLUG,
  title: "Interface not specified",
  status: 501,
  description:
    "The request falls outside the operational namespace /_service, where only the " +
    "service's own interface can answer, and the part of the interface specification " +
    "that would define the answer is not specified yet. Nothing was done and the request " +
    "body, if any, was not read. The request may succeed once a revision of the " +
    "specification declares that part; /_service/interface shows which parts are declared.",
  members: {
    missingPart:
      "The specification part that is missing, as { number, name }, e.g. 4 and endpoints.",
    statusReport: "Where the interface status report can be read.",
    ...REQUEST_ID_MEMBER,
  },
  schemas: {
    missingPart: {
      type: "object",
      properties: { number: { type: "integer", minimum: 1, maximum: 9 }, name: { type: "string" } },
      required: ["number", "name"],
    },
    statusReport: { type: "string", format: "uri-reference" },
  },
};

export { ENGINE_PROBLEM_SLUGS, type EngineProblemSlug } from "../contract-language/reserved";
