/** Defect 5 of issue 14: IPv6 forms that embed an IPv4 address are judged by that IPv4 address. */
import { describe, expect, it } from "vitest";
import {
  checkedAddress,
  ForbiddenAddressError,
  refusalReason,
} from "../../../src/mcp-servers/fetch/address-guard.ts";

const noDns = async () => [] as string[];

describe("SSRF guard: IPv4 embedded in IPv6", () => {
  it.each([
    ["::7f00:1", /loopback address 127\.0\.0\.1/], // IPv4-compatible
    ["::a00:1", /private address 10\.0\.0\.1/],
    ["::127.0.0.1", /loopback/],
    ["::ffff:127.0.0.1", /loopback/], // IPv4-mapped
    ["::ffff:0:a00:1", /private/], // IPv4-translated (SIIT)
    ["::ffff:a9fe:a9fe", /cloud metadata address 169\.254\.169\.254/],
    ["64:ff9b::7f00:1", /loopback/], // NAT64 well-known prefix
    ["64:ff9b::c0a8:101", /private address 192\.168\.1\.1/],
    ["64:ff9b:1::a00:1", /private/], // NAT64 local-use prefix
    ["2002:7f00:1::", /loopback/], // 6to4
    ["2002:a9fe:a9fe::1", /cloud metadata/],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", /loopback address 127\.0\.0\.1/], // Teredo client 127.0.0.1
    ["2001:0:a00:1:8000:63bf:f7f7:f7f7", /private address 10\.0\.0\.1/], // Teredo server 10.0.0.1
  ])("refuses %s", (address, reason) => {
    expect(refusalReason(address)).toMatch(reason);
  });

  it.each([
    ["::808:808"], // IPv4-compatible 8.8.8.8
    ["64:ff9b::808:808"], // NAT64 of a public address
    ["2002:808:808::1"], // 6to4 of a public address
    ["2001:0:808:808:8000:63bf:f7f7:f7f7"], // Teredo, public server and client 8.8.8.8
    ["2606:4700:4700::1111"], // an ordinary public IPv6 address
  ])("lets %s through (a public address inside)", (address) => {
    expect(refusalReason(address)).toBeUndefined();
  });

  it("keeps refusing :: and ::1", () => {
    expect(refusalReason("::")).toMatch(/unspecified/);
    expect(refusalReason("::1")).toMatch(/loopback/);
  });

  it("refuses bracketed URL literals before any connection", async () => {
    for (const url of ["http://[::7f00:1]/", "http://[::a00:1]:8080/x", "http://[64:ff9b::a9fe:a9fe]/"]) {
      await expect(checkedAddress(new URL(url), noDns)).rejects.toBeInstanceOf(ForbiddenAddressError);
    }
  });

  it("refuses a name that resolves to an embedding form", async () => {
    const resolver = async () => ["2002:a00:1::1"];
    await expect(checkedAddress(new URL("http://sneaky.example/"), resolver)).rejects.toThrow(/private/);
  });
});
