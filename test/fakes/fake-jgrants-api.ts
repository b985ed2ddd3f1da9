/**
 * A fake jGrants public REST API on loopback (node:http, port 0), answering with the real response shapes:
 * list `{metadata, result:[…]}`, detail `{metadata, result:[record]}` with base64 attachments, 404 for
 * unknown ids. Scripted responses (429, 500, slow, non-JSON) are queued per path prefix.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toListItem } from "../../src/mcp-servers/jgrants/records.ts";
import type { JgrantsRecord } from "../../src/mcp-servers/jgrants/types.ts";

export interface FakeResponse {
  status?: number;
  /** An object is sent as JSON; a string is sent as is (e.g. an HTML error page). */
  body?: unknown;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface FakeCall {
  path: string;
  query: Record<string, string>;
}

export interface FakeJgrantsApi {
  /** Base URL to configure as JGRANTS_API_URL, e.g. http://127.0.0.1:PORT/exp */
  baseUrl: string;
  calls: FakeCall[];
  /** The records served; tests add, change and delete entries between requests. */
  records: Record<string, unknown>[];
  /** While true, every connection is cut without an answer (a network failure). */
  cut: boolean;
  /** Called with each request before it is answered (e.g. to cut the network after N calls). */
  onCall?: (call: FakeCall) => void;
  /** Queues responses for the next requests whose path starts with `prefix` ("/exp/v1/public/subsidies"). */
  script(prefix: string, ...responses: FakeResponse[]): void;
  close(): Promise<void>;
}

/** A one-page PDF whose text layer says `text` (ASCII), built with correct xref offsets. */
export function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

/** A big pseudo-random payload (deterministic), standing in for a Word form. */
export function bigBytes(size: number): Buffer {
  const buf = Buffer.alloc(size);
  let x = 12345;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    buf[i] = x & 0xff;
  }
  return buf;
}

/** Real-shaped records: list fields plus detail fields; the first has megabyte attachments. */
export function fakeRecords(): Record<string, unknown>[] {
  return [
    {
      id: "a0WJ200000CDapgMAD",
      name: "S-00009341",
      title: "令和8年度 ものづくりDX推進補助金",
      target_area_search: "東京都",
      subsidy_max_limit: 10_000_000,
      acceptance_start_datetime: "2026-07-01T00:00:00.000Z",
      acceptance_end_datetime: "2026-09-30T08:30Z",
      target_number_of_employees: "従業員数の制約なし",
      institution_name: "東京都産業労働局",
      subsidy_catch_phrase: "中小企業のDXを支援します",
      detail: '<p><strong>■目的</strong></p><p>製造業の<a href="https://example.jp">DX</a>を支援します。</p>',
      use_purpose: "設備整備・IT導入をしたい / 新たな事業を行いたい",
      industry: "製造業 / 情報通信業",
      target_area_detail: "東京都内に事業所を有すること",
      subsidy_rate: "2/3 以内",
      project_end_deadline: "2027-01-31T14:59Z",
      request_reception_presence: "有",
      is_enable_multiple_request: false,
      front_subsidy_detail_page_url: "https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDapgMAD",
      application_guidelines: [
        { name: "公募要領 第1版.pdf", data: tinyPdf("Koubo Youryou 2026").toString("base64") },
      ],
      outline_of_grant: [
        { name: "交付要綱.txt", data: Buffer.from("交付要綱の本文です。", "utf8").toString("base64") },
      ],
      application_form: [{ name: "様式1.docx", data: bigBytes(1_500_000).toString("base64") }],
    },
    {
      id: "a0WJ200000CDR9HMAX",
      name: "S-00008001",
      title: "全国 小規模事業者持続化補助金",
      target_area_search: "全国",
      subsidy_max_limit: 0,
      acceptance_start_datetime: "2026-06-01T00:00:00.000Z",
      acceptance_end_datetime: "2026-08-31T14:59:00.000Z",
      target_number_of_employees: "20名以下",
      institution_name: null,
      subsidy_catch_phrase: null,
      detail: "<p>販路開拓を支援</p>",
      use_purpose: "販路拡大・海外展開をしたい",
      industry: "卸売業、小売業",
      target_area_detail: null,
      subsidy_rate: "2/3",
      project_end_deadline: null,
      front_subsidy_detail_page_url: null,
    },
  ];
}

export interface FakeJgrantsOptions {
  /** When set, `acceptance=1` lists only records open at this instant (as the real API does). */
  now?: Date;
}

/** True when the record is open at `now` (start ≤ now ≤ end). */
function openAt(record: Record<string, unknown>, now: number): boolean {
  const start = Date.parse(String(record.acceptance_start_datetime ?? ""));
  const end = Date.parse(String(record.acceptance_end_datetime ?? ""));
  return !(Number.isNaN(end) || end < now || (!Number.isNaN(start) && start > now));
}

/** Starts the fake on 127.0.0.1 and a free port. */
export async function startFakeJgrantsApi(
  records = fakeRecords(),
  options: FakeJgrantsOptions = {},
): Promise<FakeJgrantsApi> {
  const calls: FakeCall[] = [];
  const scripts: Array<{ prefix: string; response: FakeResponse }> = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const query = Object.fromEntries(url.searchParams);
    const call = { path: url.pathname, query };
    calls.push(call);
    fake.onCall?.(call);
    if (fake.cut) return void req.socket.destroy();
    const scripted = scripts.findIndex((s) => url.pathname.startsWith(s.prefix));
    const answer = (r: FakeResponse) => {
      const body = typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? {});
      const type = typeof r.body === "string" ? "text/html" : "application/json";
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { "content-type": type, ...r.headers }).end(body);
      };
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    };
    if (scripted >= 0) {
      const [entry] = scripts.splice(scripted, 1);
      return answer(entry!.response);
    }
    const detail = /^\/exp\/v1\/public\/subsidies\/id\/([^/]+)$/.exec(url.pathname);
    if (detail) {
      const record = fake.records.find((r) => r.id === decodeURIComponent(detail[1]!));
      if (!record) return answer({ status: 404, body: { message: "Not Found" } });
      return answer({
        body: { metadata: { type: "application/json", resultset: { count: 1 } }, result: [record] },
      });
    }
    if (url.pathname === "/exp/v1/public/subsidies") {
      const keyword = (query.keyword ?? "").normalize("NFKC").toLowerCase();
      const now = options.now?.getTime();
      const result = fake.records
        .filter((r) => String(r.title).normalize("NFKC").toLowerCase().includes(keyword))
        .filter((r) => now === undefined || query.acceptance !== "1" || openAt(r, now))
        .map((r) => toListItem(r as unknown as JgrantsRecord));
      return answer({
        body: { metadata: { type: "application/json", resultset: { count: result.length } }, result },
      });
    }
    return answer({ status: 404, body: { message: "Not Found" } });
  });
  const fake: FakeJgrantsApi = {
    baseUrl: "",
    calls,
    records,
    cut: false,
    script(prefix, ...responses) {
      for (const response of responses) scripts.push({ prefix, response });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(fake, { baseUrl: `http://127.0.0.1:${port}/exp` });
  return fake;
}
