/**
 * Whether an event's payload already is an envelope, as many APIs' webhooks are: an object
 * that names its kind of event and carries the event's object as data (`{ "type":
 * "invoice.paid", "created_at": "…", "data": { … } }`). Such a payload is delivered as it is
 * (part 6's `envelope: "payload"`), not wrapped again in Standard Webhooks' envelope.
 */
import { follow, isObject, type Json } from "./source";

/** The member names (lower case, `_` and `-` dropped) of an envelope's kind and of its data. */
const KIND = new Set(["type", "event", "eventtype", "kind"]);
const DATA = new Set(["data", "payload", "object", "resource"]);

const normalised = (name: string) => name.toLowerCase().replace(/[-_]/g, "");

export function isEnvelope(document: Json, schema: unknown, pointer: string): boolean {
  const { node } = follow(document, schema, pointer);
  if (!isObject(node) || !isObject(node.properties)) return false;
  const members = Object.entries(node.properties).map(
    ([name, raw]) => [normalised(name), follow(document, raw, pointer).node] as const,
  );
  const kind = members.some(
    ([name, member]) =>
      KIND.has(name) &&
      isObject(member) &&
      (member.type === "string" || typeof member.const === "string" || Array.isArray(member.enum)),
  );
  const data = members.some(([name, member]) => DATA.has(name) && isObject(member));
  return kind && data;
}
