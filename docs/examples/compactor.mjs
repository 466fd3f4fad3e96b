// Keep a long agent transcript under a token budget before each model call.
// Run from the repository after `npm install`: node docs/examples/compactor.mjs
import { compactor, estimateTokens } from "jp";

const messages = [{ role: "system", content: "You are Ava." }];
for (let i = 0; i < 30; i++) {
  messages.push(
    { role: "user", content: `question ${i} with some padding text here` },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `c${i}`, type: "function", function: { name: "lookup", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: `c${i}`, content: `result ${i} with more padding data` },
    { role: "assistant", content: `answer ${i}` },
  );
}

const beforeLlm = compactor({
  maxTokens: 2000,
  keepTail: 800,
  // Any function that returns the summary; in a real agent this calls a model.
  summarize: async (older) =>
    `The user asked ${older.filter((m) => m.role === "user").length} questions; each was looked up and answered.`,
  onCompact: (info) =>
    console.log(
      `context compacted: ${info.tokensBefore} → ${info.tokensAfter} tokens (${info.summarized} messages folded)`,
    ),
});

const override = await beforeLlm({ messages });
const sent = override?.messages ?? messages;
console.log(
  `sending ${sent.length} messages (${estimateTokens(sent)} estimated tokens); second: ${sent[1].content.split("\n")[0]}`,
);
