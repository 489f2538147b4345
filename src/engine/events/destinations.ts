/**
 * Where events go: deployment configuration, never part of the contract. The Worker var
 * `WEBHOOK_DESTINATIONS` holds a JSON list, each entry a receiver's `url`, the `events` it
 * takes (by part 6's names) and the name of the Worker `secret` that holds its signing key,
 * or several, space-separated, while one is rotated. With no var, nothing is sent.
 *
 * A destination is refused unless it is `https:` to a public host (OWASP SSRF Prevention
 * Cheat Sheet): no credentials in the URL, no loopback, private, link-local, shared or
 * multicast address literal, no `localhost`, `.local` or `.internal` name. A name that only
 * resolves to such an address cannot be caught here (a Worker cannot resolve names), which
 * Cloudflare's edge does not route to anyway. Redirects are never followed (deliver.ts).
 *
 * `npm run dev` sets `WEBHOOK_LOCAL_DELIVERY = "loopback"`, so that a developer can watch
 * deliveries on their own machine: then a loopback destination (`localhost`, `127.0.0.1`,
 * `[::1]`, over `http:` or `https:`) is accepted too, and nothing else more. An upload
 * (`wrangler deploy`) whose wrangler.toml sets it is refused by the build (src/build/write.ts).
 */
import { isBindingName } from "../bindings";

export const DESTINATIONS_VAR = "WEBHOOK_DESTINATIONS";
/** The var `npm run dev` sets to deliver to loopback destinations (never a deployment's). */
const LOCAL_DELIVERY_VAR = "WEBHOOK_LOCAL_DELIVERY";

/** Whether this Worker delivers to loopback destinations: under `npm run dev` only. */
export function loopbackAllowed(env: Readonly<Record<string, unknown>>): boolean {
  return env[LOCAL_DELIVERY_VAR] === "loopback";
}

/** A loopback destination: this machine, by name or address (RFC 6761 §6.3, RFC 5735, RFC 4291). */
function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

interface Destination {
  readonly url: string;
  readonly events: readonly string[];
  /** The Worker secret holding the `whsec_` key(s). */
  readonly secret: string;
}

export interface Destinations {
  readonly accepted: readonly Destination[];
  /** Entries refused, each with why: logged, never sent to. */
  readonly refused: readonly { readonly index: number; readonly reason: string }[];
}

function ipv4Private(host: string): boolean {
  const parts = host.split(".").map(Number);
  const [a = 0, b = 0] = parts;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

function ipv6Private(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (address === "::" || address === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped?.[1]) return ipv4Private(mapped[1]);
  // WHATWG URL writes an IPv4-mapped address in hex: ::ffff:7f00:1.
  if (address.startsWith("::ffff:")) return true;
  return /^(?:f[cd]|fe[89ab]|ff)/.test(address);
}

/**
 * Why a destination URL is refused, or undefined when it may be sent to; a loopback one is
 * sent to where `loopback` (`npm run dev`), over http: too.
 */
export function refusal(raw: string, loopback = false): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.username || url.password) return "credentials in a URL are not allowed";
  if (loopback && isLoopback(url) && (url.protocol === "http:" || url.protocol === "https:"))
    return undefined;
  if (url.protocol !== "https:") return "only https: destinations are allowed";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return ipv6Private(host) ? "a non-public address" : undefined;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host))
    return ipv4Private(host) ? "a non-public address" : undefined;
  if (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal") ||
    !host.includes(".")
  )
    return "a local host name";
  return undefined;
}

/** The configured destinations, read from the var; malformed entries are refused, never guessed. */
export function readDestinations(env: Readonly<Record<string, unknown>>): Destinations {
  const raw = env[DESTINATIONS_VAR];
  const loopback = loopbackAllowed(env);
  // Read once per isolate while the vars are unchanged: vars are fixed for a deployment.
  if (last && last.raw === raw && last.loopback === loopback) return last.destinations;
  const destinations = parseDestinations(raw, loopback);
  last = { raw, loopback, destinations };
  return destinations;
}

let last:
  | { readonly raw: unknown; readonly loopback: boolean; readonly destinations: Destinations }
  | undefined;

function parseDestinations(raw: unknown, loopback: boolean): Destinations {
  if (raw === undefined || raw === "") return { accepted: [], refused: [] };
  let list: unknown;
  try {
    list = typeof raw === "string" ? JSON.parse(raw) : raw;
  } catch {
    return { accepted: [], refused: [{ index: -1, reason: `${DESTINATIONS_VAR} is not JSON` }] };
  }
  if (!Array.isArray(list))
    return { accepted: [], refused: [{ index: -1, reason: `${DESTINATIONS_VAR} is not a list` }] };
  const accepted: Destination[] = [];
  const refused: { index: number; reason: string }[] = [];
  for (const [index, entry] of (list as unknown[]).entries()) {
    const { url, events, secret } = (entry ?? {}) as Record<string, unknown>;
    const reason =
      typeof url !== "string"
        ? "no url"
        : !Array.isArray(events) || !events.every((e) => typeof e === "string")
          ? "events must be a list of event names"
          : typeof secret !== "string" || !isBindingName(secret)
            ? "secret must name a Worker secret"
            : refusal(url, loopback);
    if (reason) refused.push({ index, reason });
    else accepted.push({ url, events, secret } as Destination);
  }
  return { accepted, refused };
}

/** The accepted destinations of one event. */
export function destinationsOf(destinations: Destinations, event: string): Destination[] {
  return destinations.accepted.filter((d) => d.events.includes(event));
}
