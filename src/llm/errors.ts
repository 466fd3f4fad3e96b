// Owns provider failures: one class per kind, chosen in one place
// (`classifyProviderError`), so retry decides by class.
import { JpError } from "../errors.js";

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

interface HttpLikeError {
  status?: number;
  cause?: { code?: string; cause?: { code?: string } };
  headers?: Headers | Record<string, string | null | undefined>;
  message?: string;
  name?: string;
  error?: { error?: { message?: string; type?: string }; message?: string; type?: string };
}

function header(headers: HttpLikeError["headers"], name: string): string | undefined {
  if (!headers) return undefined;
  // Casts: the SDKs hand over a Headers object or a plain record; `get` tells them apart without
  // touching the global Headers (which would load undici).
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | null | undefined>)[name];
  return value ?? undefined;
}

/** `retry-after` (seconds or an HTTP date) or `retry-after-ms`, in milliseconds. */
export function retryAfterMs(headers: HttpLikeError["headers"], now = Date.now()): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && Number.isFinite(Number(ms))) return Number(ms);
  const value = header(headers, "retry-after");
  if (value === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Turn whatever an SDK or the network threw into one of our classes, with a one-line message. */
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

export function classifyProviderError(
  error: unknown,
  provider: string,
  model: string,
  baseUrl?: string,
): ProviderError {
  if (error instanceof ProviderError) return error;
  // Cast: the SDKs throw their own error classes; only these optional fields are read.
  const e = (error ?? {}) as HttpLikeError;
  const apiMessage = e.error?.error?.message ?? e.error?.message ?? e.message ?? String(error);
  const detail = apiMessage.replace(/\s+/g, " ").trim().slice(0, 300);
  if (e.name === "AbortError" || /aborted|APIUserAbortError/i.test(e.name ?? "")) {
    return new AbortedError("llm.aborted", "the request was interrupted", { cause: error });
  }
  const status = e.status;
  if (status === 401 || status === 403) {
    return new AuthError("llm.auth", `${provider} rejected the API key (${status}): ${detail}`, {
      hint: `check the key in the environment variable for ${provider}`,
      cause: error,
    });
  }
  if (status === 429) {
    return new RateLimitError("llm.rate_limit", `${provider} is rate limiting requests (429): ${detail}`, {
      retryable: true,
      retryAfterMs: retryAfterMs(e.headers),
      cause: error,
    });
  }
  if (status === 529 || status === 503 || (status !== undefined && status >= 500)) {
    return new OverloadedError(
      "llm.overloaded",
      `${provider} failed or is overloaded (${status}): ${detail}`,
      {
        retryable: true,
        retryAfterMs: retryAfterMs(e.headers),
        cause: error,
      },
    );
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
        cause: error,
      },
    );
  }
  if (status !== undefined && status >= 400) {
    return new BadRequestError("llm.bad_request", `${provider} refused the request (${status}): ${detail}`, {
      hint: status === 404 ? `check the model id '${model}'` : "check the model id and the request settings",
      cause: error,
    });
  }
  const code = e.cause?.code ?? e.cause?.cause?.code;
  const reason = (code && NETWORK_CODES[code]) ?? detail;
  const where = baseUrl ? ` at ${baseUrl}` : "";
  const Kind = code && UNREACHABLE.has(code) ? UnreachableError : ConnectionError;
  return new Kind("llm.connection", `could not reach ${provider}${where}: ${reason}`, {
    retryable: true,
    hint:
      baseUrl && isLocalUrl(baseUrl)
        ? `start the server there, or set providers.${provider}.base_url to where it listens`
        : `check the network and providers.${provider}.base_url`,
    cause: error,
  });
}
