// Owns keeping secrets out of what jp shows and records: a provider's error
// may quote the key it was sent (OpenAI's 401 says "Incorrect API key
// provided: sk-…"), a proxy may echo the Authorization header. Every error
// message from a provider passes here before it reaches the screen or a log.

/** Provider keys: sk-…, sk-ant-…, sk-proj-…, and the rk-/pk- kinds. */
const PROVIDER_KEY = /\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g;
/** A bearer credential, as an Authorization header carries it. */
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi;
/** A key written as a field or query parameter: `api_key=…`, `"x-api-key": "…"`. */
const KEY_FIELD = /\b(api[_-]?key|x-api-key|access_token)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=-]{8,}/gi;

/** `text` with every configured secret, and anything shaped like a key or bearer token, replaced by `***`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("***");
  return out.replace(PROVIDER_KEY, "$1-***").replace(BEARER, "Bearer ***").replace(KEY_FIELD, "$1$2***");
}
