// Owns whether a failed request is worth asking again, and when, decided as
// the official SDKs decide it: the server's `x-should-retry` first, then its
// status (408, 409, 429, 5xx), waiting as `retry-after-ms` / `retry-after`
// say; and a request that failed below any status (cut, silent, unreachable)
// is asked again unless it can only fail the same way. The providers
// (llm/errors) say what each failure means to the user.
import { ErrorBodyError, HttpStatusError, RedirectError, UnsupportedEncodingError } from "./errors.js";

/** A header of a failed response, by its lower-case name. */
export type ResponseHeaders = Readonly<Record<string, string | undefined>>;

/**
 * `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in
 * milliseconds, as the SDKs read them: a value that is missing, not a
 * number, zero or negative is no advice (the caller backs off by itself).
 */
export function retryAfterMs(headers: ResponseHeaders | undefined, now = Date.now()): number | undefined {
  const positive = (ms: number) => (Number.isFinite(ms) && ms > 0 ? ms : undefined);
  const ms = headers?.["retry-after-ms"];
  if (ms !== undefined && ms.trim() !== "" && !Number.isNaN(Number(ms))) return positive(Number(ms));
  const value = headers?.["retry-after"]?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^-?\d+(\.\d+)?$/.test(value)) return positive(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : positive(date - now);
}

/** The server's own word on retrying (`x-should-retry`), which the SDKs put before the status. */
export function shouldRetryHeader(headers: ResponseHeaders | undefined): boolean | undefined {
  const value = headers?.["x-should-retry"];
  return value === "true" ? true : value === "false" ? false : undefined;
}

/** Statuses the SDKs ask again after: the server timed out (408), a conflict (409), a rate limit (429), a server error (5xx). */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A failed response's verdict: whether to ask again (the server's own word over its status, both ways), and when. */
export function statusAdvice(
  status: number,
  headers: ResponseHeaders | undefined,
): { retryable: boolean; retryAfterMs: number | undefined } {
  return {
    retryable: shouldRetryHeader(headers) ?? retryableStatus(status),
    retryAfterMs: retryAfterMs(headers),
  };
}

/**
 * Whether a request that failed without a status is worth asking again: a
 * cut or silent stream, a response that never began, an error the stream
 * reported, a connection refused or dropped are; a redirect jp will not
 * follow, a coding it cannot decode, or an error body in place of a stream
 * would fail the same way again.
 */
export function retryableFailure(error: unknown): boolean {
  if (error instanceof HttpStatusError) return retryableStatus(error.status);
  return !(
    error instanceof RedirectError ||
    error instanceof UnsupportedEncodingError ||
    error instanceof ErrorBodyError
  );
}
