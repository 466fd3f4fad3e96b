// Owns what jp loads once it knows it will run a command (not only list
// them): every command and the modules they share, as one unit. The bundle
// makes each `import()` target a chunk of its own, and modules shared by
// several targets chunks of their own again; a file costs about 0.4 ms to
// load, so fifteen lazily loaded commands meant some fifty files for `jp q`.
// With one target for all of jp's own code, a command loads a handful, and
// `--help` still none of them. The store (and `ls`) load ahead of it, as
// store-runtime.ts. Heavy dependencies stay behind their own `import()`
// where they are used: the tokenizer, execa, the prompt library, and zod
// (which only explains an invalid config or checks a local tool).
export * as configShow from "./commands/config/index.js";
export * as conversationCompact from "./commands/conversation/compact.js";
export * as conversationDoctor from "./commands/conversation/doctor.js";
export * as conversationFork from "./commands/conversation/fork.js";
export * as conversationImport from "./commands/conversation/import.js";
export * as conversationNew from "./commands/conversation/new.js";
export * as conversationPrint from "./commands/conversation/print.js";
export * as completion from "./commands/completion.js";
export * as conversationGrep from "./commands/conversation/grep.js";
export * as conversationEdit from "./commands/conversation/edit.js";
export * as conversationLabel from "./commands/conversation/label.js";
export * as conversationArchive from "./commands/conversation/archive.js";
export * as conversationUnarchive from "./commands/conversation/unarchive.js";
export * as conversationPin from "./commands/conversation/pin.js";
export * as conversationRestore from "./commands/conversation/restore.js";
export * as conversationRm from "./commands/conversation/rm.js";
export * as conversationUnpin from "./commands/conversation/unpin.js";
export * as conversationShow from "./commands/conversation/show.js";
export * as conversationUse from "./commands/conversation/use.js";
export * as init from "./commands/init.js";
export * as mcpLs from "./commands/mcp/ls.js";
export * as mcpTools from "./commands/mcp/tools.js";
export * as modelShow from "./commands/model/show.js";
export * as refreshPrices from "./commands/refresh-prices.js";
export * as q from "./commands/q.js";
export { collectLayers, loadConfig } from "../config/load.js";
export { createSummarizer } from "../llm/summarize.js";
export { createTokenCounter } from "../tokens/count.js";
export * as workspaceTrust from "./commands/workspace/trust.js";
export * as workspaceUntrust from "./commands/workspace/untrust.js";
export * as workspaceStatus from "./commands/workspace/status.js";
