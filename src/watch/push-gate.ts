/**
 * Pushes cost quota (LINE's monthly message limit), so a chat gets digests pushed only after it opted in
 * (「通知をオン」), and at most `monthlyCap` a month (months in Asia/Tokyo). Stored per chat under
 * `sc:v1:watch-push:<threadKey>`.
 */
import { KEY_PREFIX, type RecordStore } from "../store/index.ts";

interface PushState {
  optIn: boolean;
  /** YYYY-MM (JST) of `used`. */
  month: string;
  used: number;
}

export interface PushGate {
  readonly monthlyCap: number;
  setOptIn(threadKey: string, on: boolean): Promise<void>;
  optedIn(threadKey: string): Promise<boolean>;
  /** Takes one push of this month; the pushes left after it, or null (not opted in, or the cap is reached). */
  take(threadKey: string, now: Date): Promise<number | null>;
}

const monthOf = (now: Date) => new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 7);
const keyOf = (threadKey: string) => `${KEY_PREFIX}:watch-push:${threadKey}`;

/** Creates the gate over the store's records. */
export function createPushGate(records: RecordStore, monthlyCap: number): PushGate {
  const read = async (threadKey: string): Promise<PushState> =>
    (await records.get<PushState>(keyOf(threadKey))) ?? { optIn: false, month: "", used: 0 };
  return {
    monthlyCap,
    async setOptIn(threadKey, on) {
      await records.set(keyOf(threadKey), { ...(await read(threadKey)), optIn: on });
    },
    async optedIn(threadKey) {
      return (await read(threadKey)).optIn;
    },
    async take(threadKey, now) {
      const state = await read(threadKey);
      if (!state.optIn) return null;
      const month = monthOf(now);
      const used = state.month === month ? state.used : 0;
      if (used >= monthlyCap) return null;
      // Counted before the push: a push that then fails still counts (LINE may have delivered it).
      await records.set(keyOf(threadKey), { optIn: true, month, used: used + 1 });
      return monthlyCap - used - 1;
    },
  };
}
