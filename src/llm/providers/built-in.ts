// Owns what a built-in provider declares of itself: the API it speaks, where,
// with which key, what its Chat Completions endpoint reads beyond the
// standard fields, and its own model API. The registry (index.ts) lists them.
import type { ProviderSettings } from "../../config/providers.js";
import type { ModelFacts } from "../capabilities.js";
import type { ChatDialect } from "../chat-dialect.js";
import type { ProviderOptions } from "../http.js";

/** The APIs jp speaks, each in its own module. */
export type Api = NonNullable<ProviderSettings["api"]>;

/** What a provider's own calls are given: its transport settings and where it sits. */
export type ProviderSetup = ProviderOptions & { baseURL: string };

/** A provider jp knows by name, ready to use with no configuration beyond its key. */
export interface BuiltInProvider {
  /** The provider part of its model ids. */
  name: string;
  /** What it is called in prose (the README's table, the conformance suite). */
  title: string;
  /** The API it speaks unless its config says otherwise. */
  api: Api;
  baseUrl: string;
  /** Its OpenAI-compatible endpoint, for `api = "chat"` when its own API sits elsewhere. */
  chatBaseUrl?: string;
  /** Where its key is read, the first variable set winning; none for a local server that takes no key. */
  keyEnv: readonly string[];
  /** What its Chat Completions endpoint reads beyond the standard fields. */
  dialect?: (model: string) => ChatDialect;
  /** Its own model API, where its API's has none. */
  modelFacts?: (name: string, options: ProviderSetup, signal: AbortSignal) => Promise<ModelFacts | undefined>;
}

/** Where a built-in provider's `api` sits: its OpenAI-compatible endpoint for Chat Completions, where it has one of its own. */
export function baseUrlFor(provider: BuiltInProvider, api: Api): string {
  return (api === "chat" ? provider.chatBaseUrl : undefined) ?? provider.baseUrl;
}
