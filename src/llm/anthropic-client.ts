// Owns the Anthropic SDK client jp uses: the base client with only the
// Messages resource. The SDK's full client constructs every resource of the
// API (beta, organization, files…), about a megabyte of code that jp never
// calls; named imports here let the bundler leave it out. Loaded lazily.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages";
import type { ClientOptions } from "@anthropic-ai/sdk";

export function createMessagesClient(options: ClientOptions): { messages: Messages } {
  return { messages: new Messages(new BaseAnthropic(options)) };
}
