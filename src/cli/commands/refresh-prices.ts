// `jp __refresh-prices`: fetch the maintained price data into the user's
// cache. Hidden: `jp q` starts it in the background, detached, when the
// fetched copy is a week old, so no turn waits on it; `jp model show --refresh`
// does the same in the foreground.
import type { Command } from "commander";
import type { Context } from "../context.js";
import { JpError } from "../../errors.js";
import { grouped } from "../../numbers.js";

/** Fetch the data now; what it came to, as one line. */
export async function refreshPrices(ctx: Context): Promise<string> {
  const { refreshPriceData } = await import("../../llm/price-data.js");
  const { fetchJson } = await import("../../net/http.js");
  const { proxyFor } = await import("../../net/proxy.js");
  const result = await refreshPriceData(ctx.env, ctx.clock.now(), (url, timeoutMs) =>
    fetchJson({
      url,
      headers: { accept: "application/json" },
      timeoutMs,
      proxy: proxyFor(url, ctx.env),
      signal: new AbortController().signal,
    }),
  );
  if ("error" in result)
    throw new JpError("prices.refresh_failed", `the price data could not be fetched: ${result.error}`, {
      hint: "the copy jp holds is used meanwhile; JP_PRICE_DATA_URL names a mirror",
      exitCode: 1,
    });
  return `price data: ${grouped(result.models)} models (${result.source})`;
}

export function register(program: Command, ctx: Context): void {
  program
    .command("__refresh-prices", { hidden: true })
    .description("fetch the maintained price data into the user's cache")
    .action(async () => {
      ctx.info(await refreshPrices(ctx));
    });
}
