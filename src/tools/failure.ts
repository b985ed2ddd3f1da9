/** Which failures mean "the connection is gone" (reconnect) and which are ordinary errors of one request. */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** True when an error means the session is unusable: closed transport, refused or dropped HTTP, 404 session. */
export function isConnectionFailure(error: unknown): boolean {
  if (isAbort(error)) return false;
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return true;
}

/** True for a request timeout reported by the SDK. */
export function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

/** True for an abort through an AbortSignal. */
export function isAbort(error: unknown): boolean {
  return (
    error instanceof Error && (error.name === "AbortError" || error.message === "This operation was aborted")
  );
}

/** Raised instead of connecting while a server waits for its next reconnect attempt. */
export class ServerUnavailableError extends Error {
  constructor(server: string, retryInMs: number, cause?: string) {
    const next = retryInMs > 0 ? `next reconnect in ${Math.ceil(retryInMs / 1000)} s` : "reconnecting now";
    super(`server "${server}" is unavailable${cause ? ` (${cause})` : ""}; ${next}`);
    this.name = "ServerUnavailableError";
  }
}

/** Rejects with an AbortError when `signal` fires first; the shared promise itself keeps running. */
export function raceSignal<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  const error = new Error("This operation was aborted");
  error.name = "AbortError";
  return error;
}
