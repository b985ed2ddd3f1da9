import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchMcpServer, type FetchServerOptions } from "../../../src/mcp-servers/fetch/server.ts";
import { type FakeHttpPages, startFakeHttpPages } from "../../fakes/fake-http-pages.ts";

// No test reaches real DNS: every name resolves through this table.
const DNS: Record<string, string[]> = {
  "site.example": ["127.0.0.1"],
  "rebind.example": ["127.0.0.2"],
  "intranet.example": ["192.168.1.10"],
  "mixed.example": ["93.184.216.34", "10.0.0.1"],
  "v6local.example": ["fe80::1"],
};
const resolver = async (host: string) => DNS[host] ?? [];

async function connect(options: FetchServerOptions) {
  const server = createFetchMcpServer({ resolver, ...options });
  const client = new Client({ name: "test", version: "0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  const fetchUrl = async (url: string, extra: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name: "fetch", arguments: { url, ...extra } });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    return {
      isError: result.isError === true,
      text,
      data: result.structuredContent as Record<string, unknown>,
    };
  };
  return { fetchUrl, close: () => client.close() };
}

describe("fetch MCP server", () => {
  let site: FakeHttpPages;
  let allowed: Awaited<ReturnType<typeof connect>>;
  let strict: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    site = await startFakeHttpPages();
    // Test-only: 127.0.0.1 is allowed so the local site can stand in for a public one.
    allowed = await connect({ allowAddresses: ["127.0.0.1"], maxBytes: 50_000, timeoutMs: 1_000 });
    strict = await connect({});
  });
  afterAll(async () => {
    await allowed?.close();
    await strict?.close();
    await site?.close();
  });

  it("returns a page as readable text with its title, without scripts, styles or navigation", async () => {
    const result = await allowed.fetchUrl(`http://site.example:${site.port}/page`);
    expect(result.isError).toBe(false);
    expect(result.data).toMatchObject({
      status: 200,
      contentType: "text/html",
      title: "ものづくり補助金 | テスト",
    });
    const text = String(result.data.text);
    expect(text).toContain("補助上限額は1,250万円です。");
    expect(text).not.toMatch(/alert|color:red|メニュー|<p>/);
  });

  it("follows a redirect within the allowed origin and decodes Shift_JIS", async () => {
    const page = await allowed.fetchUrl(`${site.origin}/to-page`);
    expect(page.data).toMatchObject({ url: `${site.origin}/page`, status: 200 });
    const sjis = await allowed.fetchUrl(`${site.origin}/sjis`);
    expect(sjis.data.text).toBe("補助金");
  });

  it("refuses redirects from an allowed origin to forbidden addresses", async () => {
    for (const [path, why] of [
      ["/to-private", /private address 10\.0\.0\.5/],
      ["/to-metadata", /cloud metadata address 169\.254\.169\.254/],
      ["/to-rebind", /rebind\.example resolves to a loopback address/],
      ["/to-file", /only http and https/],
    ] as const) {
      const result = await allowed.fetchUrl(`${site.origin}${path}`);
      expect(result.isError, path).toBe(true);
      expect(result.text, path).toMatch(why);
    }
  });

  it("refuses every forbidden address class, by literal address, by DNS answer and by name", async () => {
    const cases: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${site.port}/page`, /loopback/],
      ["http://127.0.0.2/", /loopback/],
      ["http://[::1]/", /loopback/],
      ["http://localhost/", /loopback host/],
      ["http://[::ffff:127.0.0.1]/", /loopback/],
      ["http://0.0.0.0/", /unspecified/],
      ["http://10.1.2.3/", /private/],
      ["http://172.16.0.1/", /private/],
      ["http://192.168.0.1/", /private/],
      ["http://[fc00::1]/", /uniqueLocal/],
      ["http://100.64.0.1/", /carrierGradeNat/],
      ["http://169.254.1.1/", /linkLocal/],
      ["http://[fe80::1]/", /linkLocal/],
      ["http://224.0.0.1/", /multicast/],
      ["http://[ff02::1]/", /multicast/],
      ["http://169.254.169.254/latest/meta-data/", /cloud metadata/],
      ["http://[fd00:ec2::254]/", /cloud metadata/],
      ["http://metadata.google.internal/computeMetadata/v1/", /cloud metadata host/],
      ["http://rebind.example/", /resolves to a loopback/],
      ["http://intranet.example/", /resolves to a private/],
      ["http://mixed.example/", /resolves to a private/],
      ["http://v6local.example/", /resolves to a linkLocal/],
      ["http://unknown.example/", /no address found/],
      ["ftp://site.example/file", /only http and https/],
      ["file:///etc/passwd", /only http and https/],
      ["not a url", /not a valid URL/],
    ];
    for (const [url, why] of cases) {
      const result = await strict.fetchUrl(url);
      expect(result.isError, url).toBe(true);
      expect(result.text, url).toMatch(why);
    }
  });

  it("checks the content type, caps the size and times out", async () => {
    const pdf = await allowed.fetchUrl(`${site.origin}/pdf`);
    expect(pdf.text).toContain('unsupported content type "application/pdf"');
    const big = await allowed.fetchUrl(`${site.origin}/big`, { maxChars: 1_000 });
    expect(big.data).toMatchObject({ truncated: true });
    expect(String(big.data.text)).toMatch(/…\[truncated 49000 chars\]$/);
    const slow = await allowed.fetchUrl(`${site.origin}/slow`);
    expect(slow.isError).toBe(true);
    expect(slow.text).toContain("timed out");
    const missing = await allowed.fetchUrl(`${site.origin}/missing`);
    expect(missing.text).toContain("HTTP 404");
  });
});
