// Takes the price data of @pydantic/genai-prices (prices with their
// long-context tiers and dated changes, cache reads and writes, context
// windows) for the providers jp speaks, into dist/price-data/PROVIDER.json: the
// snapshot jp reads when it has no fresher copy of the same data. Taken at
// build time, so that no command pays for loading the package (its module
// holds every provider's data; some 40 ms).
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { findProvider } from "@pydantic/genai-prices";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(
  fs.readFileSync(path.join(ROOT, "node_modules/@pydantic/genai-prices/package.json"), "utf8"),
);
/** The package's provider ids of the providers jp has built in. */
export const PRICED_PROVIDERS = ["anthropic", "openai", "google", "openrouter", "cerebras"];

const keep = (model) => ({
  id: model.id,
  match: model.match,
  ...(model.context_window !== undefined ? { context_window: model.context_window } : {}),
  prices: model.prices,
});

// A file per provider: a command reads its model's provider alone.
const dir = path.join(ROOT, "dist/price-data");
fs.mkdirSync(dir, { recursive: true });
for (const id of PRICED_PROVIDERS) {
  const provider = findProvider({ providerId: id });
  if (!provider) throw new Error(`@pydantic/genai-prices ${version} has no provider '${id}'`);
  const data = {
    source: `@pydantic/genai-prices ${version}`,
    providers: [{ id: provider.id, models: provider.models.map(keep) }],
  };
  fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(data));
}
