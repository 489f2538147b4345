/**
 * Problems in XML for the clients that ask for XML. Once the contract declares an XML media
 * type (and so the XML codec is in the Worker), every problem answer of an operation is
 * negotiated (RFC 9110 §12.5.1) between `application/problem+json` and RFC 9457 Appendix
 * B's `application/problem+xml`: the one `Accept` weighs more; on a tie (no Accept, `*\/*`,
 * a browser's list that names neither), XML only when the answer the request negotiates for
 * the operation's success is XML, so a client that speaks only XML is answered in XML, and
 * JSON otherwise. Each such problem carries `Vary: Accept`.
 */

import { bodyKind } from "../../contract-language/media-types";
import { acceptable } from "../../platform/accept";
import { PROBLEM_MEDIA_TYPE } from "../../platform/problem";
import { complete } from "../../platform/security-headers";
import type { XmlCodec } from "../../platform/xml-seam";
import type { ProblemForm } from "./model";

/** RFC 9457 Appendix B's media type. */
const PROBLEM_XML_MEDIA_TYPE = "application/problem+xml";

const FORMS = [PROBLEM_MEDIA_TYPE, PROBLEM_XML_MEDIA_TYPE] as const;

/** The media type of a problem answer, for a request's `Accept` and the operation's success types. */
function problemMediaType(
  accept: string | null,
  successTypes: readonly string[],
): (typeof FORMS)[number] {
  if (!accept) return PROBLEM_MEDIA_TYPE;
  // `acceptable` gives a tie to the first candidate: asked both ways, it tells them apart.
  if (acceptable(accept, FORMS) === PROBLEM_XML_MEDIA_TYPE) return PROBLEM_XML_MEDIA_TYPE;
  if (acceptable(accept, [PROBLEM_XML_MEDIA_TYPE, PROBLEM_MEDIA_TYPE]) === PROBLEM_MEDIA_TYPE)
    return PROBLEM_MEDIA_TYPE;
  // Weighed alike (both by one range, or neither named): as the operation would answer.
  const answer = acceptable(accept, successTypes);
  return answer !== undefined && bodyKind(answer) === "xml"
    ? PROBLEM_XML_MEDIA_TYPE
    : PROBLEM_MEDIA_TYPE;
}

/** Adds `accept` to a Vary header, once. */
function varyOnAccept(headers: Headers): void {
  const vary = headers.get("vary");
  if (vary === null) headers.set("vary", "accept");
  else if (!/(^|,)\s*(accept|\*)\s*(,|$)/i.test(vary)) headers.set("vary", `${vary}, accept`);
}

/**
 * A problem answer in the form the request negotiates: JSON as it is, or RFC 9457 Appendix
 * B's XML (a problem whose members XML cannot name stays JSON); every problem varies on
 * `Accept`. Other answers pass as they are.
 */
export function problemForm(codec: XmlCodec, successTypes: readonly string[]): ProblemForm {
  return async (c, response) => {
    if (response.headers.get("content-type") !== PROBLEM_MEDIA_TYPE) return response;
    varyOnAccept(response.headers);
    if (problemMediaType(c.req.header("accept") ?? null, successTypes) === PROBLEM_MEDIA_TYPE)
      return response;
    const xml = codec.problem((await response.clone().json()) as Record<string, unknown>);
    if (xml === undefined) return response;
    const headers = new Headers(response.headers);
    headers.set("content-type", PROBLEM_XML_MEDIA_TYPE);
    headers.delete("content-length");
    return complete(new Response(xml, { status: response.status, headers }));
  };
}
