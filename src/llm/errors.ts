// Owns provider failures: one class per kind, chosen in one place
// (`classifyProviderError`), so retry decides by class.
import { JpError } from "../errors.js";
import { isJsonObject } from "../events/json.js";
import { retryableFailure, statusAdvice, type ResponseHeaders } from "../net/advice.js";
import {
  ErrorBodyError,
  HttpStatusError,
  IdleTimeoutError,
  RedirectError,
  ResponseTimeoutError,
  StreamCutError,
  StreamErrorEvent,
  UnsupportedEncodingError,
} from "../net/errors.js";
import { redactSecrets } from "./redact.js";

// How reaching a server fails is net/'s; the providers read those failures here, beside their own.
export * from "../net/errors.js";

export class ProviderError extends JpError {
  readonly retryable: boolean;
  /** Server-suggested wait before retrying, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  constructor(
    code: string,
    message: string,
    options: { hint?: string; cause?: unknown; retryable?: boolean; retryAfterMs?: number } = {},
  ) {
    super(code, message, { hint: options.hint, cause: options.cause });
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export class AuthError extends ProviderError {}
export class RateLimitError extends ProviderError {}
export class OverloadedError extends ProviderError {}
export class ContextTooLongError extends ProviderError {}
export class BadRequestError extends ProviderError {}
export class ConnectionError extends ProviderError {}
/** No connection could be made at all (refused, no such host): nothing was sent. */
export class UnreachableError extends ConnectionError {}
export class AbortedError extends ProviderError {}

export class MissingKeyError extends JpError {
  constructor(provider: string, variable: string) {
    super("llm.missing_key", `no API key for ${provider}: ${variable} is not set`, {
      hint: `export ${variable}=… (keys are read from the environment only)`,
      exitCode: 2,
    });
  }
}

/** What a network failure's code says, in words. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused (nothing is listening there)",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found (DNS lookup failed)",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Whether a base URL points at this machine (a local server: retrying a refused connection helps little). */
export function isLocalUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\./.test(host) || host === "0.0.0.0";
  } catch {
    return false;
  }
}

/** The message an API's error body carries: Anthropic's `{error: {message}}`, OpenAI's the same, or a bare `{message}`. */
function apiErrorField(body: unknown, field: "message" | "type"): string | undefined {
  if (!isJsonObject(body)) return undefined;
  const from = (o: unknown) => (isJsonObject(o) && typeof o[field] === "string" ? o[field] : undefined);
  return from(body.error) ?? from(body);
}

/** The status an error reported inside a stream stands for, by the API's error type. */
const STREAM_ERROR_STATUS: Record<string, number> = {
  overloaded_error: 529,
  api_error: 500,
  server_error: 500,
  rate_limit_error: 429,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
};

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}

/**
 * Turn whatever a request threw into one of our classes, with a one-line
 * message from which `secrets` (the key it was sent with) and anything shaped
 * like a key are removed: the message is shown and recorded.
 */
export function classifyProviderError(
  error: unknown,
  provider: string,
  model: string,
  baseUrl?: string,
  secrets: readonly string[] = [],
): ProviderError {
  const classified = classify(error, provider, model, baseUrl);
  classified.message = redactSecrets(classified.message, secrets);
  return classified;
}

function classify(error: unknown, provider: string, model: string, baseUrl?: string): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof Error && error.name === "AbortError") {
    return new AbortedError("llm.aborted", "the request was interrupted", { cause: error });
  }
  if (error instanceof HttpStatusError) {
    const detail = oneLine(apiErrorField(error.body, "message") ?? error.message);
    return byStatus(error.status, detail, error.headers, { error, provider, model });
  }
  if (error instanceof StreamErrorEvent) return fromStreamError(error, provider, model);
  const where = `${provider}${baseUrl ? ` at ${baseUrl}` : ""}`;
  return fromTransport(error, provider, where) ?? unreachable(error, provider, where, baseUrl);
}

/** An error the server sent in the stream (or as a 200 with an error body). */
function fromStreamError(error: StreamErrorEvent, provider: string, model: string): ProviderError {
  const detail = oneLine(apiErrorField(error.body, "message") ?? error.message);
  const type = apiErrorField(error.body, "type");
  const status = type === undefined ? undefined : STREAM_ERROR_STATUS[type];
  if (status !== undefined) return byStatus(status, detail, undefined, { error, provider, model });
  if (error instanceof ErrorBodyError) {
    return new BadRequestError("llm.error_body", `${provider} answered with an error: ${detail}`, {
      hint: "the server sent an error instead of a stream; check the model id and the server's logs",
      cause: error,
    });
  }
  return new ProviderError("llm.stream_error", `${provider} reported an error mid-stream: ${detail}`, {
    retryable: retryableFailure(error),
    cause: error,
  });
}

