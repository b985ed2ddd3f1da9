/**
 * Progress for the terminal, on stderr: on a TTY one status line rewritten in place and cleared when the
 * answer comes; otherwise one line per step, the detail count (0/5 … 5/5) printed once.
 */
import { progressText } from "../../src/agent/progress-text.ts";
import type { ProgressEvent } from "../../src/types.ts";

export interface TerminalProgress {
  onProgress(event: ProgressEvent): void;
  /** Clears the status line (TTY) before the answer is printed. */
  end(): void;
}

export function terminalProgress(out: NodeJS.WriteStream, enabled: boolean): TerminalProgress {
  const tty = Boolean(out.isTTY);
  let shown = false;
  let last = "";
  return {
    onProgress(event) {
      if (!enabled) return;
      const line = progressText(event);
      if (!line || line === last) return;
      if (tty) {
        out.write(`\r\x1b[K${line}`);
        shown = true;
      } else if (!(event.type === "fetching-details" && (event.done ?? 0) > 0)) {
        out.write(`${line}\n`);
      }
      last = line;
    },
    end() {
      if (tty && shown) out.write("\r\x1b[K");
      shown = false;
    },
  };
}
