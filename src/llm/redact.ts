// Owns keeping secrets out of what jp shows and records: a provider's error
// may quote the key it was sent (OpenAI's 401 says "Incorrect API key
// provided: sk-…"), a proxy may echo the Authorization header. Every error
// message from a provider passes here before it reaches the screen or a log,
// as do the credentials of the proxy a request went through.

/** Provider keys: sk-…, sk-ant-…, sk-proj-…, and the rk-/pk- kinds. */
const PROVIDER_KEY = /\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g;
/** A bearer credential, as an Authorization header carries it. */
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi;
/** A basic credential (base64 of `user:password`), as an Authorization or Proxy-Authorization header carries it. */
const BASIC = /\bBasic\s+[A-Za-z0-9+/=]{4,}/gi;
/** A URL's user and password: `http://user:secret@proxy:3128`. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;
/** A query parameter that carries a credential: `?key=…`, `&token=…`, `&sig=…`. */
const QUERY_KEY =
  /([?&](?:key|api[_-]?key|token|access_token|auth|secret|password|sig|signature)=)[^&\s#"'<>]+/gi;
/** A key written as a field or query parameter: `api_key=…`, `"x-api-key": "…"`. */
const KEY_FIELD = /\b(api[_-]?key|x-api-key|access_token)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=-]{8,}/gi;

/** `text` with every configured secret, and anything shaped like a key or bearer token, replaced by `***`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("***");
  return out
    .replace(PROVIDER_KEY, "$1-***")
    .replace(BEARER, "Bearer ***")
    .replace(BASIC, "Basic ***")
    .replace(URL_USERINFO, "$1***@")
    .replace(QUERY_KEY, "$1***")
    .replace(KEY_FIELD, "$1$2***");
}

/**
 * The credentials a proxy URL carries, in every form a proxy may echo them:
 * the password, and `user:password` as written and base64-encoded.
 */
export function proxySecrets(proxy: string | undefined): string[] {
  if (!proxy) return [];
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    return [];
  }
  if (!url.password) return [];
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const pair = `${user}:${password}`;
  return [password, pair, Buffer.from(pair).toString("base64")];
}
