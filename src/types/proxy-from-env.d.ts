// proxy-from-env ships no types of its own; this is the one function jp uses.
declare module "proxy-from-env" {
  /** The proxy URL the environment (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY) gives for `url`, or "". */
  export function getProxyForUrl(url: string | URL): string;
}
