// The built-in providers. Adding one is its folder (its module and the
// descriptor it exports) and its line here: the provider list, `jp q`, the
// conformance suite, the test workspaces and the README's table all read this.
import { anthropic } from "./anthropic/index.js";
import type { BuiltInProvider } from "./built-in.js";
import { cerebras } from "./cerebras/index.js";
import { google } from "./google/index.js";
import { llamacpp } from "./llamacpp/index.js";
import { ollama } from "./ollama/index.js";
import { openai } from "./openai/index.js";
import { openrouter } from "./openrouter/index.js";

export { baseUrlFor, type Api, type BuiltInProvider, type ProviderSetup } from "./built-in.js";

export const BUILT_IN_PROVIDERS = [
  anthropic,
  openai,
  google,
  ollama,
  llamacpp,
  openrouter,
  cerebras,
] as const satisfies readonly BuiltInProvider[];

/** The name of a built-in provider. */
export type BuiltInName = (typeof BUILT_IN_PROVIDERS)[number]["name"];

/** The built-in provider of that name, if there is one. */
export function builtInProvider(name: string): BuiltInProvider | undefined {
  return BUILT_IN_PROVIDERS.find((p) => p.name === name);
}
