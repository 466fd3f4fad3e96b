// Owns asking OpenAI's model API what it says of a model: `GET /v1/models/{id}`
// gives its id and owner and, once OpenAI has announced its retirement, its
// `shutdown_date` (YYYY-MM-DD; null while none is announced). Windows and
// prices are not in it: they come from the price data.
import type { ModelFacts } from "../../capabilities.js";
import { askModelApiFor, bearerIfKeyed, endpoint, NO_SUCH_MODEL, type ProviderOptions } from "../../http.js";
import { isJsonObject } from "../../../events/index.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A model's lifecycle as the answer says it: deprecated with its shutdown date, or nothing said. */
export async function openaiModelFacts(
  name: string,
  options: ProviderOptions & { baseURL: string },
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  const info = await askModelApiFor(
    {
      url: endpoint(options.baseURL, `/models/${encodeURIComponent(name)}`),
      headers: { accept: "application/json", ...bearerIfKeyed(options) },
      signal,
    },
    options,
  );
  if (info === NO_SUCH_MODEL) return { notFound: true };
  if (!isJsonObject(info) || info.object !== "model") return undefined;
  const shutdown = info.shutdown_date;
  if (typeof shutdown !== "string" || !DATE.test(shutdown) || Number.isNaN(Date.parse(shutdown))) return {};
  return { lifecycle: "deprecated", retiresAt: `${shutdown}T00:00:00Z` };
}
