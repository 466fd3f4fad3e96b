// Owns retrying transient provider failures as the official SDKs do: the
// server's `x-should-retry` first, then 408, 409, 429, 5xx and dropped or
// stalled connections, waiting as `retry-after-ms` / `retry-after` say, or
// by exponential backoff with jitter when they say nothing useful.
import type { ProviderError } from "./errors.js";
import { AbortedError, classifyProviderError, isLocalUrl, UnreachableError } from "./errors.js";
import type { ModelRequest, Provider, StreamPart } from "./types.js";

export interface RetryOptions {
  maxRetries: number;
  /** First wait; doubles each attempt (capped at 60 s). */
  backoffMs: number;
  signal: AbortSignal;
  onRetry?: (error: ProviderError, attempt: number, delayMs: number) => void;
}

/** Marks that parts already streamed belong to a failed attempt and must be discarded. */
export type RetryPart = StreamPart | { type: "restart" };

/** The longest wait a server's advice is followed for: beyond it, asking again later is the user's call. */
const MAX_ADVISED_WAIT_MS = 120_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * How long to wait before attempt `attempt + 1`: the server's advice where
 * it gave a positive one, else `baseMs` doubled per attempt, less up to a
 * quarter at random (the SDKs' jitter) so that clients that failed together
 * do not all come back together.
 */
export function backoffDelay(
  error: ProviderError,
  attempt: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, MAX_ADVISED_WAIT_MS);
  const full = Math.min(baseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(full * (1 - random() * 0.25));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new AbortedError("llm.aborted", "the request was interrupted"));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError("llm.aborted", "the request was interrupted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export async function* streamWithRetries(
  provider: Provider,
  request: ModelRequest,
  options: RetryOptions,
): AsyncGenerator<RetryPart> {
  for (let attempt = 1; ; attempt++) {
    let yielded = false;
    try {
      for await (const part of provider.stream(request, options.signal)) {
        yielded = true;
        yield part;
      }
      return;
    } catch (raw) {
      const error = options.signal.aborted
        ? new AbortedError("llm.aborted", "the request was interrupted", { cause: raw })
        : classifyProviderError(raw, provider.name, request.model, provider.baseUrl);
      // A local server that refuses the connection is not starting in the next minute: try once more at most.
      const limit =
        error instanceof UnreachableError && isLocalUrl(provider.baseUrl)
          ? Math.min(1, options.maxRetries)
          : options.maxRetries;
      if (!error.retryable || attempt > limit) throw error;
      const delay = backoffDelay(error, attempt, options.backoffMs);
      options.onRetry?.(error, attempt, delay);
      if (yielded) yield { type: "restart" };
      await sleep(delay, options.signal);
    }
  }
}
