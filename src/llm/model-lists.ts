// Owns reading the model lists some providers publish (OpenRouter's
// `/api/v1/models`, Cerebras's `/public/v1/models`): one `{data: [...]}` list
// per provider, a model's entry found by its id, prices written in USD per
// token as strings.
import { isJsonObject } from "../events/index.js";
import type { Price } from "../config/schema.js";
import { askModelApi, bearerIfKeyed, type ProviderOptions } from "./http.js";

/** USD per token as the lists write it ("0.000003"), per million. */
const perMillion = (v: unknown): number | undefined => {
  const n = typeof v === "string" ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1e6 * 1e6) / 1e6 : undefined;
};

/** The entry of model `name` in the list at `url`; undefined when the list has none. */
export async function listedModel(
  url: string,
  name: string,
  options: ProviderOptions,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  const headers = { accept: "application/json", ...bearerIfKeyed(options) };
  const list = await askModelApi({ url, headers, signal }, options);
  const data = isJsonObject(list) && Array.isArray(list.data) ? list.data : [];
  return data.find((m): m is Record<string, unknown> => isJsonObject(m) && m.id === name);
}

/** An entry's `pricing` (prompt, completion, and cache reads and writes where listed), per million tokens. */
export function listedPrice(entry: Record<string, unknown>): Price | undefined {
  const pricing = isJsonObject(entry.pricing) ? entry.pricing : {};
  const input = perMillion(pricing.prompt);
  const output = perMillion(pricing.completion);
  if (input === undefined || output === undefined) return undefined;
  const read = perMillion(pricing.input_cache_read);
  const write = perMillion(pricing.input_cache_write);
  return {
    input,
    output,
    ...(read !== undefined ? { cache_read: read } : {}),
    ...(write !== undefined ? { cache_write: write } : {}),
  };
}
