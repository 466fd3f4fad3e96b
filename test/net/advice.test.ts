// Whether a failed request is asked again, as the official SDKs decide: the
// server's x-should-retry over its status, the statuses they retry, the wait
// the server advises, and the failures below any status.
import { describe, expect, it } from "vitest";
import { retryableFailure, retryableStatus, statusAdvice } from "../../src/net/advice.js";
import {
  ErrorBodyError,
  HttpStatusError,
  IdleTimeoutError,
  RedirectError,
  ResponseTimeoutError,
  StreamCutError,
  StreamErrorEvent,
  UnsupportedEncodingError,
} from "../../src/net/errors.js";

describe("asking again", () => {
  it("retries 408, 409, 429 and every 5xx, and no other status", () => {
    const retried = [400, 401, 403, 404, 408, 409, 413, 422, 429, 499, 500, 502, 503, 529, 599].filter(
      retryableStatus,
    );
    expect(retried).toEqual([408, 409, 429, 500, 502, 503, 529, 599]);
  });

  it("takes the server's own word over the status, both ways, and its advised wait", () => {
    expect(statusAdvice(400, { "x-should-retry": "true", "retry-after": "2" })).toEqual({
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(statusAdvice(503, { "x-should-retry": "false" })).toEqual({
      retryable: false,
      retryAfterMs: undefined,
    });
    expect(statusAdvice(429, { "retry-after-ms": "150" })).toEqual({ retryable: true, retryAfterMs: 150 });
    expect(statusAdvice(429, undefined)).toEqual({ retryable: true, retryAfterMs: undefined });
  });

  it("asks again after a failure that may pass, not after one that fails the same way again", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const passing = [
      new StreamCutError(),
      new IdleTimeoutError(30_000),
      new ResponseTimeoutError(600_000),
      new StreamErrorEvent({ type: "error" }),
      refused,
      new HttpStatusError(502, {}, undefined, "bad gateway"),
    ];
    const lasting = [
      new RedirectError("https://a.example", "https://b.example", false),
      new UnsupportedEncodingError("zstd"),
      new ErrorBodyError({ error: "no such model" }),
      new HttpStatusError(404, {}, undefined, "not found"),
    ];
    expect(passing.map(retryableFailure)).toEqual(passing.map(() => true));
    expect(lasting.map(retryableFailure)).toEqual(lasting.map(() => false));
  });
});
