/**
 * IPv6 addresses that carry an IPv4 address inside them. A request to one of them can end up at that
 * IPv4 address (through the kernel, a NAT64 gateway or a tunnel relay), so the SSRF guard judges them by
 * the embedded address: `[::7f00:1]` is loopback, `[64:ff9b::a00:1]` is a private network.
 */
import ipaddr from "ipaddr.js";

const v4 = (high: number, low: number) =>
  ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;

/** The IPv4 addresses embedded in an IPv6 address (none for an ordinary one). */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-translated ::ffff:0:a.b.c.d (SIIT).
  if (zeros(0, 5) && p[5] === 0xffff) return [v4(p[6]!, p[7]!)];
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4(p[6]!, p[7]!)];
  // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); :: and ::1 stay IPv6.
  if (zeros(0, 6) && p[6] !== 0) return [v4(p[6]!, p[7]!)];
  // NAT64: the well-known prefix 64:ff9b::/96 and the local-use prefix 64:ff9b:1::/48 (RFC 8215).
  if (p[0] === 0x64 && p[1] === 0xff9b && (zeros(2, 6) || p[2] === 1)) return [v4(p[6]!, p[7]!)];
  // 6to4 2002:AABB:CCDD::/48 carries the IPv4 address in its second and third groups.
  if (p[0] === 0x2002) return [v4(p[1]!, p[2]!)];
  // Teredo 2001:0::/32: the server's address, and the client's address with every bit inverted.
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
  return [];
}
