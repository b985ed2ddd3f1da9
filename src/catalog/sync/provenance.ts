/**
 * The provenance section of the snapshot README, rewritten by snapshot:update between two markers (added
 * at the end the first time), so the README always says where and when the bundled data came from.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { CatalogSettings } from "./settings.ts";
import type { SyncReport } from "./types.ts";

const START = "<!-- provenance:start (written by npm run snapshot:update) -->";
const END = "<!-- provenance:end -->";

export interface ProvenanceFacts {
  asOf: string;
  records: number;
  open: number;
  report: SyncReport;
  settings: Pick<CatalogSettings, "apiUrl" | "keywords" | "detailIntervalMs">;
}

/** The section's text. */
export function provenanceSection(facts: ProvenanceFacts): string {
  const { report, settings } = facts;
  return [
    START,
    "## Provenance of the current file",
    "",
    `- Refreshed on ${facts.asOf} (JST) by \`npm run snapshot:update\` from the public jGrants API (\`${settings.apiUrl}\`).`,
    `- Listed with the keywords ${settings.keywords.map((k) => `「${k}」`).join("")}: open now (acceptance=1) and upcoming (acceptance=0, start in the future), union by id.`,
    `- ${facts.records} records (${facts.open} open on ${facts.asOf}); ${report.fetched} details fetched one at a time, ${settings.detailIntervalMs} ms apart; the sync took ${Math.round(report.ms / 1000)} s.`,
    "- Attachments keep their names and sizes only; `get_file_content` fetches the files live.",
    "- The sections above describe the earlier, hand-merged snapshot and may no longer match this file.",
    END,
  ].join("\n");
}

/** Replaces (or appends) the section in the README. */
export function updateProvenance(readmePath: string, facts: ProvenanceFacts): void {
  let text = "";
  try {
    text = readFileSync(readmePath, "utf8");
  } catch {
    text = "# jGrants snapshot\n";
  }
  const section = provenanceSection(facts);
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start >= 0 && end > start
      ? `${text.slice(0, start)}${section}${text.slice(end + END.length)}`
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(readmePath, next);
}
