/**
 * Form bodies (`application/x-www-form-urlencoded`, and `multipart/form-data`, RFC 7578)
 * read into an object of own properties, a member the schema declares as an array always
 * an array. The serving engine's forms feature (src/engine/features.ts): in a Worker only when an
 * operation declares a form body.
 */
import { arrayMembers } from "./arrays";
import { decodeText, type FormReader, fail } from "./body";
import { fieldsOf } from "./parameters";

const readForm: FormReader = async (kind, bytes, contentType, lists) => {
  if (kind === "form") {
    const text = decodeText(bytes);
    return text.ok ? { ok: true, value: fieldsOf(new URLSearchParams(text.value), lists) } : text;
  }
  try {
    // The runtime's own parser (RFC 7578), over bytes already counted against the cap.
    const form = await new Response(bytes, {
      headers: { "content-type": contentType },
    }).formData();
    return { ok: true, value: fieldsOf(form as Iterable<[string, string | File]>, lists) };
  } catch {
    return fail("The request body is not well-formed multipart/form-data (RFC 7578).");
  }
};

export const FORMS_FEATURE = { read: readForm, lists: arrayMembers } as const;

export type FormsFeature = typeof FORMS_FEATURE;
