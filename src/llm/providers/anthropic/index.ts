// Owns the Anthropic provider: its Messages API's endpoint, headers and
// stream, built from the request (request.ts) and read into stream parts
// (stream.ts), with its model API (models.ts) and thinking choices (choices.ts).
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { postForEvents } from "../../../net/http.js";
import type { ServerSentEvent } from "../../../net/sse.js";
import { StreamErrorEvent } from "../../errors.js";
import {
  classifiedProvider,
  endpoint,
  eventData,
  transportOptions,
  type ProviderOptions,
} from "../../http.js";
import type { Provider } from "../../types.js";
import { ANTHROPIC_ACCEPTS, anthropicThinking } from "./choices.js";
import { fetchAnthropicModel } from "./models.js";
import { anthropicRequest, COMPACTION_BETA, type AnthropicBody } from "./request.js";
import { anthropicParts } from "./stream.js";
import type { BuiltInProvider } from "../built-in.js";

/**
 * The Messages API version whose shapes the SDK's types declare (the SDK sends
 * the same); a newer SDK with new shapes comes with a new version here.
 */
export const ANTHROPIC_VERSION = "2026-10-21";

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

export interface AnthropicOptions extends ProviderOptions {
  /** Beta features, sent as `anthropic-beta`. */
  beta?: readonly string[];
}

/** The headers of every Messages and Models API request. */
function apiHeaders(options: AnthropicOptions): Record<string, string> {
  return {
    accept: "application/json",
    // The API takes its keys in x-api-key; Authorization: Bearer is for OAuth tokens only.
    "x-api-key": options.apiKey,
    "anthropic-version": ANTHROPIC_VERSION,
    ...(options.beta?.length ? { "anthropic-beta": options.beta.join(",") } : {}),
  };
}

export function createAnthropicProvider(options: AnthropicOptions): Provider {
  const baseUrl = options.baseURL ?? ANTHROPIC_BASE_URL;
  const url = endpoint(baseUrl, "/v1/messages");
  const provider = classifiedProvider(
    "anthropic",
    { ...options, baseURL: baseUrl },
    ANTHROPIC_ACCEPTS,
    (request, signal) =>
      anthropicParts(messageEvents(postMessages(url, options, anthropicRequest(request), signal))),
  );
  return {
    ...provider,
    // "To check whether a model supports on-demand compaction, call the Models API with the beta
    // header and read each model's `capabilities.compaction`."
    // (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand)
    modelFacts: (name, signal) =>
      fetchAnthropicModel(
        name,
        { ...options, baseURL: baseUrl },
        apiHeaders({ ...options, beta: [...new Set([...(options.beta ?? []), COMPACTION_BETA])] }),
        signal,
      ),
    prepare: (request) => anthropicThinking(request).notices,
  };
}

/** The Messages API's answer to a streamed request, as server-sent events. */
function postMessages(
  url: string,
  options: AnthropicOptions,
  { body, betas }: { body: AnthropicBody; betas: readonly string[] },
  signal: AbortSignal,
) {
  const beta = [...new Set([...(options.beta ?? []), ...betas])];
  const headers = apiHeaders({ ...options, beta });
  return postForEvents({ url, headers, body, signal, ...transportOptions(options) });
}

/** The Messages API's stream, event by event: pings are dropped, an error event throws. */
export async function* messageEvents(
  frames: AsyncIterable<ServerSentEvent>,
): AsyncGenerator<RawMessageStreamEvent> {
  for await (const event of frames) {
    // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- ping, and events a newer API may add, fall to the default
    switch (event.event) {
      case "message_start":
      case "message_delta":
      case "message_stop":
      case "content_block_start":
      case "content_block_delta":
      case "content_block_stop":
        // Cast: the event's name says which of the API's stream shapes its data is.
        yield eventData(event) as RawMessageStreamEvent;
        break;
      case "error":
        throw new StreamErrorEvent(eventData(event));
      default:
        // ping, and events a newer API may add.
        break;
    }
  }
}

/** Anthropic's own API, from its own key. */
export const anthropic = {
  name: "anthropic",
  title: "Anthropic Messages",
  api: "anthropic",
  baseUrl: ANTHROPIC_BASE_URL,
  keyEnv: ["ANTHROPIC_API_KEY"],
} as const satisfies BuiltInProvider;
