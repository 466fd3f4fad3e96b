// Owns choosing the proxy a provider's requests go through, from config or
// from the environment as curl and the SDKs read it: `https_proxy` /
// `http_proxy` by the target's scheme, then `all_proxy`, lower case before
// upper; `no_proxy` names the hosts reached directly, as curl reads it.
import { BlockList, isIPv4, isIPv6 } from "node:net";

function variable(env: NodeJS.ProcessEnv, name: string): string {
  return env[name.toLowerCase()] || env[name.toUpperCase()] || "";
}

/** The names of a `no_proxy` list: separated by commas or blanks, as curl 7.88 reads them. */
function noProxyNames(list: string): string[] {
  return list.split(/[\s,]+/).filter(Boolean);
}

/** Whether the address `ip` lies in `entry` (an address, or one with /bits). */
function inRange(ip: string, family: "ipv4" | "ipv6", entry: string): boolean {
  const [network = "", bitsText] = entry.split("/", 2);
  const max = family === "ipv4" ? 32 : 128;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return false;
  if (family === "ipv4" ? !isIPv4(network) : !isIPv6(network)) return false;
  const list = new BlockList();
  list.addSubnet(network, bits || max, family);
  return list.check(ip, family);
}

/**
 * Whether `no_proxy` lets `url` be reached directly, as curl decides it: `*`
 * alone for every host; a name matches itself and its subdomains (a leading
 * or trailing dot ignored); an IP address matches an address or a CIDR range.
 */
function bypassed(url: URL, noProxy: string): boolean {
  if (noProxy.trim() === "*") return true;
  const hostname = url.hostname.toLowerCase();
  const ip = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  // isIPv6's pattern is costly the first time it runs: only an address with a colon can be one.
  const family = isIPv4(ip) ? "ipv4" : ip.includes(":") && isIPv6(ip) ? "ipv6" : undefined;
  const host = hostname.replace(/\.$/, "");
  return noProxyNames(noProxy).some((entry) => {
    if (family) return inRange(ip, family, entry);
    const name = entry.toLowerCase().replace(/\.$/, "").replace(/^\./, "");
    return host === name || (name !== "" && host.endsWith(`.${name}`));
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
  const scheme = url.protocol.slice(0, -1);
  const proxy = variable(env, `${scheme}_proxy`) || variable(env, "all_proxy");
  // no_proxy matters only when there is a proxy to bypass.
  if (!proxy || bypassed(url, variable(env, "no_proxy"))) return "";
  // A proxy given without a scheme speaks the target's.
  return !proxy.includes("://") ? `${scheme}://${proxy}` : proxy;
}
