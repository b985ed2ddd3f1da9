/**
 * Schedules in Asia/Tokyo. Japan has no daylight saving time, so JST is always UTC+9 and the arithmetic
 * needs no time-zone database.
 */
import { type WatchSchedule, WEEKDAYS } from "./types.ts";

const JST_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;
/** Watches run at 09:00 JST. */
export const RUN_HOUR_JST = 9;

/** The first run time of a schedule strictly after `now`. */
export function nextRunAfter(schedule: WatchSchedule, now: Date): Date {
  const local = new Date(now.getTime() + JST_OFFSET_MS);
  const today =
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), RUN_HOUR_JST) - JST_OFFSET_MS;
  for (let day = 0; day <= 7; day++) {
    const at = today + day * DAY_MS;
    const weekday = new Date(at + JST_OFFSET_MS).getUTCDay();
    if (at > now.getTime() && (schedule.kind === "daily" || weekday === schedule.weekday))
      return new Date(at);
  }
  throw new RangeError(`no run time for schedule ${JSON.stringify(schedule)}`);
}

/** The schedule in words: 「毎日9時」 / 「毎週月曜9時」 (Japan time). */
export function scheduleText(schedule: WatchSchedule): string {
  const hour = `${RUN_HOUR_JST}時（日本時間）`;
  return schedule.kind === "daily" ? `毎日${hour}` : `毎週${WEEKDAYS[schedule.weekday]}曜${hour}`;
}

/** The time zone every schedule runs in. */
export const WATCH_TZ = "Asia/Tokyo";

/** The schedule as a cron pattern read in WATCH_TZ: 「0 9 * * *」 daily, 「0 9 * * 1」 on Mondays. */
export function cronOf(schedule: WatchSchedule): string {
  return `0 ${RUN_HOUR_JST} * * ${schedule.kind === "daily" ? "*" : schedule.weekday}`;
}
