import { BlockList, isIP } from "node:net";

/**
 * The address ranges a webhook may not be sent to unless private targets are allowed, each with
 * the rule that sets it apart. A webhook URL is chosen by a client, so without this check the
 * service could be steered into its own network (server-side request forgery): the loopback
 * interface, the LAN, a cloud's metadata service.
 *
 * @example
 * PRIVATE_ADDRESS_RANGES.find((r) => r.cidr === "169.254.0.0/16")?.label; // "link-local (RFC 3927), cloud metadata"
 */
export const PRIVATE_ADDRESS_RANGES: readonly { cidr: string; label: string }[] = [
  { cidr: "0.0.0.0/8", label: '"this network" (RFC 1122 §3.2.1.3)' },
  { cidr: "10.0.0.0/8", label: "private (RFC 1918)" },
  { cidr: "100.64.0.0/10", label: "shared address space, CGNAT (RFC 6598)" },
  { cidr: "127.0.0.0/8", label: "loopback (RFC 1122)" },
  { cidr: "169.254.0.0/16", label: "link-local (RFC 3927), cloud metadata" },
  { cidr: "172.16.0.0/12", label: "private (RFC 1918)" },
  { cidr: "192.0.0.0/24", label: "IETF protocol assignments (RFC 6890)" },
  { cidr: "192.168.0.0/16", label: "private (RFC 1918)" },
  { cidr: "198.18.0.0/15", label: "benchmarking (RFC 2544)" },
  { cidr: "224.0.0.0/4", label: "multicast (RFC 5771)" },
  { cidr: "240.0.0.0/4", label: "reserved and broadcast (RFC 1112, RFC 919)" },
  // Azure's host endpoint answers metadata-like requests on a public-looking address.
  { cidr: "168.63.129.16/32", label: "cloud metadata (Azure host endpoint)" },
  { cidr: "::/128", label: "unspecified (RFC 4291)" },
  { cidr: "::1/128", label: "loopback (RFC 4291)" },
  // Deprecated IPv4-compatible addresses (::a.b.c.d), which some stacks still route as IPv4.
  { cidr: "::/96", label: "IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)" },
  // A network's own NAT64 prefix: where the IPv4 address sits in it is the network's choice, so
  // the whole prefix is refused rather than judged by an address read from the wrong bits.
  { cidr: "64:ff9b:1::/48", label: "local-use NAT64 (RFC 8215)" },
  // IPv4-translated addresses (::ffff:0:a.b.c.d) of the old stateless translator, dropped by RFC
  // 6145: no public host has one, and a translator would carry the request to the IPv4 address
  // inside, so the whole prefix is refused, as ::/96 is, whatever address it holds.
  { cidr: "::ffff:0:0:0/96", label: "IPv4-translated, deprecated (RFC 2765 §2.1)" },
  { cidr: "fc00::/7", label: "unique-local (RFC 4193), cloud metadata" },
  { cidr: "fe80::/10", label: "link-local (RFC 4291)" },
  { cidr: "fec0::/10", label: "site-local (RFC 3879)" },
  { cidr: "ff00::/8", label: "multicast (RFC 4291)" },
];

const RANGES = PRIVATE_ADDRESS_RANGES.map(({ cidr, label }) => {
  const [network = "", bits = "0"] = cidr.split("/");
  const list = new BlockList();
  const family = isIP(network) === 6 ? "ipv6" : "ipv4";
  list.addSubnet(network, Number(bits), family);
  return { label, list };
});

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.toLowerCase().split("%")[0] ?? "";
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split(".").map(Number);
    text = `${text.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parts = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const groups = [...left, ...fill, ...right];
  return groups.length === 8 ? groups : undefined;
}

/** The IPv4 address inside a NAT64 (64:ff9b::/96, RFC 6052) or 6to4 (2002::/16, RFC 3056) address. */
function embeddedIpv4(groups: number[]): string | undefined {
  const octets = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return octets(g6, g7);
  if (g0 === 0x2002) return octets(g1 ?? 0, g2 ?? 0);
  return undefined;
}

/**
 * Why an IP address is not a public webhook target, or undefined when it is public. IPv4-mapped
 * (`::ffff:127.0.0.1`), NAT64 and 6to4 addresses are judged by the IPv4 address inside them.
 *
 * @example
 * privateAddressReason("10.1.2.3"); // "private (RFC 1918)"
 * privateAddressReason("93.184.215.14"); // undefined
 */
export function privateAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return "not an IP address";
  const type = family === 6 ? "ipv6" : "ipv4";
  for (const range of RANGES) if (range.list.check(address, type)) return range.label;
  if (family === 6) {
    const groups = ipv6Groups(address);
    const inner = groups && embeddedIpv4(groups);
    if (inner) {
      const reason = privateAddressReason(inner);
      if (reason) return `${reason}, inside ${address}`;
    }
  }
  return undefined;
}

/**
 * Whether an IP address lies in one of the {@link PRIVATE_ADDRESS_RANGES}.
 *
 * @example
 * isPrivateAddress("127.0.0.1"); // true
 * isPrivateAddress("::ffff:169.254.169.254"); // true
 */
export function isPrivateAddress(address: string): boolean {
  return privateAddressReason(address) !== undefined;
}
