import { describe, expect, it } from "vitest";
import { rateLimitAddress } from "./client-address.js";

describe("the bucket a client address is counted in", () => {
  it("an IPv4 address is its own bucket", () => {
    expect(rateLimitAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitAddress("203.0.113.8")).not.toBe(rateLimitAddress("203.0.113.7"));
  });

  it("every address of one IPv6 /64 shares a bucket, however it is written", () => {
    const bucket = rateLimitAddress("2001:db8:1:2::1");
    for (const address of [
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0000:0000:0000:0009",
      "2001:DB8:1:2:a:b:c:d",
      "2001:db8:1:2::1%eth0",
    ])
      expect(rateLimitAddress(address)).toBe(bucket);
    expect(rateLimitAddress("2001:db8:1:3::1")).not.toBe(bucket);
    expect(rateLimitAddress("::1")).toBe("0:0:0:0::/64");
  });

  it("an IPv4-mapped IPv6 address counts as the IPv4 address", () => {
    expect(rateLimitAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitAddress("::ffff:cb00:7107")).toBe("203.0.113.7");
  });
});
