import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPrivateAddress, privateAddressReason } from "./private-address.js";

describe("private addresses", () => {
  it.each([
    ["0.0.0.0", '"this network" (RFC 1122 §3.2.1.3)'],
    ["0.255.1.1", '"this network" (RFC 1122 §3.2.1.3)'],
    ["10.0.0.1", "private (RFC 1918)"],
    ["172.16.0.1", "private (RFC 1918)"],
    ["172.31.255.255", "private (RFC 1918)"],
    ["192.168.1.1", "private (RFC 1918)"],
    ["100.64.0.1", "shared address space, CGNAT (RFC 6598)"],
    ["100.100.100.200", "shared address space, CGNAT (RFC 6598)"],
    ["127.0.0.1", "loopback (RFC 1122)"],
    ["127.255.255.254", "loopback (RFC 1122)"],
    ["169.254.169.254", "link-local (RFC 3927), cloud metadata"],
    ["168.63.129.16", "cloud metadata (Azure host endpoint)"],
    ["192.0.0.192", "IETF protocol assignments (RFC 6890)"],
    ["224.0.0.1", "multicast (RFC 5771)"],
    ["255.255.255.255", "reserved and broadcast (RFC 1112, RFC 919)"],
    ["::", "unspecified (RFC 4291)"],
    ["::1", "loopback (RFC 4291)"],
    ["fe80::1", "link-local (RFC 4291)"],
    ["fd00:ec2::254", "unique-local (RFC 4193), cloud metadata"],
    ["fc00::1", "unique-local (RFC 4193), cloud metadata"],
    ["ff02::1", "multicast (RFC 4291)"],
    ["::ffff:127.0.0.1", "loopback (RFC 1122)"],
    ["::ffff:a9fe:a9fe", "link-local (RFC 3927), cloud metadata"],
    ["64:ff9b::a00:1", "private (RFC 1918), inside 64:ff9b::a00:1"],
    ["2002:c0a8:101::1", "private (RFC 1918), inside 2002:c0a8:101::1"],
    ["::127.0.0.1", "IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)"],
    ["::808:808", "IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)"],
    ["64:ff9b:1::a9fe:a9fe", "local-use NAT64 (RFC 8215)"],
    ["64:ff9b:1:ffff::1", "local-use NAT64 (RFC 8215)"],
    ["::ffff:0:127.0.0.1", "IPv4-translated, deprecated (RFC 2765 §2.1)"],
    ["::ffff:0:7f00:1", "IPv4-translated, deprecated (RFC 2765 §2.1)"],
    ["0:0:0:0:ffff:0:a9fe:a9fe", "IPv4-translated, deprecated (RFC 2765 §2.1)"],
    ["::ffff:0:8.8.8.8", "IPv4-translated, deprecated (RFC 2765 §2.1)"],
  ])("%s is refused as %s", (address, reason) => {
    expect(privateAddressReason(address)).toBe(reason);
  });

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "169.253.255.255",
    "11.0.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "::ffff:8.8.8.8",
  ])("%s is public", (address) => {
    expect(privateAddressReason(address)).toBeUndefined();
  });

  it("judges every IPv4 address in its mapped IPv6 form the same way (property)", () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(isPrivateAddress(`::ffff:${v4}`)).toBe(isPrivateAddress(v4));
      }),
      { numRuns: 500 },
    );
  });

  it("refuses every IPv4 address in its translated form ::ffff:0:a.b.c.d (property)", () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(isPrivateAddress(`::ffff:0:${v4}`)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses every address of 10/8, 127/8 and 192.168/16 (property)", () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.constantFrom("10", "127", "192.168"), octet, octet, octet, (prefix, a, b, c) => {
        const address = prefix === "192.168" ? `192.168.${a}.${b}` : `${prefix}.${a}.${b}.${c}`;
        expect(isPrivateAddress(address)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("answers 'not an IP address' for a host name", () => {
    expect(privateAddressReason("localhost")).toBe("not an IP address");
  });
});
