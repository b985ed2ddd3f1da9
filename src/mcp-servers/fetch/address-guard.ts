/**
 * Which addresses the fetch server may connect to. Only public unicast addresses pass: loopback, private,
 * link-local, multicast, reserved and cloud-metadata addresses are refused, whatever name led to them.
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { embeddedIPv4 } from "./embedded-ipv4.ts";

/** Maps a host name to its addresses (tests inject a stub; no test reaches real DNS). */
export type Resolver = (hostname: string) => Promise<string[]>;

/** The system resolver. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);
const METADATA_HOSTS = new Set([
  "metadata.google.internal",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** A refusal the tool reports to the planner. */
export class ForbiddenAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForbiddenAddressError";
  }
}

/** Why an address is refused, or undefined when it is a public unicast address (or explicitly allowed). */
export function refusalReason(address: string, allow: ReadonlySet<string> = new Set()): string | undefined {
  if (!ipaddr.isValid(address)) return `not an IP address: ${address}`;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return judge(parsed, allow);
  const v6 = parsed as ipaddr.IPv6;
  const inner = embeddedIPv4(v6);
  if (inner.length === 0 || allow.has(v6.toString())) return judge(v6, allow);
  // An IPv6 form that carries an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) is that address.
  for (const v4 of inner) {
    const reason = judge(v4, allow);
    if (reason) return `${reason} (embedded in ${v6.toString()})`;
  }
  return undefined;
}

/** Judges one address by itself: metadata, the allow list, then its range. */
function judge(address: ipaddr.IPv4 | ipaddr.IPv6, allow: ReadonlySet<string>): string | undefined {
  const normalized = address.toString();
  if (METADATA_ADDRESSES.has(normalized)) return `cloud metadata address ${normalized}`;
  if (allow.has(normalized)) return undefined;
  const range = address.range();
  return range === "unicast" ? undefined : `${range} address ${normalized}`;
}

/** Refuses a host name by name alone (metadata names, "localhost"). */
export function hostnameRefusal(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_HOSTS.has(name)) return `cloud metadata host ${name}`;
  if (name === "localhost" || name.endsWith(".localhost")) return `loopback host ${name}`;
  return undefined;
}

/** Resolves a URL's host and returns one checked address to connect to; throws when any address is refused. */
export async function checkedAddress(
  url: URL,
  resolver: Resolver,
  allow: ReadonlySet<string> = new Set(),
): Promise<{ address: string; family: 4 | 6 }> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ForbiddenAddressError(`only http and https URLs are allowed (got ${url.protocol})`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const byName = ipaddr.isValid(host) ? undefined : hostnameRefusal(host);
  if (byName) throw new ForbiddenAddressError(`refused: ${byName}`);
  const addresses = ipaddr.isValid(host) ? [host] : await resolver(host);
  if (addresses.length === 0) throw new ForbiddenAddressError(`no address found for ${host}`);
  // Every address must pass: a name resolving to one public and one private address is refused.
  for (const address of addresses) {
    const reason = refusalReason(address, allow);
    if (reason) throw new ForbiddenAddressError(`refused: ${host} resolves to a ${reason}`);
  }
  const address = addresses[0]!;
  return { address, family: ipaddr.parse(address).kind() === "ipv6" ? 6 : 4 };
}
