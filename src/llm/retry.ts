// Owns retrying transient provider failures as the official SDKs do: the
// server's `x-should-retry` first, then 408, 409, 429, 5xx and dropped or
// stalled connections, waiting as `retry-after-ms` / `retry-after` say, or
// by exponential backoff with jitter when they say nothing useful.
import { backoffDelay, sleep } from "../net/backoff.js";
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
      await sleep(
        delay,
        options.signal,
        () => new AbortedError("llm.aborted", "the request was interrupted"),
      );
    }
  }
}
