/** Realistic Subsidy records for renderer and adapter tests (values shaped like the bundled snapshot). */
import type { Reply, Subsidy } from "../../src/types.ts";

const AREAS = ["東京都", "全国", "大阪府", "愛知県", "北海道"];

/** The i-th sample subsidy (1-based), deterministic. */
export function sampleSubsidy(i: number, overrides: Partial<Subsidy> = {}): Subsidy {
  const id = `a0WJ200000CD${String(i).padStart(4, "0")}MAX`;
  return {
    id,
    title: `令和8年度 中小企業デジタル化・IT導入支援補助金（第${i}回）& <特別枠>`,
    name: `S-0000${9000 + i}`,
    maxAmountYen: i % 4 === 0 ? null : 1_000_000 * i,
    maxAmountText: i % 4 === 0 ? "公募要領を確認" : `${100 * i}万円`,
    rate: i % 3 === 0 ? null : "2/3 以内又は 1/2 以内",
    start: { iso: "2026-10-01T00:00:00.000Z", jst: "2026/10/01(木) 09:00" },
    end: { iso: "2026-12-17T14:59:00.000Z", jst: "2026/12/17(木) 23:59" },
    status: "受付中",
    daysLeft: 18,
    area: AREAS[i % AREAS.length] ?? "全国",
    employees: "20名以下",
    industry: "製造業 / 情報通信業",
    purpose: "設備整備・IT導入をしたい",
    institution: "東京都産業労働局",
    summary:
      "中小企業が行うITツールの導入やDXの取組に要する経費の一部を補助します。クラウドサービスの利用料も対象です。",
    url: `https://www.jgrants-portal.go.jp/subsidy/${id}`,
    source: { mode: "snapshot", asOf: "2026-08-22" },
    detailed: true,
    ...overrides,
  };
}

/** A full agent Reply with n subsidies. */
export function sampleReply(n: number, overrides: Partial<Reply> = {}): Reply {
  const subsidies = Array.from({ length: n }, (_, k) => sampleSubsidy(k + 1));
  return {
    threadKey: "test:thread",
    text: `「IT導入」で${n}件見つかりました。\n\n**1. ${subsidies[0]?.title ?? ""}**\n- 上限額: 100万円\n\n出典: Jグランツ`,
    subsidies,
    totalCount: n + 7,
    conditions: { keywords: ["IT導入", "DX"], area: "東京都", acceptance: "1" },
    plan: [],
    toolResults: [],
    meta: {
      mode: "offline",
      model: null,
      rounds: 2,
      llmCalls: 0,
      toolCalls: 3,
      promptBytes: 0,
      durationMs: 12,
    },
    kind: "answer",
    notes: ["2026-08-22時点のデータです。"],
    ...overrides,
  };
}
