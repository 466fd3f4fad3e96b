// The compactor with the official SDKs' own message types. Type-checked with
// the project; run by its test without a key (no request is sent).
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { compactor } from "jp";

const summarize = (older: { role: string }[]) => `${older.length} earlier messages, summarized`;

// OpenAI Chat Completions: the summary is a system message after your own.
const openaiHistory: ChatCompletionMessageParam[] = [{ role: "system", content: "You are Ava." }];
for (let i = 0; i < 30; i++)
  openaiHistory.push(
    { role: "user", content: `question ${i}, padded with some text` },
    {
      role: "assistant",
      tool_calls: [{ id: `c${i}`, type: "function", function: { name: "lookup", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: `c${i}`, content: `result ${i}, padded with more data` },
    { role: "assistant", content: `answer ${i}` },
  );
const forOpenAI = compactor<ChatCompletionMessageParam>({ maxTokens: 2000, keepTail: 800, summarize });
const openaiMessages: ChatCompletionMessageParam[] =
  (await forOpenAI({ messages: openaiHistory }))?.messages ?? openaiHistory;

// Anthropic Messages: the system prompt is a parameter, and the summary is a user message.
const anthropicHistory: MessageParam[] = [];
for (let i = 0; i < 30; i++)
  anthropicHistory.push(
    { role: "user", content: `question ${i}, padded with some text` },
    { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "lookup", input: {} }] },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `result ${i}, padded` }],
    },
    { role: "assistant", content: `answer ${i}` },
  );
const forAnthropic = compactor<MessageParam>({
  dialect: "anthropic",
  maxTokens: 2000,
  keepTail: 800,
  summarize,
});
const anthropicMessages: MessageParam[] =
  (await forAnthropic({ messages: anthropicHistory }))?.messages ?? anthropicHistory;

console.log(
  `openai: ${openaiHistory.length} → ${openaiMessages.length} messages, then ${openaiMessages[1]?.role}`,
);
console.log(
  `anthropic: ${anthropicHistory.length} → ${anthropicMessages.length} messages, first ${anthropicMessages[0]?.role}`,
);
