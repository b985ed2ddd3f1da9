/**
 * The in-process thread lock: one FIFO queue per thread key. Turns on one thread run one at a time in
 * arrival order, different threads run in parallel, and a waiter gives up after waitMs (ThreadBusyError).
 */
import { ThreadBusyError } from "./errors.ts";

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

/** Options of one locked run: onQueued fires once the turn holds its place in the queue. */
export interface LockRunOptions {
  onQueued?: () => void;
}

export interface LocalLock {
  /** Runs fn when every earlier turn of the thread has finished. */
  run<T>(threadKey: string, fn: () => Promise<T>, options?: LockRunOptions): Promise<T>;
  /** Threads that have a running or waiting turn (for tests and the bench). */
  activeThreads(): number;
}

/** Creates an in-process FIFO lock whose waiters give up after waitMs. */
export function createLocalLock(waitMs: number): LocalLock {
  // A thread is present while a turn runs; its array holds the turns waiting behind it, in order.
  const queues = new Map<string, Waiter[]>();

  const release = (threadKey: string): void => {
    const waiters = queues.get(threadKey);
    const next = waiters?.shift();
    if (!next) {
      queues.delete(threadKey);
      return;
    }
    clearTimeout(next.timer);
    next.start();
  };

  const acquire = (threadKey: string, onQueued?: () => void): Promise<void> => {
    const waiters = queues.get(threadKey);
    if (!waiters) {
      queues.set(threadKey, []);
      onQueued?.();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        timer: setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(new ThreadBusyError(threadKey, waitMs));
        }, waitMs),
      };
      waiters.push(waiter);
      onQueued?.();
    });
  };

  return {
    async run(threadKey, fn, options) {
      await acquire(threadKey, options?.onQueued);
      try {
        return await fn();
      } finally {
        release(threadKey);
      }
    },
    activeThreads: () => queues.size,
  };
}
