/**
 * Strict parsing of the Host and Origin headers for the browser guard. Anything that is not a plain
 * `name[:port]`, `[ipv6][:port]` or `http(s)://host[:port]` is malformed: the guard answers 400, never
 * lets `new URL()` throw into a 500.
 */

/** A host name and its effective port, as compared by the guard. */
export interface HostPort {
  /** Lower-cased host name; IPv6 literals keep their brackets, e.g. "[::1]". */
  name: string;
  /** The explicit port, or undefined when the header gives none. */
  port: number | undefined;
}

const NAME = /^[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*\.?$/;
const IPV6 = /^\[[0-9a-f:.]{2,45}\]$/;
const PORT = /^\d{1,5}$/;

/** Parses a Host header value (`name[:port]` or `[v6][:port]`); undefined when malformed. */
export function parseHost(value: string): HostPort | undefined {
  const text = value.trim().toLowerCase();
  if (text.length === 0 || text.length > 300) return undefined;
  let name: string;
  let rest: string;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) return undefined;
    name = text.slice(0, close + 1);
    rest = text.slice(close + 1);
    if (!IPV6.test(name)) return undefined;
  } else {
    const colon = text.indexOf(":");
    name = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? "" : text.slice(colon);
    if (!NAME.test(name)) return undefined;
  }
  if (rest === "") return { name, port: undefined };
  const port = rest.slice(1);
  if (!rest.startsWith(":") || !PORT.test(port) || Number(port) > 65_535) return undefined;
  return { name, port: Number(port) };
}

/** The scheme and host of an Origin header; undefined when malformed (or not http/https). */
export function parseOrigin(value: string): (HostPort & { scheme: "http" | "https" }) | undefined {
  const match = /^(https?):\/\/([^/?#]*)$/i.exec(value.trim());
  if (!match) return undefined;
  const host = parseHost(match[2] ?? "");
  if (!host) return undefined;
  return { ...host, scheme: match[1]!.toLowerCase() as "http" | "https" };
}

/** The port a request for this scheme reaches when none is written. */
export function defaultPort(scheme: "http" | "https"): number {
  return scheme === "https" ? 443 : 80;
}
