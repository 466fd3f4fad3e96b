// Owns how reaching a server can fail below any provider: a status, an error
// in the stream, a cut or silent stream, a redirect not followed, a coding not
// decoded, no response in time. llm/errors classifies them per provider.

/** The server answered with a status other than 2xx. `body` is its JSON body, when it sent one. */
export class HttpStatusError extends Error {
  override readonly name = "HttpStatusError";
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: unknown,
    text: string,
  ) {
    super(text.replace(/\s+/g, " ").trim().slice(0, 300) || `HTTP ${status}`);
  }
}

/** The stream itself reported an error (an `error` event after a 200). */
export class StreamErrorEvent extends Error {
  override readonly name: string = "StreamErrorEvent";
  constructor(readonly body: unknown) {
    super(typeof body === "string" ? body : JSON.stringify(body));
  }
}

/** The stream ended before the answer did (no final event): the connection was cut mid-answer. */
export class StreamCutError extends Error {
  override readonly name = "StreamCutError";
  constructor(cause?: unknown) {
    super("the stream ended before the answer was complete", { cause });
  }
}

/** A 2xx answer whose body is JSON instead of a stream: an OpenAI-compatible server's error, not retried. */
export class ErrorBodyError extends StreamErrorEvent {
  override readonly name = "ErrorBodyError";
}

/** The stream went silent for longer than the idle timeout after it began. */
export class IdleTimeoutError extends Error {
  override readonly name = "IdleTimeoutError";
  constructor(readonly ms: number) {
    super(`no data for ${ms / 1000} s`);
  }
}

/** A redirect jp does not follow: to another origin (it would be handed the key), or one too many. */
export class RedirectError extends Error {
  override readonly name = "RedirectError";
  constructor(
    readonly from: string,
    readonly to: string,
    readonly tooMany: boolean,
  ) {
    super(tooMany ? `too many redirects, the last to ${to}` : `redirected from ${from} to ${to}`);
  }
}

/** The server compressed the body with a coding jp cannot decode. */
export class UnsupportedEncodingError extends Error {
  override readonly name = "UnsupportedEncodingError";
  constructor(readonly coding: string) {
    super(`the answer is compressed as '${coding}', which jp cannot decode`);
  }
}

/** No response began within the timeout. */
export class ResponseTimeoutError extends Error {
  override readonly name = "ResponseTimeoutError";
  constructor(readonly ms: number) {
    super(`no response within ${ms / 1000} s`);
  }
}
