// Owns the part of jp's code that every command needs before it acts: the
// conversation store (and `jp conversation ls`, which needs nothing else).
// It loads on its own, ahead of runtime.ts: listing conversations does not
// pay for loading the compaction engine, the providers and the other
// commands (some 10 ms).
export * as conversationLs from "./commands/conversation/ls.js";
export * as complete from "./commands/complete.js";
export { ConversationStore } from "../store/conversations.js";
export { lockTimeoutFromEnv } from "../store/lock.js";
