import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger.ts";
import { createJgrantsSource, type JgrantsSourceDeps } from "../../../src/mcp-servers/jgrants/source.ts";
import { bigBytes, type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { callJson, connectInMemory, jgrantsConfig } from "./helpers.ts";

const LIST = "/exp/v1/public/subsidies";
const DETAIL = "/exp/v1/public/subsidies/id/";
let fake: FakeJgrantsApi;
let client: Client;
let close: () => Promise<unknown>;
const sleeps: number[] = [];
const logLines: string[] = [];

function liveSource(overrides: Partial<ReturnType<typeof jgrantsConfig>> = {}, deps: JgrantsSourceDeps = {}) {
  return createJgrantsSource(
    jgrantsConfig({ source: "live", apiUrl: fake.baseUrl, timeoutMs: 300, ...overrides }),
    {
      logger: createLogger({
        level: "debug",
        destination: { write: (line: string) => void logLines.push(line) },
      }),
      now: () => new Date("2026-08-22T00:00:00Z"),
      retryDelaysMs: [5, 5],
      sleep: async (ms) => void sleeps.push(ms),
      ...deps,
    },
  );
}

beforeAll(async () => {
  fake = await startFakeJgrantsApi();
  ({ client, close } = await connectInMemory({ source: liveSource() }));
});
afterAll(async () => {
  await close();
  await fake.close();
});
beforeEach(() => {
  fake.calls.length = 0;
  sleeps.length = 0;
});

describe("live source against the fake jGrants API", () => {
  it("searches with the API's query parameters and returns the list shape", async () => {
    const result = await callJson(client, "search_subsidies", {
      keyword: "補助金",
      target_area_search: "東京都/全国",
      industry: ["製造業", "情報通信業"],
    });
    expect(result.total_count).toBe(2);
    expect(result.subsidies[0]).toHaveProperty("acceptance_end_datetime");
    expect(result.data_source).toEqual({ mode: "live", as_of: "2026-08-22" });
    expect(fake.calls[0]).toEqual({
      path: LIST,
      query: {
        keyword: "補助金",
        sort: "acceptance_end_datetime",
        order: "ASC",
        acceptance: "1",
        industry: "製造業 / 情報通信業",
        target_area_search: "東京都 / 全国",
      },
    });
  });

  it("returns details with names and sizes of megabyte attachments, never their base64", async () => {
    const detail = await callJson(client, "get_subsidy_detail", { subsidy_id: "a0WJ200000CDapgMAD" });
    const text = JSON.stringify(detail);
    expect(text.length).toBeLessThan(20_000);
    const docxBase64 = bigBytes(1_500_000).toString("base64");
    expect(text).not.toContain(docxBase64.slice(0, 200));
    expect(detail.files.application_form[0]).toMatchObject({ name: "様式1.docx", size: 1_500_000 });
    expect(detail.files.application_guidelines[0]).toMatchObject({
      name: "公募要領_第1版.pdf",
      original_name: "公募要領 第1版.pdf",
    });
    expect(detail).toMatchObject({
      subsidy_rate: "2/3 以内",
      industry: "製造業 / 情報通信業",
      target: { industry: "製造業 / 情報通信業", area: "東京都" },
      project_end_deadline: "2027-01-31T14:59Z",
      portal_url: "https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDapgMAD",
      status: "受付中",
    });
    expect(detail.description_text).toContain("製造業のDX [https://example.jp]を支援します。");
    expect(logLines.join("")).not.toContain(docxBase64.slice(0, 200));
  });

  it("converts attachments on demand: PDF and text to text, other formats unsupported, big base64 refused", async () => {
    const args = { subsidy_id: "a0WJ200000CDapgMAD" };
    const pdf = await callJson(client, "get_file_content", { ...args, filename: "公募要領_第1版.pdf" });
    expect(pdf.content_markdown).toContain("Koubo Youryou 2026");
    expect(pdf).toMatchObject({ mime_type: "application/pdf", extraction_method: "unpdf_pdf" });
    const txt = await callJson(client, "get_file_content", { ...args, filename: "交付要綱.txt" });
    expect(txt.content_markdown).toBe("交付要綱の本文です。");
    const small = await callJson(client, "get_file_content", {
      ...args,
      filename: "交付要綱.txt",
      return_format: "base64",
    });
    expect(Buffer.from(small.content_base64, "base64").toString("utf8")).toBe("交付要綱の本文です。");
    const docx = await callJson(client, "get_file_content", { ...args, filename: "様式1.docx" });
    expect(docx.error).toContain("対応していません");
    const big = await callJson(client, "get_file_content", {
      ...args,
      filename: "様式1.docx",
      return_format: "base64",
    });
    expect(big.error).toContain("base64 で返せるのは");
    const missing = await callJson(client, "get_file_content", { ...args, filename: "nothing.pdf" });
    expect(missing).toEqual({ error: "ファイルが見つかりません: a0WJ200000CDapgMAD/nothing.pdf" });
  });

  it("caps converted text and flags it, and refuses files over the size cap", async () => {
    const source = liveSource(
      {},
      { fileLimits: { maxFileBytes: 10_000_000, maxBase64Bytes: 10, maxTextChars: 4 } },
    );
    const result = await source.file("a0WJ200000CDapgMAD", "交付要綱.txt", "markdown");
    expect(result).toMatchObject({ content_markdown: "交付要綱", truncated: true, total_chars: 10 });
    const tight = liveSource({}, { fileLimits: { maxFileBytes: 16, maxBase64Bytes: 16, maxTextChars: 100 } });
    for (const format of ["markdown", "base64"] as const) {
      const refused = await tight.file("a0WJ200000CDapgMAD", "交付要綱.txt", format);
      expect(refused).toEqual({ error: "ファイルサイズが上限を超えています (30 > 16 bytes)" });
    }
  });

  it("maps 404 to the official not-found error", async () => {
    const result = await callJson(client, "get_subsidy_detail", { subsidy_id: "a0WJ200000CDnoneMAX" });
    expect(result).toEqual({ error: "補助金ID 'a0WJ200000CDnoneMAX' が見つかりません" });
  });

  it("backs off on 429 and then succeeds", async () => {
    fake.script(LIST, { status: 429 });
    const result = await callJson(client, "search_subsidies", { keyword: "補助金" });
    expect(result.total_count).toBe(2);
    expect(fake.calls).toHaveLength(2);
    expect(sleeps).toEqual([5]);
  });

  it("retries 5xx a bounded number of times, then returns the official HTTP error", async () => {
    fake.script(LIST, { status: 500 }, { status: 503 }, { status: 500 });
    const result = await callJson(client, "search_subsidies", { keyword: "補助金" });
    expect(result).toEqual({ error: "HTTPエラー: 500" });
    expect(fake.calls).toHaveLength(3);
  });

  it("never retries other 4xx", async () => {
    fake.script(LIST, { status: 400, body: { message: "bad" } });
    const result = await callJson(client, "search_subsidies", { keyword: "補助金" });
    expect(result).toEqual({ error: "HTTPエラー: 400" });
    expect(fake.calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("times out a response slower than the timeout", async () => {
    fake.script(LIST, { delayMs: 2_000, body: { result: [] } });
    const result = await callJson(client, "search_subsidies", { keyword: "補助金" });
    expect(result).toEqual({ error: "リクエストがタイムアウトしました: 300ms" });
  });

  it("reports a non-JSON answer clearly", async () => {
    fake.script(LIST, { body: "<html>maintenance</html>" });
    const result = await callJson(client, "search_subsidies", { keyword: "補助金" });
    expect(result.error).toContain("JSONではありません");
  });

  it("spaces detail calls politely", async () => {
    const source = liveSource({ detailIntervalMs: 5_000 });
    await source.detail("a0WJ200000CDapgMAD");
    await source.detail("a0WJ200000CDR9HMAX");
    expect(fake.calls.map((c) => c.path.startsWith(DETAIL))).toEqual([true, true]);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(0);
    expect(sleeps[0]).toBeLessThanOrEqual(5_000);
  });

  it("fills overview statistics from the live list, counting subsidies open now", async () => {
    const stats = await callJson(client, "get_subsidy_overview", {});
    expect(fake.calls[0]!.query).toMatchObject({ keyword: "事業", acceptance: "1" });
    expect(stats.data_source.mode).toBe("live");
    // The fake matches titles: only 小規模事業者持続化補助金 (9 days left, amount 0 = not set) contains 事業.
    expect(stats.total_count).toBe(1);
    expect(stats.by_deadline_period).toEqual({
      accepting: 1,
      this_month: 1,
      next_month: 0,
      after_next_month: 0,
    });
    expect(stats.by_amount_range.unspecified).toBe(1);
    expect(stats.urgent_deadlines).toEqual([
      { id: "a0WJ200000CDR9HMAX", title: "全国 小規模事業者持続化補助金", days_left: 9 },
    ]);
  });
});

describe("auto source", () => {
  let deadUrl: string;
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    deadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/exp`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("uses the live API when it answers", async () => {
    const source = createJgrantsSource(jgrantsConfig({ source: "auto", apiUrl: fake.baseUrl }));
    const result = await source.search({
      keyword: "補助金",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 1,
    });
    expect(result.data_source).toMatchObject({ mode: "live" });
  });

  it("falls back to the snapshot when the API is unreachable and says so", async () => {
    const source = createJgrantsSource(jgrantsConfig({ source: "auto", apiUrl: deadUrl }));
    const result = await source.search({
      keyword: "補助金",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 1,
    });
    expect(result.total_count).toBeGreaterThan(0);
    expect(result.data_source).toMatchObject({ mode: "snapshot", as_of: "2026-08-22" });
    expect((result.data_source as { fallback_reason: string }).fallback_reason).toContain(
      "APIサーバーへの接続に失敗しました",
    );
    const detail = await source.detail("a0WJ200000CDbPBMA1");
    expect(detail.data_source).toMatchObject({ mode: "snapshot" });
  });

  it("after a fallback, serves the snapshot for a while before trying live again", async () => {
    const search = {
      keyword: "補助金",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 1,
    } as const;
    const config = jgrantsConfig({ source: "auto", apiUrl: fake.baseUrl });
    const deps = { retryDelaysMs: [1], sleep: async () => undefined };
    fake.script(LIST, { status: 503 }, { status: 503 });
    const patient = createJgrantsSource(config, { ...deps, liveRetryAfterMs: 3_600_000 });
    const first = await patient.search(search);
    expect((first.data_source as { fallback_reason: string }).fallback_reason).toContain("HTTPエラー: 503");
    fake.calls.length = 0;
    expect((await patient.search(search)).data_source).toMatchObject({ mode: "snapshot" });
    expect(fake.calls).toEqual([]);

    fake.script(LIST, { status: 503 }, { status: 503 });
    const eager = createJgrantsSource(config, { ...deps, liveRetryAfterMs: 0 });
    expect((await eager.search(search)).data_source).toMatchObject({ mode: "snapshot" });
    expect((await eager.search(search)).data_source).toEqual({ mode: "live", as_of: expect.any(String) });
  });

  it("in live mode an unreachable API is the official connection error", async () => {
    const source = createJgrantsSource(jgrantsConfig({ source: "live", apiUrl: deadUrl }));
    const result = await source.search({
      keyword: "補助金",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 1,
    });
    expect(String(result.error)).toMatch(/^APIサーバーへの接続に失敗しました: /);
  });
});
