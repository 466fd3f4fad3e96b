// Owns waiting between attempts as the official SDKs do: the server's advice
// where it gave a usable one, else exponential backoff with jitter; and a wait
// that ends when the request is interrupted.

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
  advice: { retryAfterMs: number | undefined },
  attempt: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  if (advice.retryAfterMs !== undefined) return Math.min(advice.retryAfterMs, MAX_ADVISED_WAIT_MS);
  const full = Math.min(baseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(full * (1 - random() * 0.25));
}

/** Wait `ms`, or fail with `aborted()`'s error as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal, aborted: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(aborted());
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
