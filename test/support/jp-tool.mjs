// A tool written for JP: its command is `node jp-tool.mjs {{context}} {{tool}}`,
// and it prints a jp_tool Outcome on stdout, as dcdpr/jp's own tools do.
const [contextJson = "{}", toolJson = "{}"] = process.argv.slice(2);
const context = JSON.parse(contextJson);
const tool = JSON.parse(toolJson);
const say = (outcome) => process.stdout.write(JSON.stringify(outcome));
const { arguments: args = {}, answers = {} } = tool;

// A tool that works a while before it asks, long enough for jp to show it running.
if (args.mode === "slow-ask" && answers.sure === undefined) await new Promise((r) => setTimeout(r, 1500));

if (args.mode === "fail") {
  say({ type: "error", message: "the index is locked", trace: ["lock held by pid 42"], transient: true });
} else if (args.mode === "ask" && answers.name === undefined) {
  say({
    type: "needs_input",
    question: { id: "name", text: "Which name should the file get?", answer_type: "Text", default: null },
  });
} else if (args.mode === "slow-ask" && answers.sure === undefined) {
  say({
    type: "needs_input",
    question: { id: "sure", text: `Delete ${args.path}?`, answer_type: "Boolean", default: false },
  });
} else if (args.mode === "slow-ask") {
  say({
    type: "success",
    content: `sure=${answers.sure}: ${answers.sure ? "deleted" : "kept"} ${args.path}`,
  });
} else if (args.mode === "context") {
  say({ type: "success", content: JSON.stringify({ context, options: tool.options }) });
} else if (args.mode === "ask") {
  say({ type: "success", content: `renamed ${args.path} to ${answers.name}` });
} else {
  say({ type: "success", content: `${tool.name} read ${args.path} in ${context.root} (${context.action})` });
}
