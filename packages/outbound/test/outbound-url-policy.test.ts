import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { outboundUrlProblem } from "../src/index.js";

const STRICT = { allowLocal: false };
const LOCAL = { allowLocal: true };
const octet = fc.integer({ min: 0, max: 255 });
// Ranges no outbound request may reach, whatever the development setting says (loopback aside).
const inside = fc.oneof(
  fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
  fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
  fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
  fc.tuple(octet, octet).map(([c, d]) => `169.254.${c}.${d}`),
  fc.tuple(fc.integer({ min: 64, max: 127 }), octet, octet).map(([b, c, d]) => `100.${b}.${c}.${d}`),
  fc.tuple(octet, octet, octet).map(([b, c, d]) => `0.${b}.${c}.${d}`),
);

describe("outbound URLs", () => {
  it("never reach a private, link-local, shared or unspecified IPv4 address, as written or mapped", () => {
    fc.assert(
      fc.property(inside, fc.constantFrom(STRICT, LOCAL), (address, policy) => {
        expect(outboundUrlProblem(`https://${address}/v3`, policy, "X")).not.toBeNull();
        expect(outboundUrlProblem(`https://[::ffff:${address}]/v3`, policy, "X")).not.toBeNull();
      }),
    );
  });

  it("reach loopback (also over http) only with the development setting, and http nowhere else", () => {
    fc.assert(
      fc.property(octet, octet, octet, (b, c, d) => {
        const url = `http://127.${b}.${c}.${d}:8080/v2`;
        expect(outboundUrlProblem(url, STRICT, "X")).not.toBeNull();
        expect(outboundUrlProblem(url, LOCAL, "X")).toBeNull();
      }),
    );
    expect(outboundUrlProblem("http://api.yookassa.ru/v3", LOCAL, "X")).toMatch(/https/);
    expect(outboundUrlProblem("https://api.yookassa.ru/v3", STRICT, "X")).toBeNull();
    expect(outboundUrlProblem("https://securepay.tinkoff.ru/v2", STRICT, "X")).toBeNull();
  });
});
