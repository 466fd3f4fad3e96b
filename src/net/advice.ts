// Owns what a failed response advises about trying again, read as the
// official SDKs read it: `x-should-retry`, `retry-after-ms`, `retry-after`.

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
