/** What each storage backend provides to the thread store built on top of it. */
import type Keyv from "keyv";
import type { LocalLock } from "./local-lock.ts";

export interface Backend {
  /** "sqlite", "redis" or "memory", as reported by health(). */
  readonly name: string;
  /** History records, through Keyv (errors are thrown, never swallowed: throwOnErrors is on). */
  readonly keyv: Keyv;
  /** Sets key if it is absent or expired, atomically; true when this call set it. */
  markOnce(key: string, ttlMs: number, now: number): Promise<boolean>;
  /** The per-thread lock (in-process queue, or the Redis lock). */
  readonly lock: LocalLock;
  /** Throws when the backend cannot read and write. */
  probe(): Promise<void>;
  close(): Promise<void>;
}
