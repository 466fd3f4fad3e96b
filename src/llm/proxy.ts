// Owns choosing the proxy a provider's requests go through, from config or
// from the environment as curl and the SDKs read it: `https_proxy` /
// `http_proxy` by the target's scheme, then `all_proxy`, lower case before
// upper; `no_proxy` names hosts (with an optional port, a leading `.` or `*.`
// for a domain's subdomains, or `*` for all) that are reached directly.

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

function variable(env: NodeJS.ProcessEnv, name: string): string {
  return env[name.toLowerCase()] || env[name.toUpperCase()] || "";
}

/** Whether `no_proxy` lets `url` be reached directly. */
function bypassed(url: URL, noProxy: string): boolean {
  const list = noProxy.toLowerCase().trim();
  if (list === "*") return true;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  return list
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      const match = /^(.+):(\d+)$/.exec(entry);
      if (match && Number(match[2]) !== port) return false;
      const name = (match ? match[1]! : entry).replace(/^\[|\]$/g, "");
      if (name.startsWith("*.") || name.startsWith(".")) {
        const domain = name.slice(name.indexOf(".") + 1);
        return host === domain || host.endsWith(`.${domain}`);
      }
      return host === name;
    });
}

/**
 * The proxy URL for requests to `target`, or "" for none: `configured`
 * (a provider's `proxy` setting; "" turns proxying off) wins over the
 * environment.
 */
export function proxyFor(target: string, env: NodeJS.ProcessEnv, configured?: string): string {
  if (configured !== undefined) return configured;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return "";
  }
  if (bypassed(url, variable(env, "no_proxy"))) return "";
  const scheme = url.protocol.slice(0, -1);
  const proxy = variable(env, `${scheme}_proxy`) || variable(env, "all_proxy");
  // A proxy given without a scheme speaks the target's.
  return proxy && !proxy.includes("://") ? `${scheme}://${proxy}` : proxy;
}