/** What jp's own transport found wrong with the answer (`where`: the provider and its address), if it was that. */
function fromTransport(error: unknown, provider: string, where: string): ProviderError | undefined {
  if (error instanceof IdleTimeoutError)
    return new ConnectionError(
      "llm.idle_timeout",
      `the answer from ${where} stopped arriving: ${error.message}`,
      {
        retryable: retryableFailure(error),
        hint: "a slow server may need a larger assistant.request.idle_timeout_secs",
        cause: error,
      },
    );
  if (error instanceof RedirectError)
    return new BadRequestError("llm.redirect", `${where} ${error.message}`, {
      hint: error.tooMany
        ? `check providers.${provider}.base_url`
        : `jp follows redirects only on the same origin, so the key goes nowhere else; set providers.${provider}.base_url to ${new URL(error.to).origin} if that is where it lives`,
      cause: error,
    });
  if (error instanceof UnsupportedEncodingError)
    return new BadRequestError("llm.encoding", `${where}: ${error.message}`, {
      hint: "a proxy between jp and the server may be compressing answers; ask it not to",
      cause: error,
    });
  if (error instanceof ResponseTimeoutError)
    return new ConnectionError("llm.timeout", `${where} did not answer within ${error.ms / 1000} s`, {
      retryable: retryableFailure(error),
      hint: "check the server; a slow one may need a larger assistant.request.timeout_secs",
      cause: error,
    });
  if (error instanceof StreamCutError)
    return new ConnectionError(
      "llm.stream_cut",
      `the answer from ${where} was cut off before it was complete`,
      {
        retryable: retryableFailure(error),
        hint: "asking again usually works; if it keeps happening, check the network or the server's logs",
        cause: error,
      },
    );
  return undefined;
}

/** A network failure: the server could not be reached, or the connection broke. */
function unreachable(
  error: unknown,
  provider: string,
  where: string,
  baseUrl: string | undefined,
): ProviderError {
  const code = networkCode(error);
  const reason =
    (code && NETWORK_CODES[code]) ?? oneLine(error instanceof Error ? error.message : String(error));
  const Kind = code && UNREACHABLE.has(code) ? UnreachableError : ConnectionError;
  return new Kind("llm.connection", `could not reach ${where}: ${reason}`, {
    retryable: retryableFailure(error),
    hint:
      baseUrl && isLocalUrl(baseUrl)
        ? `start the server there, or set providers.${provider}.base_url to where it listens`
        : `check the network and providers.${provider}.base_url`,
    cause: error,
  });
}

/** Node's error code (ECONNREFUSED…) on the error or on its cause. */
function networkCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    if ("code" in e && typeof e.code === "string") return e.code;
  }
  return undefined;
}

function byStatus(
  status: number,
  detail: string,
  headers: ResponseHeaders | undefined,
  { error, provider, model }: { error: Error; provider: string; model: string },
): ProviderError {
  // Whether to ask again is net/'s rule (the server's own word over the status); what it means is said here.
  const { retryable, retryAfterMs } = statusAdvice(status, headers);
  return statusError(
    status,
    detail,
    {
      retryable,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      cause: error,
    },
    { provider, model },
  );
}

function statusError(
  status: number,
  detail: string,
  advice: { retryable: boolean; retryAfterMs?: number; cause: Error },
  { provider, model }: { provider: string; model: string },
): ProviderError {
  if (status === 401 || status === 403) {
    return new AuthError("llm.auth", `${provider} rejected the API key (${status}): ${detail}`, {
      hint: `check the key in the environment variable for ${provider}`,
      ...advice,
    });
  }
  if (status === 429) {
    return new RateLimitError(
      "llm.rate_limit",
      `${provider} is rate limiting requests (429): ${detail}`,
      advice,
    );
  }
  if (status >= 500 || status === 408 || status === 409) {
    // 408: the server timed the request out; 409: a conflict the SDKs retry (a lock on the server's side).
    const what =
      status >= 500
        ? "failed or is overloaded"
        : status === 408
          ? "timed the request out"
          : "reported a conflict";
    return new OverloadedError("llm.overloaded", `${provider} ${what} (${status}): ${detail}`, advice);
  }
  if (
    status === 413 ||
    (status === 400 && /context|too long|too many tokens|maximum context|prompt is too long/i.test(detail))
  ) {
    return new ContextTooLongError(
      "llm.context_too_long",
      `the request is too long for ${model}: ${detail}`,
      {
        hint: "compact the conversation (jp conversation compact) or start a new one",
        ...advice,
      },
    );
  }
  return new BadRequestError("llm.bad_request", `${provider} refused the request (${status}): ${detail}`, {
    hint: status === 404 ? `check the model id '${model}'` : "check the model id and the request settings",
    ...advice,
  });
}
