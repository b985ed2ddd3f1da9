import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTimeMcpServer } from "../../../src/mcp-servers/time/server.ts";

describe("time MCP server", () => {
  // 2026-03-31T15:30Z is 2026-04-01 00:30 JST: a new fiscal year in Japan, still March in UTC.
  const server = createTimeMcpServer({ now: () => new Date("2026-03-31T15:30:00Z") });
  const client = new Client({ name: "test", version: "0" });

  beforeAll(async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args });

  it("lists read-only tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["days_until", "fiscal_year", "now"]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("tells the time in Asia/Tokyo with the month's range and fiscal year", async () => {
    const result = await call("now");
    expect(result.structuredContent).toMatchObject({
      timezone: "Asia/Tokyo",
      date: "2026-04-01",
      time: "00:30",
      weekday: "水",
      jst: "2026/04/01(水) 00:30",
      monthStart: "2026-04-01",
      monthEnd: "2026-04-30",
      fiscalYear: 2026,
    });
  });

  it("counts days until a date in JST, from plain dates and UTC datetimes", async () => {
    expect((await call("days_until", { date: "2026-04-11" })).structuredContent).toMatchObject({
      today: "2026-04-01",
      daysLeft: 10,
      past: false,
    });
    // A jGrants deadline of 23:59 JST is 14:59Z.
    expect((await call("days_until", { date: "2026-04-01T14:59:00.000Z" })).structuredContent).toMatchObject({
      date: "2026-04-01",
      daysLeft: 0,
    });
    expect((await call("days_until", { date: "2026-03-30" })).structuredContent).toMatchObject({
      daysLeft: -2,
      past: true,
    });
  });

  it("names the Japanese fiscal year (年度)", async () => {
    expect((await call("fiscal_year")).structuredContent).toMatchObject({
      fiscalYear: 2026,
      label: "令和8年度",
    });
    expect((await call("fiscal_year", { date: "2020-03-31" })).structuredContent).toMatchObject({
      fiscalYear: 2019,
      label: "令和元年度",
      start: "2019-04-01",
      end: "2020-03-31",
    });
  });

  it("rejects a malformed date as a tool error", async () => {
    const result = await call("days_until", { date: "2026-02-30" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("YYYY-MM-DD");
  });
});
