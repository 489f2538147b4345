/**
 * Operations on one method and path, told apart by fixed query values
 * (src/contract-language/path-key.ts): the route's handler serves the operation whose values
 * the request carries. A request that carries none of them is invalid (its required
 * parameter is missing); one whose values no operation has asks for a resource that does not
 * exist, since the query is part of the target URI (RFC 9110 §4.1, §15.5.5). Both are
 * answered in the API's own body (`present`), and neither repeats the value sent.
 */
import type { Handler } from "hono";
import { VALIDATION_FAILED } from "../../contract-language/problem-catalogue";
import type { AppEnv } from "../../platform/env";
import { problemResponse, statusProblem, typedProblem } from "../../platform/problem";
import type { ProblemPresenter } from "../../platform/problem-presenter";
import { jsonPointer } from "../zod/issues";

/** One operation of a route's method: the values it takes, and how it is served. */
export interface Candidate {
  readonly fixed: Readonly<Record<string, string>>;
  readonly serve: Handler<AppEnv>;
}

/** The query of a URL as `application/x-www-form-urlencoded` reads it (WHATWG URL). */
function queryOf(url: string): URLSearchParams {
  const mark = url.indexOf("?");
  if (mark === -1) return new URLSearchParams();
  const hash = url.indexOf("#", mark);
  return new URLSearchParams(url.slice(mark + 1, hash === -1 ? undefined : hash));
}

/** Whether `query` carries every one of `fixed`'s values (a name given twice: any of them). */
function carries(query: URLSearchParams, fixed: Readonly<Record<string, string>>): boolean {
  for (const [name, value] of Object.entries(fixed))
    if (!query.getAll(name).includes(value)) return false;
  return true;
}

/** The handler of one method of a route: its only operation's, or one that chooses. */
export function byFixedQuery(
  candidates: readonly Candidate[],
  present: ProblemPresenter,
): Handler<AppEnv> {
  const [only] = candidates;
  if (candidates.length === 1 && only && Object.keys(only.fixed).length === 0) return only.serve;
  const fallback = candidates.find((c) => Object.keys(c.fixed).length === 0);
  const told = candidates.filter((c) => c !== fallback);
  const names = [...new Set(told.flatMap((c) => Object.keys(c.fixed)))];
  // Most such routes tell their operations apart by one name (`Action`): one lookup then.
  const [single] = names;
  const byValue =
    names.length === 1 && single !== undefined
      ? new Map(told.map((c) => [c.fixed[single] as string, c]))
      : undefined;
  let missing: ReturnType<ProblemPresenter> | undefined;
  let unknown: ReturnType<ProblemPresenter> | undefined;
  return (c, next) => {
    const query = queryOf(c.req.url);
    const chosen =
      byValue && single !== undefined
        ? query
            .getAll(single)
            .map((value) => byValue.get(value))
            .find((found) => found !== undefined)
        : told.find((candidate) => carries(query, candidate.fixed));
    if (chosen) return chosen.serve(c, next);
    if (fallback) return fallback.serve(c, next);
    const requestId = c.get("requestId");
    if (!names.some((name) => query.has(name))) {
      missing ??= present(
        "validation-failed",
        typedProblem(
          VALIDATION_FAILED,
          `This path answers several operations, told apart by the query parameter ${names.join(" or ")}; the request gives none.`,
          {
            errors: names.map((name) => ({
              in: "query",
              pointer: jsonPointer([name]),
              detail: "Required: it says which operation of this path the request is for.",
            })),
          },
        ),
      );
      return problemResponse(requestId, missing);
    }
    unknown ??= present(
      "not-found",
      statusProblem(
        404,
        `No operation of this path answers the value given for ${names.join(" or ")}.`,
      ),
    );
    return problemResponse(requestId, unknown);
  };
}
