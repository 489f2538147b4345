/**
 * Webhooks and callbacks, which the service sends as webhooks: each compared, as an
 * operation, with the served webhook of its event's name.
 */
import { EMITS } from "../../contract-language/document-marks";
import { numbered } from "../renames";
import { child, follow, isObject, type Json } from "../source";
import { type Comparer, type Event, METHODS, paths } from "./context";
import { compareOperation } from "./operations";

/** The document's webhooks, each compared with the served webhook of its name. */
export function compareWebhooks(c: Comparer): void {
  const servedWebhooks = isObject(c.served.webhooks) ? c.served.webhooks : {};
  const sourceWebhooks = isObject(c.source.webhooks) ? c.source.webhooks : {};
  for (const [name, rawItem] of Object.entries(sourceWebhooks)) {
    const at = child("#", "webhooks", name);
    const { node: item } = follow(c.source, rawItem, at);
    if (!isObject(item)) continue;
    for (const method of METHODS)
      compareOperation(
        c,
        item,
        servedWebhooks[name] as Json | undefined,
        method,
        child(at, method),
        "webhooks",
        { name },
      );
  }
}

/**
 * Callbacks, which the service sends as webhooks: each compared with the event its
 * operation emits under the callback's name (numbered where the name was taken).
 */
export function compareCallbacks(c: Comparer): void {
  const servedWebhooks = isObject(c.served.webhooks) ? c.served.webhooks : {};
  for (const [path, rawItem] of Object.entries(paths(c.source))) {
    const { node: item } = follow(c.source, rawItem, "#");
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op) || !isObject(op.callbacks)) continue;
      const events = emitted(c, path, method);
      for (const [name, callback] of Object.entries(op.callbacks)) {
        const { node } = follow(c.source, callback, "#");
        if (!isObject(node)) continue;
        for (const [expression, cbItem] of Object.entries(node)) {
          const at = child("#", "paths", path, method, "callbacks", name, expression);
          const { node: cb } = follow(c.source, cbItem, at);
          if (!isObject(cb)) continue;
          for (const cbMethod of METHODS) {
            // Events are sent by POST: only a POST callback is one.
            const event = cbMethod === "post" && isObject(cb.post) ? events(name) : { name };
            compareOperation(
              c,
              cb,
              servedWebhooks[event.name] as Json | undefined,
              cbMethod,
              child(at, cbMethod),
              "webhooks",
              event,
            );
          }
        }
      }
    }
  }
}

/**
 * The events a served operation emits (`x-emits`), handed out in the importer's order:
 * each callback named `name` is the next of them called `name`, or `name` numbered.
 */
function emitted(c: Comparer, path: string, method: string): (name: string) => Event {
  const item = paths(c.served)[path];
  const op = isObject(item) ? item[method] : undefined;
  const left = isObject(op) && Array.isArray(op[EMITS]) ? [...op[EMITS]] : [];
  return (name) => {
    const i = left.findIndex((e) => typeof e === "string" && numbered(e, name));
    const [event] = i === -1 ? [name] : left.splice(i, 1);
    const served = String(event);
    return served === name
      ? { name }
      : { name: served, renamed: `sent as the event ${served}: another event is ${name}` };
  };
}
