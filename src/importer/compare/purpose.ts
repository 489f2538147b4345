/**
 * Part 1's tags (matched by name) and servers (matched by URL).
 */
import { serverBase, withoutBase } from "../server-base";
import { child, isObject } from "../source";
import type { Comparer } from "./context";

/** Part 1's tags, matched by name. */
export function compareTags(c: Comparer): void {
  const servedTags = new Map(
    (Array.isArray(c.served.tags) ? c.served.tags : []).filter(isObject).map((t) => [t.name, t]),
  );
  (Array.isArray(c.source.tags) ? c.source.tags : []).forEach((tag, i) => {
    if (!isObject(tag)) return;
    const at = child("#", "tags", i);
    const servedTag = servedTags.get(tag.name);
    c.record("tags", at, servedTag !== undefined, `tag ${String(tag.name)} is missing`);
    if (!servedTag) return;
    c.text("tags", child(at, "description"), tag.description, servedTag.description, "description");
    c.same(
      "tags",
      child(at, "externalDocs"),
      tag.externalDocs,
      servedTag.externalDocs,
      "externalDocs",
    );
  });
}

/** Part 1's servers, matched by URL. */
export function compareServers(c: Comparer): void {
  const servedServers = (Array.isArray(c.served.servers) ? c.served.servers : []).filter(isObject);
  // Each server is served without the path the import wrote in front of every path.
  const { base } = serverBase(c.source);
  (Array.isArray(c.source.servers) ? c.source.servers : []).forEach((server, i) => {
    if (!isObject(server)) return;
    const at = child("#", "servers", i);
    const url = typeof server.url === "string" ? withoutBase(server.url, base) : server.url;
    const servedServer = servedServers.find((s) => s.url === url);
    c.record("servers", at, servedServer !== undefined, `server ${String(server.url)} is missing`);
    if (!servedServer) return;
    c.text(
      "servers",
      child(at, "description"),
      server.description,
      servedServer.description,
      "description",
    );
    c.same(
      "servers",
      child(at, "variables"),
      server.variables,
      servedServer.variables,
      "variables",
    );
  });
}
