/** get_subsidy_overview: the official statistics, computed over the default search, plus CSV output. */
import { isAccepting, parseInstant } from "./records.ts";
import type { DataSourceInfo, JgrantsRecord, ToolPayload } from "./types.ts";

const DAY_MS = 86_400_000;

/** The statistics dict of the official server; `accepting` is really counted here (it is always 0 there). */
export function computeOverview(
  records: JgrantsRecord[],
  now: number,
  dataSource: DataSourceInfo,
): ToolPayload {
  const byDeadline = { accepting: 0, this_month: 0, next_month: 0, after_next_month: 0 };
  const byAmount = { under_1m: 0, under_10m: 0, under_100m: 0, over_100m: 0, unspecified: 0 };
  const urgent: Array<{ id: string; title: unknown; days_left: number }> = [];
  const high: Array<{ id: string; title: unknown; max_amount: number }> = [];
  for (const record of records) {
    if (isAccepting(record, now)) byDeadline.accepting += 1;
    const end = parseInstant(record.acceptance_end_datetime);
    if (end !== null) {
      // Python's timedelta.days floors, so a deadline later today counts as 0 days left.
      const daysLeft = Math.floor((end - now) / DAY_MS);
      if (daysLeft >= 0) {
        if (daysLeft <= 30) byDeadline.this_month += 1;
        else if (daysLeft <= 60) byDeadline.next_month += 1;
        else byDeadline.after_next_month += 1;
        if (daysLeft <= 14) urgent.push({ id: record.id, title: record.title ?? null, days_left: daysLeft });
      }
    }
    const amount = Number(record.subsidy_max_limit);
    if (!record.subsidy_max_limit || !Number.isFinite(amount) || amount === 0) {
      byAmount.unspecified += 1;
      continue;
    }
    if (amount <= 1_000_000) byAmount.under_1m += 1;
    else if (amount <= 10_000_000) byAmount.under_10m += 1;
    else if (amount <= 100_000_000) byAmount.under_100m += 1;
    else byAmount.over_100m += 1;
    if (amount >= 50_000_000) high.push({ id: record.id, title: record.title ?? null, max_amount: amount });
  }
  return {
    total_count: records.length,
    by_deadline_period: byDeadline,
    by_amount_range: byAmount,
    urgent_deadlines: urgent,
    high_amount_subsidies: high,
    statistics_generated_at: new Date(now).toISOString(),
    data_source: dataSource,
  };
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(rows: unknown[][]): string {
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

const PERIOD_LABELS: Record<string, string> = {
  accepting: "受付中",
  this_month: "今月締切",
  next_month: "来月締切",
  after_next_month: "再来月以降",
};
const AMOUNT_LABELS: Record<string, string> = {
  under_1m: "100万円以下",
  under_10m: "1000万円以下",
  under_100m: "1億円以下",
  over_100m: "1億円超",
  unspecified: "金額未設定",
};

/** The official CSV form: one CSV string per table, plus total_count, generated_at and format. */
export function overviewToCsv(stats: ToolPayload): ToolPayload {
  const periods = stats.by_deadline_period as Record<string, number>;
  const amounts = stats.by_amount_range as Record<string, number>;
  const urgent = stats.urgent_deadlines as Array<Record<string, unknown>>;
  const high = stats.high_amount_subsidies as Array<Record<string, unknown>>;
  const out: ToolPayload = {
    deadline_statistics: csv([
      ["期間", "件数"],
      ...Object.entries(periods).map(([k, v]) => [PERIOD_LABELS[k], v]),
    ]),
    amount_statistics: csv([
      ["金額規模", "件数"],
      ...Object.entries(amounts).map(([k, v]) => [AMOUNT_LABELS[k], v]),
    ]),
  };
  if (urgent.length > 0) {
    out.urgent_deadlines = csv([
      ["補助金ID", "補助金名", "残り日数"],
      ...urgent.map((u) => [u.id, u.title, u.days_left]),
    ]);
  }
  if (high.length > 0) {
    out.high_amount_subsidies = csv([
      ["補助金ID", "補助金名", "最大金額"],
      ...high.map((h) => [h.id, h.title, Number(h.max_amount).toLocaleString("en-US")]),
    ]);
  }
  out.total_count = stats.total_count;
  out.statistics_generated_at = stats.statistics_generated_at;
  out.format = "csv";
  out.data_source = stats.data_source;
  return out;
}
