/**
 * The answer for every request outside `/_service` while part 4 (Endpoints) declares
 * nothing: no method or path of the service exists, so none can be served.
 */
import type { Handler } from "hono";
import { specPart } from "../contract-language/parts";
import { INTERFACE_NOT_SPECIFIED } from "../contract-language/problem-catalogue";
import type { AppEnv } from "./env";
import { SERVICE_PATHS } from "./paths";
import { problemResponse, typedProblem } from "./problem";

const endpoints = specPart("endpoints");

export const NOT_SPECIFIED_PROBLEM = typedProblem(
  INTERFACE_NOT_SPECIFIED,
  `The service's endpoints (specification part ${endpoints.number}) are not specified, ` +
    "so no method or path outside /_service can be served yet.",
  {
    missingPart: { number: endpoints.number, name: endpoints.name },
    statusReport: SERVICE_PATHS.interface,
  },
);

/**
 * RFC 9110 §15.6.2: 501 is the answer when the server does not support the functionality
 * required, for any method. The body is never read: nothing could use it.
 */
export const interfaceNotSpecified: Handler<AppEnv> = (c) =>
  problemResponse(c.get("requestId"), NOT_SPECIFIED_PROBLEM);
